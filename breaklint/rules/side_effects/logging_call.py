import ast

from breaklint.findings import Applicability, Severity
from breaklint.fixes import guard_fix
from breaklint.rule import FixExample, Rule
from breaklint.syntax import dotted

LOG_METHODS = frozenset(
    {
        "debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log",
        "warning_once", "info_once", "warning_advice",
    }
)  # fmt: skip


def is_logger(receiver: str) -> bool:
    """`logging`, `logger`, `self.logger`, `_LOG`, `log`: a receiver named as a logger."""
    last = receiver.rpartition(".")[2].lower()
    return receiver.startswith("logging") or "logger" in last or last.strip("_") == "log"


class LoggingCall(Rule):
    code = "BL402"
    name = "logging-call"
    words = LOG_METHODS
    severity = Severity.ERROR
    message = (
        "logging call `{call}`: Dynamo does not trace into the logging machinery, so it breaks "
        "the graph here to run it eagerly"
    )
    hint = (
        "log outside the compiled code, guard it with `if not torch.compiler.is_compiling():`, "
        "or list the method in torch._dynamo.config.ignore_logger_methods"
    )
    what = """
Flags `logging.info(...)`, `logger.warning(...)` and the other level methods (including
transformers' `logger.warning_once`) on a `logging` module or a receiver named as a logger.
"""
    why = """
Logging formats strings, reads handlers and writes to streams: side effects outside any graph.
Dynamo breaks the graph at the call (GB0291), runs it eagerly and resumes after it.
"""
    example = """
import logging

import torch

logger = logging.getLogger("model")


def scaled(x):
    y = x * 2
    logger.info("scaled a batch of %d", y.shape[0])
    return y + 1


compiled = torch.compile(scaled)
"""
    use_instead = """
import logging

import torch

logger = logging.getLogger("model")


def scaled(x):
    y = x * 2
    if not torch.compiler.is_compiling():
        logger.info("scaled a batch of %d", y.shape[0])
    return y + 1


compiled = torch.compile(scaled)
"""
    probe = "(scaled, (torch.randn(8),))"
    fix_applicability = Applicability.UNSAFE
    fix_safety = """
Unsafe fix: the statement is guarded with `if not torch.compiler.is_compiling():`, so eager runs
keep the log record and compiled runs skip it. Offered when the call is a whole statement on its
own lines (a comment may follow it); the file's name for torch is used, and `import torch`
is added when the file has none.
"""
    gb_ids = ("GB0291",)
    fix_examples = (FixExample(example, use_instead, probe),)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in LOG_METHODS:
            return
        receiver = self.context.facts.resolve(func.value)
        if receiver is not None and is_logger(receiver):
            message = self.message.format(call=f"{dotted(func)}()")
            self.report(node, message, fix=guard_fix(self.context, node, self.fix_applicability))
