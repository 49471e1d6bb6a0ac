import ast

from breaklint.class_attributes import bind_made, made_object
from breaklint.findings import Severity
from breaklint.knowledge.curated import SKIPPED_TORCH_CLASSES
from breaklint.rule import Outline, Rule, RuleContext, called
from breaklint.syntax import dotted


class SkippedTorchObject(Rule):
    code = "BL520"
    name = "skipped-torch-object"
    words = called(*SKIPPED_TORCH_CLASSES)
    severity = Severity.ERROR
    message = (
        "`{call}(...)` makes a torch object whose code Dynamo does not trace (it skips the "
        "module it is defined in): it breaks the graph here to run it eagerly"
    )
    method_message = (
        "`{call}()` is a method of a `{maker}`, whose code Dynamo does not trace (it skips "
        "the module it is defined in): it breaks the graph here to run it eagerly"
    )
    fix_safety = """
No automatic fix: the object's methods change its own state (a quasi-random engine's position
in its sequence, a scaler's scale), which the calls after them read: where they run decides
what they give.
"""
    what = """
Flags, in compiled code, making an instance of a torch class whose code Dynamo does not trace
(`torch.quasirandom.SobolEngine`, `torch.amp.GradScaler`, `torch.utils.data.TensorDataset`),
and calling a method of one: held in a local the function binds to a new instance, or in an
attribute that the class's methods set only to new instances (`self.engine =
SobolEngine(...)` in `__init__`).
"""
    why = """
Dynamo inlines the Python code of only some of torch's modules; the others are marked as
skipped. A call of a function defined there, a class's `__init__` or a method, is one it
refuses to trace ("Attempted to inline function marked as skipped", GB0008): it breaks the
graph to run the call eagerly (measured on 2.13).
"""
    example = """
import torch
from torch.quasirandom import SobolEngine


class Sampler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.engine = SobolEngine(dimension=4, scramble=True, seed=0)

    def forward(self, x):
        points = self.engine.draw(x.shape[0])
        return x * 2 + points


compiled = torch.compile(Sampler())
"""
    use_instead = """
import torch
from torch.quasirandom import SobolEngine


class Sampler(torch.nn.Module):
    def __init__(self, rows=8):
        super().__init__()
        engine = SobolEngine(dimension=4, scramble=True, seed=0)
        self.register_buffer("points", engine.draw(rows))  # drawn once, eagerly

    def forward(self, x):
        return x * 2 + self.points[: x.shape[0]]


compiled = torch.compile(Sampler())
"""
    probe = "(Sampler(), (torch.randn(8, 4),))"
    gb_ids = ("GB0008",)

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        """Its classes made here, or a method of one its class makes (asked last: the class
        is read)."""
        if super().may_report(outline):
            return True
        made = outline.self_assignments.made() if "self" in outline.words else ()
        return not SKIPPED_TORCH_CLASSES.keys().isdisjoint(made)

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self.objects: dict[str, str] = {}  # locals bound to such objects: the class made

    def visit_Assign(self, node: ast.Assign) -> None:
        value = node.value
        made = self.context.facts.resolve(value.func) if isinstance(value, ast.Call) else None
        bind_made(self.objects, node.targets, made, SKIPPED_TORCH_CLASSES)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        maker = (
            made_object(
                func.value, self.objects, self.context.self_assignments, SKIPPED_TORCH_CLASSES
            )
            if isinstance(func, ast.Attribute)
            else None
        )
        if maker is not None:
            message = self.method_message.format(call=dotted(func), maker=maker)
            self.report(node, message, hint=SKIPPED_TORCH_CLASSES[maker])
            return
        name = self.context.facts.resolve(func)
        if name in SKIPPED_TORCH_CLASSES:
            self.report(node, self.message.format(call=name), hint=SKIPPED_TORCH_CLASSES[name])
