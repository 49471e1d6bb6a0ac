import ast

from breaklint.findings import Applicability, Severity
from breaklint.fixes import NOTICES, guard_fix
from breaklint.rule import FixExample, Rule, RuleContext
from breaklint.rules.side_effects.logging_call import LOG_METHODS, is_logger
from breaklint.syntax import contains

# The builtins that turn a tensor into text by reading its values.
TEXT_BUILTINS = frozenset({"str", "repr"})


class TensorToText(Rule):
    code = "BL107"
    name = "tensor-to-text"
    severity = Severity.ERROR
    message = (
        "`{builtin}()` of a tensor writes its values as text; Dynamo traces without values, so "
        "it breaks the graph here"
    )
    hint = (
        "build the text outside the compiled code, or from what a tensor knows without its "
        "values (`x.shape`, `x.dtype`)"
    )
    fix_safety = """
Unsafe fix: where the text is part of a statement that only tells (a `print`, a
`warnings.warn` or a logging call on its own lines), that statement runs only `if not
torch.compiler.is_compiling():`, as BL401, BL402 and BL403 guard it: eager runs write the text
as before, compiled runs skip the message (measured on 2.13: one graph, equal eager outputs).
Elsewhere no fix is offered: the text holds the tensor's values, which exist only once the
tensor is computed, and code that reads the text (a label, a key, a message kept in a name)
has to run outside the compiled function. A `raise`'s message is built only when the code
raises, and whether it raises is another rule's (BL201) to keep in the graph.
"""
    what = """
Flags `str(t)` and `repr(t)` of a tensor in compiled code. The text of what a tensor knows
without its values (`str(x.shape)`, `str(x.dtype)`) is not flagged: Dynamo traces it.
"""
    why = """
A tensor's text is its values, printed; fake tensors have none. Dynamo cannot trace the
builtin on a tensor ("Failed to trace builtin operator", GB0059; `repr`: GB0569), breaks the
graph, calls it eagerly and continues in a new graph.
"""
    example = """
import torch


def tagged(x):
    y = x.sum()
    label = "total " + str(y)
    return x * len(label)


compiled = torch.compile(tagged)
"""
    use_instead = """
import torch


def tagged(x):
    label = "total " + str(x.dtype)
    return x * len(label)


compiled = torch.compile(tagged)
"""
    probe = "(tagged, (torch.randn(3),))"
    gb_ids = ("GB0059", "GB0569")
    words = TEXT_BUILTINS
    fix_applicability = Applicability.UNSAFE
    fix_examples = (
        FixExample(
            before="""
import logging

import torch

logger = logging.getLogger("model")


def normalized(x):
    total = x.sum()
    logger.info("normalizing by " + str(total))
    return x / total


compiled = torch.compile(normalized)
""",
            after="""
import logging

import torch

logger = logging.getLogger("model")


def normalized(x):
    total = x.sum()
    if not torch.compiler.is_compiling():
        logger.info("normalizing by " + str(total))
    return x / total


compiled = torch.compile(normalized)
""",
            probe="(normalized, (torch.rand(8) + 1,))",
        ),
    )

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._telling: ast.Call | None = None  # the statement being read, if it only tells

    def _tells(self, node: ast.Call) -> bool:
        """Whether `node` is a statement of its own that only tells: `print`,
        `warnings.warn`, a logging call."""
        facts = self.context.facts
        if facts.statement_of(node) is None:
            return False
        func = node.func
        if facts.resolve(func) in NOTICES:
            return True
        if not isinstance(func, ast.Attribute) or func.attr not in LOG_METHODS:
            return False
        receiver = facts.resolve(func.value)
        return receiver is not None and is_logger(receiver)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        facts = self.context.facts
        if self._tells(node):
            self._telling = node
        if (
            isinstance(func, ast.Name)
            and func.id in TEXT_BUILTINS
            and func.id not in facts.names
            and len(node.args) == 1
            and not node.keywords
            and facts.kind(node.args[0]).is_tensor
        ):
            severity = Severity.WARNING if facts.rests_on_guess(node.args[0]) else None
            telling = self._telling
            fix = None
            if telling is not None and contains(telling, node):
                fix = guard_fix(self.context, telling, self.fix_applicability)
            message = self.message.format(builtin=func.id)
            self.report(node, message, severity=severity, fix=fix)
