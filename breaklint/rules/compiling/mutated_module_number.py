import ast

from breaklint.findings import Severity
from breaklint.rule import Outline, Rule


class MutatedModuleNumber(Rule):
    code = "BL811"
    name = "mutated-module-number"
    words = frozenset({"self"})

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        """A method whose class sets an attribute to an int (asked last: the class is read)."""
        return super().may_report(outline) and "int" in outline.self_assignments.constants_made()

    severity = Severity.ERROR
    breaks_graph = False
    recompiles = True
    message = (
        "`self.{attribute}` is a Python int of the module changed in compiled code: Dynamo "
        "guards on its value (`self.{attribute} == N`), so every call compiles again, until "
        "the recompile limit (8) makes the function run eagerly"
    )
    hint = (
        "keep the counter in a tensor buffer (`self.register_buffer('{attribute}', "
        "torch.zeros((), dtype=torch.long))`), or update it outside the compiled region"
    )
    fix_safety = """
No automatic fix: keeping the counter in a tensor buffer changes its type for every reader (a
tensor, not an int) and the module's state dict, across the class: a change of design, not of
one statement.
"""
    what = """
Flags `self.<attribute> += ...` (and `self.<attribute> = self.<attribute> + ...`) in compiled
code when the class assigns that attribute an `int` constant (`self.step = 0`): a step
counter, a call count, a cache position kept as a Python number on the module.
"""
    why = """
Dynamo treats the integer attributes of an `nn.Module` as constants of the graph and guards on
their values. Changing one inside the compiled code makes the guard fail on the next call
(`self.step == 0`, then `self.step == 1`, ...), so every call compiles a new graph; after
`torch._dynamo.config.recompile_limit` (8) compilations Dynamo gives up and the function runs
eagerly from then on. A float attribute compiles twice and then becomes dynamic; an int does
not (`torch._dynamo.config.allow_unspec_int_on_nn_module` changes that).
"""
    example = """
import torch


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.step = 0

    def forward(self, x):
        self.step += 1
        return x * self.step
"""
    use_instead = """
import torch


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("step", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        self.step += 1
        return x * self.step
"""
    probe = "(Scaled(), [(torch.randn(4),)] * 6)"

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._check(node.target, node)

    def visit_Assign(self, node: ast.Assign) -> None:
        value = node.value
        for target in node.targets:
            if isinstance(value, ast.BinOp) and _same_attribute(target, value.left):
                self._check(target, node)

    def _check(self, target: ast.expr, node: ast.stmt) -> None:
        attribute = _self_attribute(target)
        if attribute is None:
            return
        if "int" in self.context.self_assignments.constant_types(attribute):
            self.report(
                node,
                self.message.format(attribute=attribute),
                hint=self.hint and self.hint.format(attribute=attribute),
            )


def _self_attribute(node: ast.expr) -> str | None:
    """`step` for `self.step`."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr if node.value.id == "self" else None
    return None


def _same_attribute(target: ast.expr, operand: ast.expr) -> bool:
    attribute = _self_attribute(target)
    return attribute is not None and attribute == _self_attribute(operand)
