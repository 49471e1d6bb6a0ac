import ast

from breaklint.class_attributes import made_by
from breaklint.findings import Severity
from breaklint.knowledge.curated import OPTIMIZER_METHODS, OPTIMIZER_MODULE
from breaklint.rule import Rule
from breaklint.syntax import dotted, method_call


class OptimizerCall(Rule):
    code = "BL510"
    name = "optimizer-call"
    words = OPTIMIZER_METHODS
    severity = Severity.ERROR
    message = (
        "`{call}()` of a `torch.optim` {kind} in compiled code: Dynamo 2.13 breaks the graph "
        "here ({why})"
    )
    hint = (
        "compile the model or the loss and call the optimizer outside the compiled function; "
        "an optimizer's `step` may be compiled on its own (`torch.compile(optimizer.step)`), "
        "where the breaks around the update are intended"
    )
    fix_safety = """
No automatic fix: moving the optimizer out of the compiled function changes where the training
step's boundary lies (what the caller compiles and what it calls around it), not one statement.
"""
    what = """
Flags, in compiled code, `zero_grad()` and `step()` of an optimizer or a learning-rate
scheduler of `torch.optim`: one a module-level name holds (`optimizer = torch.optim.AdamW(...)`,
here or imported), one the class makes (`self.optimizer = torch.optim.SGD(...)`), or a parameter
annotated as one (`optimizer: torch.optim.Optimizer`). A training step compiled whole
(`torch.compile(train_step)`) breaks at each of them, besides `loss.backward()` (BL509).
"""
    why = """
`Optimizer.zero_grad` and a scheduler's `step` are functions Dynamo 2.13 skips ("Attempted to
inline function marked as skipped", GB0008): it breaks the graph to run them eagerly. An
optimizer's `step` breaks before and after the update on purpose
(`torch._dynamo.graph_break()` in `torch.optim.optimizer`, GB0025), so that the update runs
without autograd in a graph of its own (measured with SGD, Adam and StepLR).
"""
    example = """
import torch
from torch import nn

model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def step(x, y):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.detach()


compiled = torch.compile(step)
"""
    use_instead = """
import torch
from torch import nn

model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def step(x, y):
    return nn.functional.mse_loss(model(x), y)


compiled = torch.compile(step)


def train(x, y):
    optimizer.zero_grad()
    loss = compiled(x, y)
    loss.backward()
    optimizer.step()
    return loss.detach()
"""
    probe = "(step, (torch.randn(4, 3), torch.randn(4, 1)))"
    gb_ids = ("GB0008", "GB0025")

    def visit_Call(self, node: ast.Call) -> None:
        call = method_call(node)
        if call is None or call[1] not in OPTIMIZER_METHODS:
            return
        receiver, method = call
        made = self._made_by(receiver)
        if not made or not all(cls.startswith(OPTIMIZER_MODULE) for cls in made):
            return
        scheduler = all(".lr_scheduler." in cls for cls in made)
        kind = "learning-rate scheduler" if scheduler else "optimizer"
        if method == "step" and not scheduler:
            why = "it breaks before and after the update on purpose"
        else:
            why = "Dynamo skips the function and runs it eagerly"
        message = self.message.format(call=f"{dotted(receiver)}.{method}", kind=kind, why=why)
        self.report(node, message)

    def _made_by(self, receiver: ast.expr) -> tuple[str, ...]:
        """The classes whose instance `receiver` holds: a module-level object (here or
        imported), what a method of the class assigns, or a parameter's annotation."""
        context = self.context
        made = made_by(receiver, context.facts.held_objects, context.self_assignments)
        if not made and isinstance(receiver, ast.Name):
            return self._annotated(receiver.id)
        return made

    def _annotated(self, name: str) -> tuple[str, ...]:
        arguments = self.context.definition.args
        for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
            if argument.arg == name and argument.annotation is not None:
                resolved = self.context.facts.resolve(argument.annotation)
                return () if resolved is None else (resolved,)
        return ()
