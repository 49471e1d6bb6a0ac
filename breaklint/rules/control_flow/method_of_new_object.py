import ast

from breaklint.findings import Severity
from breaklint.index import on_object_made_here
from breaklint.rule import Report
from breaklint.rules.control_flow._frame_skip import ObservedSkip, written_callee


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
    fix_safety = """
No automatic fix: the object may hold state made from the call's arguments. The break in the
method has its own rule, which offers a fix where one exists; once it is fixed, this finding
goes too.
"""
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

    def block_of(self, report: Report) -> tuple[int, bool] | None:
        node = report.node
        if not isinstance(node, ast.Call) or not any(r is report for r in self.callee_breaks):
            return None
        written = written_callee(node.func)
        if written is None or not (
            on_object_made_here(written) or written in self.context.facts.new_object_calls
        ):
            return None
        return id(node), self.conditional[id(report)]
