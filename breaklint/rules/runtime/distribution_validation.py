import ast

from breaklint.findings import Severity
from breaklint.knowledge.answers import DISTRIBUTION_VALIDATION
from breaklint.rule import Rule

# The `torch.distributions` classes whose constructor, validating, checks a parameter against
# its constraint (`generate.distribution_validation`), as shipped; empty where the validation
# was measured not to break.
VALIDATING = frozenset(DISTRIBUTION_VALIDATION["constructors"])
SETS_DEFAULT = bool(DISTRIBUTION_VALIDATION["set_default_validate_args"])
SET_DEFAULT = "set_default_validate_args"


def _validates(node: ast.Call) -> bool:
    """`validate_args=True` among the call's keywords, written as such."""
    return any(
        keyword.arg == "validate_args"
        and isinstance(keyword.value, ast.Constant)
        and keyword.value.value is True
        for keyword in node.keywords
    )


class DistributionValidation(Rule):
    code = "BL517"
    name = "distribution-validation"
    words = frozenset({"validate_args", SET_DEFAULT})
    severity = Severity.ERROR
    message = (
        "`{call}(..., validate_args=True)` checks its parameters against their constraints, "
        "which calls `torch.distributions.constraints.is_dependent`, a function Dynamo skips: "
        "it breaks the graph here (and `log_prob` on it checks each value with a "
        "data-dependent branch, another break)"
    )
    set_default_message = (
        "`{call}()` sets a class attribute of `torch.distributions.Distribution`, which Dynamo "
        "cannot do in a graph; it breaks the graph here"
    )
    hint = (
        "leave `validate_args` out (Dynamo turns the default validation off when it first "
        "compiles) or pass `validate_args=False`; validate outside the compiled code"
    )
    set_default_hint = "set the default validation once, outside the compiled code"
    gb_ids = ("GB0007",)
    fix_safety = """
No automatic fix: `validate_args=False` (or leaving it out) removes the checks that raise on a
parameter or value outside its distribution's support, which the code asked for; where to check
instead, outside the compiled code, is the code's choice. Moving `set_default_validate_args` out
of the compiled function changes when the default changes for every distribution made after it.
"""
    what = """
Flags, in compiled code, a `torch.distributions` distribution made with `validate_args=True`
whose class checks parameters (its `arg_constraints` is not empty: `Normal`, `Categorical`,
`MultivariateNormal`, ...; `Independent` and `TransformedDistribution` check none), and calls of
`Distribution.set_default_validate_args(...)`.
"""
    why = """
A validating constructor checks each parameter against its constraint and first asks
`constraints.is_dependent(constraint)`, a function Dynamo's developers marked as not to be
traced ("Attempted to call function marked as skipped", GB0007): the graph breaks at the
constructor. `log_prob` on a validating distribution checks the value with
`if not valid.all(): raise ...`, a branch on tensor data: another break. Without
`validate_args`, nothing is checked in compiled code: when Dynamo first compiles it calls
`Distribution.set_default_validate_args(False)`, so `Normal(loc, scale)`, `.log_prob`,
`.sample`, `.rsample` and `.entropy` all compile into one graph (measured on torch 2.13).
Setting the default in compiled code is a class attribute write Dynamo does not support
("setattr() on unsupported type"), whatever the value.
"""
    example = """
import torch
from torch.distributions import Normal


def log_likelihood(mean, log_scale, target):
    scale = log_scale.exp()
    return Normal(mean, scale, validate_args=True).log_prob(target).sum()


compiled = torch.compile(log_likelihood)
"""
    use_instead = """
import torch
from torch.distributions import Normal


def log_likelihood(mean, log_scale, target):
    scale = log_scale.exp()
    return Normal(mean, scale).log_prob(target).sum()


compiled = torch.compile(log_likelihood)
"""
    probe = "(log_likelihood, (torch.zeros(4), torch.zeros(4), torch.zeros(4)))"

    def visit_Call(self, node: ast.Call) -> None:
        name = self.context.facts.resolve(node.func)
        if name is None:
            return
        if name in VALIDATING and _validates(node):
            self.report(node, self.message.format(call=name))
        elif (
            SETS_DEFAULT
            and name.startswith("torch.distributions.")
            and name.endswith(f".{SET_DEFAULT}")
        ):
            self.report(
                node, self.set_default_message.format(call=name), hint=self.set_default_hint
            )
