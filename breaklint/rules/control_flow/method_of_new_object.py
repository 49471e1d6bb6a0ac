from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer
from breaklint.index import on_object_made_here
from breaklint.rule import FixExample, Report
from breaklint.rules.control_flow._frame_skip import ObservedSkip, written_callee

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten

# The name the fix binds an object made in the call's own expression to.
INSTANCE = "instance"
# Where an assignment expression (`instance := ...`) may not stand, or binds elsewhere.
_OTHER_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _class_function(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `class-function` fix: `obj.run(x)` becomes `type(obj).run(obj, x)`, and
    `Helper(n).run(x)` becomes `type(instance := Helper(n)).run(instance, x)`."""
    import libcst as cst

    from breaklint.rewrites import call

    if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
        return None
    receiver = node.func.value
    if isinstance(receiver, cst.Name):
        made: cst.BaseExpression = receiver
        instance = receiver
    elif isinstance(receiver, cst.Call):
        made = cst.NamedExpr(target=cst.Name(INSTANCE), value=receiver)
        instance = cst.Name(INSTANCE)
    else:
        return None
    function = node.func.with_changes(value=call(cst.Name("type"), made))
    return node.with_changes(func=function, args=[cst.Arg(instance), *node.args])


_SOLVE = """
import torch


class Scaler:
    def __init__(self, k):
        self.k = k

    def run(self, x):
        return x * self.k + sum(x.tolist())


def scaled(x):
    y = x * 2
    return {call} + 1


compiled = torch.compile(scaled)
"""


class MethodOfNewObject(ObservedSkip):
    code = "BL208"
    name = "break-in-method-of-new-object"
    severity = Severity.ERROR
    message = (
        "call of a method that breaks the graph ({codes}) on an object made in this "
        "function: Dynamo cannot rebuild the bound method to resume after the break, so it "
        "skips the whole frame and `{function}` runs eagerly, with no graph at all"
    )
    hint = (
        "make the method traceable (see {codes}), or make the object once outside the "
        "compiled code (an attribute set in `__init__`) and call the method on it"
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"class-function": _class_function}
    fix_safety = """
Unsafe fix: the method is called as a function of the object's class, with the object as its
first argument: `obj.run(x)` becomes `type(obj).run(obj, x)`, and `Helper(n).run(x)` becomes
`type(instance := Helper(n)).run(instance, x)` (offered where the function has no other
`instance`, and not inside a lambda or a comprehension). Dynamo can rebuild a function it
loaded from a class, so it resumes after the break in the method instead of skipping the
caller's frame; the break in the method stays, with its own rule and fix. The same call is made
with the same arguments, in the same order, when the method is a function the class defines or
inherits: the fix assumes so. A `staticmethod` or `classmethod` of that name, or a callable
the object holds as an attribute of its own, would be called otherwise.
"""
    fix_examples = (
        FixExample(
            before=_SOLVE.format(call="Scaler(3).run(y)"),
            after=_SOLVE.format(call="type(instance := Scaler(3)).run(instance, y)"),
            probe="(scaled, (torch.randn(8),))",
            counts=(4, 2),
        ),
    )
    what = """
Flags a call of a project method on an object made in the same expression
(`Helper(n).run(x)`, `make_norm().apply(x)`), or on a local that every assignment sets to an
instance this function constructs (`solver = Euler(bm)`, or `solver = solver_class(bm)` after
`solver_class = select(method)` where `select` returns project classes), when the method
breaks the graph: certainly, where its own code holds an error, else maybe (a warning). As
after BL202, the breaks found on later lines of the function become info once the skip is
certain. A method of `self`, of an attribute, of `super()`, or of a local that a function
returns (`shared = shared_solver()`, an object that may have been made before the compiled
code ran) is not flagged: Dynamo rebuilds those and resumes after the call.
"""
    why = """
When a function Dynamo inlines breaks, Dynamo breaks at the call in the caller and has to
rebuild the callable there to run it eagerly. A bound method of an object made while tracing
has no source it can load it from ("Reconstruction failure", GB0092): Dynamo gives up on the
whole caller's frame, which runs eagerly; the method then runs as a frame of its own and breaks
there (measured with torch 2.13 and Python 3.11).
"""
    example = """
import torch


class Scaler:
    def run(self, x):
        return x * x.sum().item()


def scaled(x):
    y = x * 2
    return Scaler().run(y) + 1


compiled = torch.compile(scaled)
"""
    use_instead = """
import torch


class Scaler:
    def run(self, x):
        return x * x.sum()


def scaled(x):
    y = x * 2
    return Scaler().run(y) + 1


compiled = torch.compile(scaled)
"""
    probe = "(scaled, (torch.randn(8),))"
    gb_ids = ("GB0092",)
    skips_at_the_call = True

    def skip_fix(self, node: ast.AST) -> Fix | None:
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            return None
        receiver = node.func.value
        if "type" in self.context.facts.names or "type" in self.context.imports:
            return None
        if isinstance(receiver, ast.Call) and not self._may_bind_instance(node):
            return None
        if not isinstance(receiver, ast.Name | ast.Call):
            return None
        message = "call the method from the object's class: `type(obj).method(obj, ...)`"
        return offer(self.context, node, message, "class-function", self.fix_applicability)

    def _may_bind_instance(self, node: ast.Call) -> bool:
        """Whether the function has no name `instance` and `node` lies in no lambda or
        comprehension, so that `instance := ...` binds a new local of the function."""
        definition = self.context.definition
        for inner in ast.walk(definition):
            if isinstance(inner, ast.Name | ast.arg) and INSTANCE in (
                getattr(inner, "id", None),
                getattr(inner, "arg", None),
            ):
                return False
            if isinstance(inner, _OTHER_SCOPES) and any(n is node for n in ast.walk(inner)):
                return False
        return True

    def block_of(self, report: Report) -> tuple[int, bool] | None:
        node = report.node
        if not isinstance(node, ast.Call) or not any(r is report for r in self.callee_breaks):
            return None
        written = written_callee(node.func)
        if written is None or not (
            on_object_made_here(written)
            or (
                written in self.context.facts.new_object_calls
                and not self._made_outside(node, written.partition(".")[0])
            )
        ):
            return None
        return id(node), self.conditional[id(report)]

    def _made_outside(self, call: ast.Call, name: str) -> bool:
        """Whether the function `call` lies in (this one, or one nested in it) does not bind
        `name` itself: a variable of an enclosing function (a compiled closure's), whose object
        is made before this frame runs, so Dynamo can rebuild its method and resumes after
        the break."""
        enclosing = [
            inner
            for inner in ast.walk(self.context.definition)
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef)
            and any(n is call for n in ast.walk(inner))
        ]
        innermost = enclosing[-1]  # the walk meets outer functions first
        return not any(
            (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == name)
            or (isinstance(n, ast.arg) and n.arg == name)
            for n in ast.walk(innermost)
        )
