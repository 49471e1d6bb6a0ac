import ast

from breaklint.findings import Severity
from breaklint.rule import Outline, Rule
from breaklint.scope import eager_making


def _calls_super_call(node: ast.Call) -> bool:
    """`super().__call__(...)` or `super(Meta, cls).__call__(...)`."""
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "__call__"
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
        and func.value.func.id == "super"
    )


class EagerMetaclassCall(Rule):
    code = "BL518"
    name = "eager-metaclass-call"
    severity = Severity.WARNING
    message = (
        "`super().__call__()` in the metaclass `__call__` that making `{cls}` runs: {why}, so "
        "the object is made eagerly and Dynamo compiles this `__call__` as a frame of its "
        "own, where it cannot call `type.__call__` through `super()`; it breaks the graph here"
    )
    hint = (
        "remove the break that makes the object eagerly, or make the object outside the "
        "compiled code"
    )
    gb_ids = ("GB0006",)
    fix_safety = """
No automatic fix: the break comes from where the object is made eagerly (another break, in its
`__init__` or in the frame that makes it), which is what to fix; rewriting the metaclass's
`__call__` changes what every instance of its classes runs through.
"""
    what = """
Flags `super().__call__(...)` in a metaclass's `__call__` (`class Meta(type)`, an
`abc.ABCMeta` subclass) where compiled code makes an instance of a class with that metaclass
(directly, through its bases, or through a subclass) and the making runs eagerly: the frame that
makes it is skipped (a break in a loop, ...), or the class's `__init__` breaks the graph. Not
where the call passes only constants (`Scale(2.0)`). A warning: Dynamo compiles the metaclass's
`__call__` only where what it gets holds a tensor, which the call's arguments may not.
"""
    why = """
Where Dynamo traces the making of an instance it makes it with `__new__` and `__init__` and
never runs the metaclass's `__call__`: that compiles into the graph. Where the making runs
eagerly (the caller's frame is skipped, or its `__init__` breaks and Dynamo runs the call
eagerly), Python calls the metaclass's `__call__`, and Dynamo compiles that as a frame of its
own (where its arguments hold a tensor: a frame without one runs as it is). There
`super().__call__` is `type.__call__`, a slot wrapper that is not a function or method:
"Attempted to call a super() attribute that is not a function or method" (GB0006), measured on
torch 2.13.
"""
    example = """
import torch


class Registered(type):
    def __call__(cls, *args, **kwargs):
        instance = super().__call__(*args, **kwargs)
        return instance


class Scale(metaclass=Registered):
    def __init__(self, factor):
        print("scale", factor)
        self.factor = factor


def scaled(x):
    y = x * 2
    return y * Scale(x.sum()).factor


compiled = torch.compile(scaled)
"""
    use_instead = """
import torch


class Registered(type):
    def __call__(cls, *args, **kwargs):
        instance = super().__call__(*args, **kwargs)
        return instance


class Scale(metaclass=Registered):
    def __init__(self, factor):
        self.factor = factor


def scaled(x):
    y = x * 2
    return y * Scale(x.sum()).factor


compiled = torch.compile(scaled)
"""
    probe = "(scaled, (torch.randn(8),))"
    words = frozenset({"__call__"})

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        return bool(outline.function.eager_call) and super().may_report(outline)

    def visit_Call(self, node: ast.Call) -> None:
        eager_call = self.context.facts.eager_call
        if not eager_call or not _calls_super_call(node):
            return
        certain, made, why = eager_making(eager_call)
        self.report(
            node,
            self.message.format(cls=made, why=why),
            severity=Severity.ERROR if certain else Severity.WARNING,
        )
