import ast

from breaklint.findings import Severity
from breaklint.rule import Outline, Rule
from breaklint.syntax import dotted


class PartialSubclassCall(Rule):
    code = "BL519"
    name = "partial-subclass-call"
    severity = Severity.ERROR
    message = (
        "`{call}(...)` makes an instance of a subclass of `{base}`: Dynamo traces `{base}` "
        "itself but cannot call a subclass of it, and breaks the graph here"
    )
    hint = "make the `{base}` itself in compiled code (`{base}(fn, ...)`), or the object outside"
    fix_safety = """
No automatic fix: the subclass exists for what it adds to `functools.partial` (a `__get__`
that binds it as a method, a `__repr__`, attributes), which `functools.partial` itself does
not do.
"""
    what = """
Flags a call of a project class deriving from `functools.partial` (directly or through
project classes), in compiled code: making the instance.
"""
    why = """
Dynamo knows `functools.partial` and traces it as the call it stands for. A subclass is a
user-defined class whose construction runs `partial.__new__`, a C method it does not trace: it
gives up on the call ("Unsupported function call", GB0147) and breaks the graph to make the
object eagerly (measured on 2.13).
"""
    example = """
import functools

import torch


class bound(functools.partial):
    def __get__(self, instance, owner=None):
        return self if instance is None else functools.partial(self, instance)


def scaled(x, factor):
    return x * factor


def run(x):
    half = bound(scaled, factor=0.5)
    return half(x + 1) * 2


compiled = torch.compile(run)
"""
    use_instead = """
import functools

import torch


def scaled(x, factor):
    return x * factor


def run(x):
    half = functools.partial(scaled, factor=0.5)
    return half(x + 1) * 2


compiled = torch.compile(run)
"""
    probe = "(run, (torch.randn(4),))"
    gb_ids = ("GB0147",)

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        return bool(outline.function.uncallable_calls)

    def visit_Call(self, node: ast.Call) -> None:
        called = dotted(node.func)
        base = self.context.facts.uncallable_calls.get(called or "")
        if called is None or base is None:
            return
        self.report(
            node, self.message.format(call=called, base=base), hint=self.hint.format(base=base)
        )
