import ast
from collections.abc import Sequence

from breaklint.findings import Severity
from breaklint.kinds import Kind
from breaklint.knowledge.tensor_facts import TENSOR_FACTORIES
from breaklint.rule import Report, Rule, RuleContext
from breaklint.syntax import method_call


class RequiresGradToggle(Rule):
    code = "BL503"
    name = "requires-grad-toggle"
    words = frozenset({"requires_grad", "requires_grad_", "Parameter"})
    severity = Severity.ERROR
    message = (
        "`.requires_grad_()` on {what} changes autograd metadata that the compiled graph "
        "depends on; Dynamo breaks the graph here"
    )
    assignment_message = (
        "assigning `.requires_grad` on a tensor inside the traced region is not supported; "
        "Dynamo breaks the graph here"
    )
    creation_message = (
        "`{call}` with `requires_grad=True` makes a tensor that requires gradients inside the "
        "traced region, which Dynamo does not support; it breaks the graph here"
    )
    parameter_message = (
        "`{call}` of a tensor made here creates a parameter inside the traced region, which "
        "Dynamo does not support; it breaks the graph here"
    )
    hint = "set requires_grad on inputs and parameters before calling the compiled code"
    fix_safety = """
No automatic fix: Dynamo 2.13 breaks on `t.requires_grad = True` and on `t.requires_grad_()`
alike (measured), and autograd needs the flag where the code sets it: it belongs on inputs and
parameters before the compiled call, outside the function flagged.
"""
    what = """
Flags `t.requires_grad = ...` on a tensor, which Dynamo never traces, and
`t.requires_grad_()` where Dynamo breaks on it: on an input of the compiled function (one of
its parameters, an attribute such as a module's parameter, or a loop's variable over what an
input holds, `for p in self.parameters()`), or on a tensor that flows into
what the function returns, or, for a tensor for certain (`h.detach().requires_grad_()`), keeps
beyond its frame: stores on an attribute or in a container that is no local (`self.state = h`,
`cache[k] = h`, `self.saved.append(h)`), or reads in a function or lambda it makes that leaves
it (a hook it registers, a callable it stores); not in a nested function it only calls.
`.requires_grad_()` on a tensor made inside the function that only feeds the computation
compiles into the graph and is not flagged, nor is `.requires_grad_(False)` on a tensor the
function makes (it requires no gradient, or is no leaf and eager raises). A fixed flag on what
the object holds (`self.zero.requires_grad_()`) is flagged too: the object keeps it, so Dynamo
compiles the calls after the first without a break, but a user's first compiled call breaks
there. Also flags a torch factory
called with `requires_grad=True` (`torch.zeros_like(o, requires_grad=True)`, `torch.tensor(v,
requires_grad=True)`), and as a warning with a flag known only at run time
(`requires_grad=self.training`); a tensor's own `x.new_zeros(..., requires_grad=True)` is
traced. And `nn.Parameter(t)` of a tensor made in the function (`nn.Parameter(torch.zeros(n))`,
a lazy initialisation in `forward`); of an input (`nn.Parameter(x)`) Dynamo makes it before the
graph, and in `__init__` (with `--scope all`) the object is built eagerly.
"""
    why = """
Dynamo cannot change whether a graph input requires gradients (GB0125, "Unsupported
Tensor.requires_grad_() call"), nor return or keep an intermediate it turned into a leaf
("requires_grad_() intermediate leaked as output", GB8985), nor assign the attribute at all
("setattr() on Tensor.requires_grad"), nor make a leaf with a torch factory (GB0225,
"Attempted to use tensor creation function with requires_grad=True"), nor construct a
parameter from a tensor it computes ("Attempted to use `torch.nn.Parameter()` constructor with
Dynamo"): the autograd graph built around the compiled region depends on it. It breaks the
graph and runs the change eagerly.
"""
    example = """
import torch


def prepare(x):
    y = x * 2
    y.requires_grad_()
    return y + 1


compiled = torch.compile(prepare)
"""
    use_instead = """
import torch


def prepare(x):
    y = x * 2
    return y + 1


compiled = torch.compile(prepare)
"""
    probe = "(prepare, (torch.randn(8),))"
    gb_ids = ("GB0125", "GB0225", "GB8985")

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._outer: ast.AST | None = None  # the function itself, not one nested in it
        self._parameters: set[str] = set()
        # Loop variables over an input's elements (`for arg in self._args`, `for p in
        # module.parameters()`): inputs too, with a source Dynamo cannot change.
        self._input_elements: set[str] = set()
        # What flows where, read only when a toggle needs it: most functions have none.
        self._bound: list[tuple[list[str], ast.expr]] = []  # names bound, the value they get
        self._returns: list[ast.expr] = []  # the values the function itself returns
        # Values stored where they outlive the frame (`self.state = h`, `cache[k] = h`,
        # `self.saved.append(h)`): outputs of the graph as much as what is returned.
        self._stored: list[ast.expr] = []
        # Calls on a local, decided at the end: the report, the name, and whether the
        # receiver is a tensor for certain (only such a one is followed into stores).
        self._toggled: list[tuple[Report, str, bool]] = []
        self._assigned: list[str] = []  # names the statement being visited binds
        self._storing = False  # the statement being visited stores beyond the frame
        self._in_return = False

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self.context.facts.in_outer_function:
            self._outer = node
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            self._parameters = {a.arg for a in every if a.arg not in ("self", "cls")}
            self._input_elements = set()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        self._assigned = [name for target in node.targets for name in _names_bound(target)]
        self._bound.append((self._assigned, node.value))
        self._parameters.difference_update(self._assigned)
        self._input_elements.difference_update(self._assigned)
        self._storing = any(isinstance(t, ast.Attribute | ast.Subscript) for t in node.targets)
        if self._storing:
            self._stored.append(node.value)
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target.attr == "requires_grad":
                receiver = target.value
                is_module = isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")
                if not is_module and self.context.facts.kind(receiver) is not Kind.PYTHON:
                    self.report(target, self.assignment_message)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        if isinstance(node.target, ast.Name):
            if self._rooted_in_an_input(node.iter):
                self._input_elements.add(node.target.id)
            else:
                self._input_elements.discard(node.target.id)

    visit_AsyncFor = visit_For

    def _rooted_in_an_input(self, node: ast.expr) -> bool:
        """`self._args`, `module.parameters()`, `xs[1:]`: what an input holds, or a method of
        it returns."""
        while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
            node = node.func if isinstance(node, ast.Call) else node.value
        return isinstance(node, ast.Name) and (
            node.id in self._parameters or node.id in ("self", "cls")
        )

    def leave_Assign(self, node: ast.Assign) -> None:
        self._assigned = []
        self._storing = False

    def visit_Return(self, node: ast.Return) -> None:
        self._in_return = True
        if node.value is not None and self.context.facts.in_outer_function:
            self._returns.append(node.value)

    def leave_Return(self, node: ast.Return) -> None:
        self._in_return = False

    def visit_Call(self, node: ast.Call) -> None:
        factory = self.context.facts.resolve(node.func) or ""
        module, _, function = factory.rpartition(".")
        asks = _asks_for_grad(node) if module == "torch" and function in TENSOR_FACTORIES else None
        if asks is not None:
            message = self.creation_message.format(call=f"{factory}()")
            self.report(node, message, severity=None if asks else Severity.WARNING)
            return
        if factory in _PARAMETER_CLASSES and node.args and not self._an_input(node.args[0]):
            # Every module's `__init__` makes its parameters so: objects are built eagerly.
            if not (isinstance(self._outer, ast.FunctionDef) and self._outer.name == "__init__"):
                self.report(node, self.parameter_message.format(call=f"{factory}()"))
            return
        self._note_stored(node)
        call = self.context.facts.tensor_method(node)
        if call is None or call[1] != "requires_grad_":
            return
        receiver, facts = call[0], self.context.facts
        if facts.kind(receiver) is Kind.PYTHON:
            return
        inputs = self._parameters | self._input_elements
        if _turns_off(node) and not (
            isinstance(receiver, ast.Name | ast.Attribute) and self._an_input(receiver)
        ):
            # `noise = torch.randn_like(x); noise.requires_grad_(False)`: a tensor made here
            # either requires no gradient already or is no leaf (eager raises): Dynamo traces it.
            return
        # A project object's `requires_grad_` (a linear operator's) is no tensor's: what it
        # keeps leaks nothing.
        certain = facts.kind(receiver).is_tensor and not facts.rests_on_guess(receiver)
        if isinstance(receiver, ast.Name) and receiver.id not in inputs:
            self._decide_at_the_end(node, [receiver.id], certain)
        elif isinstance(receiver, ast.Name | ast.Attribute):
            self.report(node, self.message.format(what="an input of the compiled code"))
        elif self._in_return or (self._storing and certain):
            self.report(node, self.message.format(what=_OUTLIVING))
        elif self._assigned:  # `h = h.detach().requires_grad_()`: a new tensor, named
            self._decide_at_the_end(node, self._assigned, certain)

    def _note_stored(self, call: ast.Call) -> None:
        """`self.saved.append(h)`: what a container that is no local holds outlives the frame;
        `parts.append(h)` makes `parts` hold `h`."""
        added = method_call(call)
        if added is None or added[1] not in _ADDING_METHODS:
            return
        receiver, values = added[0], [*call.args, *(k.value for k in call.keywords)]
        if isinstance(receiver, ast.Name):
            self._bound.extend(([receiver.id], value) for value in values)
        else:
            self._stored.extend(values)

    def _an_input(self, value: ast.expr) -> bool:
        """A parameter of the function or what the object holds: Dynamo makes a parameter of
        it before the graph (a tensor made in the function it cannot)."""
        if isinstance(value, ast.Name):
            return value.id in self._parameters | self._input_elements
        return isinstance(value, ast.Attribute) and self._rooted_in_an_input(value)

    def _decide_at_the_end(self, node: ast.Call, names: list[str], certain: bool) -> None:
        """A local breaks only if it is returned, known at the end: report now, with where
        it stands (loops, branches), and keep the report aside until then."""
        before = len(self.reports)
        self.report(node, self.message.format(what=_OUTLIVING))
        if len(self.reports) > before:
            report = self.reports.pop()
            self._toggled.extend((report, name, certain) for name in names)

    def leave_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if node is not self._outer or not self._toggled:
            return
        sources: dict[str, set[str]] = {}  # name -> the names its values were made from
        for names, value in self._bound:
            read = _names_read(value)
            for name in names:
                sources.setdefault(name, set()).update(read)
        # Names read in a `return`, outside `.detach()`: their values reach what is returned;
        # also, for a certain tensor, those stored beyond the frame and those a closure that
        # leaves the frame reads: their values reach the graph's outputs too.
        returned = _flowing(self._returns, sources)
        kept_too = _flowing([*self._stored, *_escaping_closures(node)], sources)
        kept = {
            id(report): report
            for report, name, certain in self._toggled
            if name in returned or (certain and name in kept_too)
        }
        self.reports.extend(kept.values())

    leave_AsyncFunctionDef = leave_FunctionDef


_OUTLIVING = "a tensor that outlives the function (returned or kept)"
_PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})


def _flowing(values: Sequence[ast.AST], sources: dict[str, set[str]]) -> set[str]:
    """The names these values read, and the names those were made from, transitively."""
    flowing = {name for value in values for name in _names_read(value)}
    grown = True
    while grown:
        grown = False
        for name in list(flowing):
            new = sources.get(name, set()) - flowing
            if new:
                flowing |= new
                grown = True
    return flowing


_ADDING_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault"})


def _escaping_closures(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """Functions and lambdas made in `function` that leave it (a hook registered, a callable
    stored or returned): anything but a direct call of a nested function's name. What their
    cells hold outlives the frame."""
    nested: dict[str, ast.AST] = {}
    lambdas: list[ast.Lambda] = []
    called: set[int] = set()  # the names called directly: `twice()`
    for node in ast.walk(function):
        if node is function:
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            nested[node.name] = node
        elif isinstance(node, ast.Lambda):
            lambdas.append(node)
        elif isinstance(node, ast.Call):
            called.add(id(node.func))
    if not nested and not lambdas:
        return []
    leaving: list[ast.AST] = [lam for lam in lambdas if id(lam) not in called]
    used = {
        node.id
        for node in ast.walk(function)
        if isinstance(node, ast.Name) and node.id in nested and id(node) not in called
    }
    leaving.extend(nested[name] for name in sorted(used))
    return leaving


def _asks_for_grad(call: ast.Call) -> bool | None:
    """Whether the call asks for gradients (Dynamo breaks only where it does): True for
    `requires_grad=True`, False for a value known only at run time (`requires_grad=self.training`,
    `requires_grad=x.requires_grad`), None for none or a constant that is not true."""
    for keyword in call.keywords:
        if keyword.arg == "requires_grad":
            if isinstance(keyword.value, ast.Constant):
                return True if keyword.value.value is True else None
            return False
    return None


def _turns_off(call: ast.Call) -> bool:
    """`.requires_grad_(False)`."""
    values = [*call.args, *(keyword.value for keyword in call.keywords)]
    return len(values) == 1 and isinstance(values[0], ast.Constant) and values[0].value is False


def _names_bound(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List | ast.Starred):
        elements = target.elts if not isinstance(target, ast.Starred) else [target.value]
        return [name for element in elements for name in _names_bound(element)]
    return []


def _names_read(value: ast.AST) -> set[str]:
    """The names an expression reads, except under `.detach()` (which cuts autograd)."""
    names: set[str] = set()
    pending: list[ast.AST] = [value]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Call) and (method_call(node) or (None, ""))[1] == "detach":
            continue
        if isinstance(node, ast.Name):
            names.add(node.id)
        pending.extend(ast.iter_child_nodes(node))
    return names
