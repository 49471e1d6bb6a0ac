import ast

from breaklint.findings import Severity
from breaklint.rule import Outline, Report, Rule
from breaklint.scope import eager_making

_BODIES = ("body", "orelse", "finalbody")


class UninitializedModuleInit(Rule):
    code = "BL211"
    name = "uninitialized-module-init"
    severity = Severity.ERROR
    message = (
        "`{cls}` is made where it runs eagerly ({why}): Dynamo compiles this `__init__` as a "
        "frame of its own, meets the module before `nn.Module.__init__` has set it up and "
        "skips the whole frame"
    )
    hint = (
        "make the module once, outside the compiled code (in the caller's `__init__`), or "
        "remove what runs it eagerly: the frame skip or the break named here"
    )
    fix_safety = """
No automatic fix: the `__init__` runs eagerly because of another finding (the caller's frame
skip, or a break while the module is made); once that is fixed, this finding goes too.
Making the module elsewhere changes when it is made, which only its author can decide.
"""
    what = """
Flags the first statement that reads `self` (mostly `super().__init__()`) in the `__init__` of
an `nn.Module` class, and in each project `__init__` its `super().__init__()` chains to, where
compiled code makes an instance that runs it eagerly: in a function whose frame another rule
finds skipped (BL202, BL204, BL206 to BL210: the whole frame runs eagerly, constructors
included; not where a break before the skip splits the frame, whose first part Dynamo traced),
or where one of those `__init__`s breaks the graph itself. An error where that skip or break
is certain, a warning otherwise. Not flagged: a module made in code Dynamo traces without a
break (its `__init__` is inlined; an `nn.Parameter` made there breaks, BL503), and a class
that is no `nn.Module`.
"""
    why = """
Where a frame runs eagerly, Dynamo still compiles each frame it calls, one by one: the
module's `__init__` is one. On entry its `self` is a module whose `nn.Module.__init__` has
not run yet, which Dynamo cannot track ("Uninitialized nn.Module", GB0119): it skips the
`__init__` frame at the first line that reads `self`, and each base class's `__init__` that
`super().__init__()` reaches is a frame skipped the same way (measured with torch 2.13 and
Python 3.11; the same module made in traced code without a break is inlined and breaks
nowhere). The module is made correctly, eagerly; what is lost is time: each of these frames
is tried, and reported, on every call.
"""
    example = """
import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor

    def forward(self, x):
        return x * self.factor


def solve(x):
    for _ in range(2):
        print("step")
        x = Scale(2.0)(x)
    return x


compiled = torch.compile(solve)
"""
    use_instead = """
import torch


def scale(x, factor):
    return x * factor


def solve(x):
    for _ in range(2):
        x = scale(x, 2.0)
    return x


compiled = torch.compile(solve)
"""
    probe = "(solve, (torch.randn(8),))"
    gb_ids = ("GB0119",)
    breaks_graph = False  # the frame runs eagerly already: no graph is split here
    words = frozenset({"self"})

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        return bool(outline.function.eager_init) and super().may_report(outline)

    def finish(self, reports: list[Report]) -> None:
        eager_init = self.context.facts.eager_init
        at = _first_self_read(self.context.definition.body) if eager_init else None
        if at is None:
            return
        certain, cls, why = eager_making(eager_init)
        self.report(
            at,
            self.message.format(cls=cls, why=why),
            severity=Severity.ERROR if certain else Severity.WARNING,
        )


def _first_self_read(statements: list[ast.stmt]) -> ast.stmt | None:
    """The first statement, in the order they run, whose own code reads `self`: for a compound
    statement, its header (an `if`'s test), else the first such statement in its bodies (an
    `except` clause's among them)."""
    for statement in statements:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        bodies: list[list[ast.stmt]] = [getattr(statement, name, []) for name in _BODIES]
        if isinstance(statement, ast.Try | ast.TryStar):
            bodies.insert(1, [s for h in statement.handlers for s in h.body])
        nested = {id(s) for body in bodies for s in body}
        header = [
            node
            for node in ast.iter_child_nodes(statement)
            if id(node) not in nested and not isinstance(node, ast.excepthandler)
        ]
        if any(_reads_self(node) for node in header):
            return statement
        for body in bodies:
            found = _first_self_read(body)
            if found is not None:
                return found
    return None


def _reads_self(node: ast.AST) -> bool:
    """Whether `node` reads `self`: by name, or through `super()`, which loads it."""
    for part in ast.walk(node):
        if isinstance(part, ast.Name) and part.id == "self" and isinstance(part.ctx, ast.Load):
            return True
        if (
            isinstance(part, ast.Call)
            and isinstance(part.func, ast.Name)
            and part.func.id == "super"
        ):
            return True
    return False
