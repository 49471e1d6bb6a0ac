from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.class_attributes import bind_made, made_by
from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import GUARD, guard_fix, nullcontext_fix, offer, owns_its_lines, tensor_valued
from breaklint.kinds import Kind
from breaklint.knowledge.answers import knowledge
from breaklint.knowledge.curated import (
    GENERATOR_REFUSING_CALLS,
    PROGRESS_BARS,
    REGEX_MATCH_FUNCTIONS,
    REGEX_MATCH_METHODS,
    REGEX_PATTERN_MAKER,
    SKIPPED_LIBRARIES,
    TRACED_DRAW_METHODS,
    UNTRACEABLE_METHOD_NAMES,
    UNTRACEABLE_OBJECT_METHODS,
    UNTRACEABLE_STDLIB,
)
from breaklint.rule import FixExample, RuleContext, within
from breaklint.rules._traced_values import TracedValue, TracedValueUses
from breaklint.syntax import dotted, method_call

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten


def _dict_call(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `dict` fix: `copy.copy(d)` of a dict becomes `dict(d)`."""
    import libcst as cst

    if not isinstance(node, cst.Call) or len(node.args) != 1:
        return None
    return node.with_changes(func=cst.Name("dict"))


def _plain_steps(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `plain-iterable` fix: a progress bar a loop iterates, `tqdm(steps, ...)`, becomes
    `steps if torch.compiler.is_compiling() else tqdm(steps, ...)`; `plain-range`:
    `trange(a, b, ...)` gives `range(a, b)` while compiling."""
    import libcst as cst

    if not isinstance(node, cst.Call):
        return None
    positional = [argument.value for argument in node.args if argument.keyword is None]
    if fix.rewrite == "plain-range":
        steps: cst.BaseExpression = cst.Call(
            cst.Name("range"), [cst.Arg(value) for value in positional]
        )
    else:
        given = [a.value for a in node.args if a.keyword and a.keyword.value == "iterable"]
        steps = (positional[:1] or given)[0].deep_clone()  # the bar keeps the original
        if isinstance(steps, cst.IfExp | cst.Lambda | cst.NamedExpr) and not steps.lpar:
            steps = steps.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.IfExp(
        test=cst.parse_expression(f"{fix.torch}.compiler.is_compiling()"),
        body=steps,
        orelse=node.with_changes(lpar=[], rpar=[]),
        lpar=node.lpar,
        rpar=node.rpar,
    )


# Calls that only change which warnings are shown.
WARNING_FILTERS = frozenset({"warnings.simplefilter", "warnings.filterwarnings"})


def _clone(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `clone` fix: `copy.deepcopy(t)` becomes `t.clone()`."""
    import libcst as cst

    from breaklint.rewrites import method

    if not isinstance(node, cst.Call):
        return None
    if len(node.args) != 1 or node.args[0].star:
        return None
    return method(node.args[0].value, "clone").with_changes(lpar=node.lpar, rpar=node.rpar)


# Locks: context managers whose only effect is to keep other threads out of the block.
LOCKS = frozenset({"threading.Lock", "threading.RLock"})

_GUARDED = """
from threading import Lock

import torch


def guarded(x, callback=None, lock=None):
    if lock is None:
        lock = Lock()
    with lock:
        if callback is not None:
            callback("start")
    y = x * 2
    with lock:
        if callback is not None:
            callback("end")
    return y + 1


compiled = torch.compile(guarded)
"""

_SAMPLED = """
import torch
from tqdm import tqdm


def denoise(x):
    for t in tqdm(range(4), desc="sampling", leave=False):  # progress on the terminal
        x = x - 0.1 * x * (t + 1)
    return x


compiled = torch.compile(denoise)
"""

_WRAPPED = """
import torch
from tqdm import tqdm


def sample(x, steps, progress=True):
    if progress:
        steps = tqdm(steps)  # a bar over the steps
    for t in steps:
        x = x * 0.5 + t
    return x


compiled = torch.compile(sample)
"""

_TAGGED = """
import copy

import torch


def tagged(x, extra: dict | None = None):
    if extra is None:
        extra = {}
    else:
        extra = copy.copy(extra)
    extra["scale"] = 2
    return x * extra["scale"]


compiled = torch.compile(tagged)
"""


REGEX_MATCH = "re.Match"


class UntraceableStdlibCall(TracedValueUses):
    code = "BL501"
    name = "untraceable-stdlib-call"
    severity = Severity.ERROR
    message = (
        "`{call}()` is a Python runtime call Dynamo does not trace (clock, Python RNG, "
        "serialization, copies, threads or locks); it breaks the graph here to run it eagerly"
    )
    hint = "move the call outside the compiled code and pass its result in"
    tensor_argument_message = (
        "`{call}()` is traced only with Python numbers as arguments; given a tensor, Dynamo "
        "runs it eagerly and breaks the graph here"
    )
    object_message = (
        "`{call}()` is a method of a `{cls}`, which Dynamo does not trace; it breaks the graph "
        "here to run it eagerly"
    )
    match_message = (
        "`{call}()` returns a dict, which Dynamo cannot take from a `re.Match` method it runs "
        "while tracing; it breaks the graph here"
    )
    match_hint = (
        "read each group with `match.group(name)` (Dynamo folds it), or parse the text "
        "before the compiled code runs"
    )
    object_hint = (
        "read or set the value outside the compiled code and pass it in, or keep it in a plain "
        "attribute while compiling (`torch.compiler.is_compiling()`)"
    )
    library_message = (
        "`{call}()` calls into `{library}`, a library Dynamo skips whole; it breaks the graph "
        "here to run it eagerly"
    )
    generator_message = (
        "`{call}()` given a generator expression: Dynamo cannot pass a generator to it, and "
        "breaks the graph here"
    )
    generator_hint = "give it a list: `{call}([...])`"
    copy_message = (
        "`copy.copy()` of a dict, a list or a tensor calls into `copy.py`, which Dynamo does "
        "not trace: if this is one (or a module), it breaks the graph here"
    )
    module = "random"
    # the modules of its calls and of the values it follows, and the methods of the objects
    # it knows (`var.get()` of a `ContextVar`, `rng.uniform()` of a `random.Random`)
    words = (
        within(*UNTRACEABLE_STDLIB, *SKIPPED_LIBRARIES, *GENERATOR_REFUSING_CALLS, f"{module}.")
        | UNTRACEABLE_METHOD_NAMES
        | frozenset().union(*TRACED_DRAW_METHODS.values())
    )
    use_message = (
        "{subject} is a random number Dynamo traces as a tensor input: {use} needs the number "
        "itself, which breaks the graph here"
    )
    use_hint = (
        "use the draw only as a tensor operand (`x * r`), or draw with torch (`torch.rand(())`) "
        "and branch with `torch.where`"
    )
    what = """
Flags calls into `time`, Python's `random`, `json`, `pickle`, `zlib`, `datetime`, `uuid`,
`threading` (`threading.Lock()`, `threading.Event()`...), the warning filters
(`warnings.simplefilter`, `warnings.filterwarnings`), `copy.deepcopy` and `copy.copy`,
`sys._getframe` and what reads the stack through it (`inspect.currentframe`, `inspect.stack`,
`traceback.format_stack`, `extract_stack`, `print_stack`), `os.getpid`, `gc.collect` and
`importlib.import_module`, `bisect` and `heapq` (`bisect_left`, `heappush`...) and `queue`
(`queue.Queue()`) in compiled code, and the methods Dynamo cannot
trace of standard-library objects: a `contextvars.ContextVar`'s `get`, `set` and `reset`, a
`threading.Lock`'s or `RLock`'s `acquire` and `release`, an `io.StringIO`'s `write`, a
queue's `put`, `get`, `empty`, `qsize`... (`Queue`, `LifoQueue`, `PriorityQueue`,
`SimpleQueue`), a `threading.Event`'s `set`, `clear`, `wait`, `is_set` and a `Condition`'s.
The object is known from where it is made: `self.var = ContextVar(...)` in a method of the
class, `VAR = ContextVar(...)` at the top of the module or of the module it is imported from,
or `q = LifoQueue()` earlier in the function. So is a regular-expression match's
`groupdict()`, which returns a dict Dynamo cannot take from the match it folds while tracing
(`group()`, `groups()` and the matching itself trace): the match known from where it is made,
`m = re.search(...)`, or `m = PATTERN.match(...)` of a pattern `re.compile` made at the top of
the module (or of the one it is imported from) or earlier in the function.

`copy.copy` is an error where it copies a tensor, a container of tensors or a dict or list made
in place, and a warning elsewhere: Dynamo traces the shallow copy of some objects of plain
classes, but not of dicts, lists, tensors or modules. The `random` functions Dynamo traces
(`random.uniform`, `random.randint`, `random.randrange` and `random.Random` with torch 2.13) are
flagged only where they break: called with a tensor argument, or where their result is used as a
Python number (a branch, `int()`, Python arithmetic, an index, a size, an f-string) rather than
as a tensor operand (`x * random.uniform(0, 1)` compiles to one graph). So are the draws of a
`random.Random` instance (`rng.random()`, `rng.uniform(a, b)`, `rng.randint(a, b)`,
`rng.randrange(n)`), known from where the instance is made: `self.rng = random.Random(...)` in
a method of the class, or `rng = random.Random(...)` at the top of the module or of the module
it is imported from. Which functions Dynamo traces, and
which uses of a draw break, are measured on the installed torch once per version (in a
subprocess, cached under the user cache folder), with the answer for torch 2.13 as fallback.

Also flags `math.prod` and `math.fsum` given a generator expression (`math.prod(x.shape[i]
for i in dims)`): Dynamo cannot pass the generator to them and breaks at the call, with the
generator alive, so it skips the frame too (BL210); a list (`math.prod([...])`) traces.

Also flags calls into the third-party libraries Dynamo skips whole (`tqdm`, `pandas`,
`sklearn`, `networkx`, `tabulate`...): a progress bar around a sampling loop's steps (`for t in
tqdm(steps):`) breaks the graph where it is made.
"""
    why = """
These functions are implemented in C or touch the process's state (the clock, the Python RNG,
files, buffers, threads). Dynamo marks them as skipped (GB0007, "Attempted to call function
marked as skipped"; `copy.deepcopy` of a tensor and `copy.copy` of a dict, list or tensor fail
inside `copy.py`, GB4198 or GB0007), breaks the graph and calls them eagerly. The objects'
methods are C methods Dynamo has no model of ("Unsupported method call", GB0156): it breaks the
graph at each call.

The few `random` functions Dynamo supports it draws at trace time and feeds to the graph as a
tensor input, so that each call gets a fresh number. A use that needs the number itself
needs that tensor's value, which fake tensors do not have: a branch ("Data-dependent
branching", GB0170), a size ("Data dependent operator", GB0033), an index or slice bound
(GB0124), `int()` or `float()` ("constant fold exception", GB0178), Python arithmetic
("unimplemented builtin op on tensor arguments", GB0213, which skips the whole frame).
"""
    example = """
import random

import torch


def jitter(x):
    y = x * 2
    return y + random.random()


compiled = torch.compile(jitter)
"""
    use_instead = """
import torch


def jitter(x):
    y = x * 2
    return y + torch.rand(())


compiled = torch.compile(jitter)
"""
    probe = "(jitter, (torch.randn(8),))"
    gb_ids = ("GB0007", "GB4198", "GB0156", "GB0170", "GB0033", "GB0124", "GB0178", "GB0213")
    fix_examples = (
        FixExample(
            before="""
import copy

import torch


def snapshot(x):
    y = x * 2
    saved = copy.deepcopy(y)  # kept for the residual
    y.add_(1)
    return y + saved


compiled = torch.compile(snapshot)
""",
            after="""
import copy

import torch


def snapshot(x):
    y = x * 2
    saved = y.clone()  # kept for the residual
    y.add_(1)
    return y + saved


compiled = torch.compile(snapshot)
""",
            probe="(snapshot, (torch.randn(8),))",
        ),
        FixExample(
            before="""
import warnings

import torch


def quiet(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        y = x * 2
    return y + 1


compiled = torch.compile(quiet)
""",
            after="""
import warnings

import torch


def quiet(x):
    with warnings.catch_warnings():
        if not torch.compiler.is_compiling():
            warnings.simplefilter("ignore", DeprecationWarning)
        y = x * 2
    return y + 1


compiled = torch.compile(quiet)
""",
            probe="(quiet, (torch.randn(8),))",
        ),
        FixExample(
            before=_TAGGED,
            after=_TAGGED.replace("copy.copy(extra)", "dict(extra)"),
            probe='(tagged, (torch.randn(4), {"shift": 1}))',
        ),
        FixExample(
            before=_SAMPLED,
            after=_SAMPLED.replace(
                "in tqdm(range(4), ",
                "in range(4) if torch.compiler.is_compiling() else tqdm(range(4), ",
            ),
            probe="(denoise, (torch.randn(8),))",
        ),
        FixExample(
            before=_WRAPPED,
            after=_WRAPPED.replace(
                "        steps = tqdm(steps)",
                "        if not torch.compiler.is_compiling():\n            steps = tqdm(steps)",
            ),
            probe="(sample, (torch.ones(4), [1.0, 2.0, 3.0]))",
        ),
        FixExample(
            before=_GUARDED,
            after=_GUARDED.replace("import torch\n", "import torch\nimport contextlib\n").replace(
                "lock = Lock()",
                "lock = contextlib.nullcontext() if torch.compiler.is_compiling() else Lock()",
            ),
            probe="(guarded, (torch.randn(8),))",
        ),
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {
        "clone": _clone,
        "dict": _dict_call,
        "plain-iterable": _plain_steps,
        "plain-range": _plain_steps,
    }
    fix_safety = """
Unsafe fix: `copy.deepcopy(t)` of a tensor becomes `t.clone()`: the same values in new memory,
traced by Dynamo. Autograd differs: the deep copy is a new leaf (it keeps `requires_grad` but
no history, and raises on a non-leaf tensor that requires grad), while the clone stays
connected to `t`'s graph, so gradients now flow back through it. A statement that only sets
a warning filter (`warnings.simplefilter`, `warnings.filterwarnings`) is guarded with `if not
torch.compiler.is_compiling():`: eager runs filter as before, compiled code does not (a filter
changes which warnings are shown, never a value). `copy.copy(d)` of a name that holds a dict
on every way to the call (a parameter annotated `dict`, past its `is None` test where it may
be None, or bound to a dict display, comprehension or `dict(...)`) becomes `dict(d)`: the same
shallow copy, a plain `dict` also where a subclass (an `OrderedDict`) was passed. A lock
made in the function (`lock = threading.Lock()`, or `RLock()`) that the function only enters
(`with lock:`), tests against None or passes on becomes `contextlib.nullcontext() if
torch.compiler.is_compiling() else Lock()` (importing `contextlib`): eager runs lock as before;
compiled code enters a context that does nothing, so threads that share the lock the compiled
call made (a thread pool it hands the lock to) are no longer kept out of each other's blocks.
A tqdm progress bar that a `for` statement iterates (`for t in tqdm(steps, desc=...)`, also
inside `enumerate(...)` or `zip(...)`), given its steps, becomes `steps if
torch.compiler.is_compiling() else tqdm(steps, desc=...)` (`trange(a, b)`: `range(a, b)`): a
bar yields exactly its steps, so the loop runs over the same values; eager runs show the bar
as before, compiled code shows none. `steps = tqdm(steps, ...)`, where the function reads
`steps` only as the iterable of `for` statements, runs only when not compiling (`if not
torch.compiler.is_compiling():`). A bar the code keeps in a name of its own (`bar =
tqdm(...)`, `bar.set_postfix(...)`) is not rewritten: compiled code would call its methods on
the steps.
The other calls this rule flags (clocks, Python's RNG, serialization) have no automatic fix:
their results must come from outside the compiled code.
"""

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        # ids of what a `for` statement iterates (`for ... in c`; not a comprehension's,
        # where the conditional expression a fix writes would need parentheses)
        self._iterated: set[int] = set()
        # `steps = tqdm(steps)`: the statement, by the id of its call
        self._rewrapped: dict[int, ast.Assign] = {}
        # Locals bound to an object made here whose methods Dynamo cannot trace (`q =
        # LifoQueue()`): its class, until rebound.
        self._made_here: dict[str, str] = {}
        self._patterns: dict[str, str] = {}  # locals bound to a `re.compile(...)` pattern

    def _matches(self, value: ast.Call, made: str | None) -> bool:
        """Whether the call makes a `re.Match` (or None): `re.search(...)`, or `.match(...)`,
        `.search(...)` or `.fullmatch(...)` of a pattern `re.compile` made, in a local or at
        the top of the module (or of the one it is imported from)."""
        if made in REGEX_MATCH_FUNCTIONS:
            return True
        call = method_call(value)
        if call is None or call[1] not in REGEX_MATCH_METHODS:
            return False
        receiver = call[0]
        if isinstance(receiver, ast.Name) and receiver.id in self._patterns:
            return True
        return REGEX_PATTERN_MAKER in self._made_by(receiver)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        if isinstance(node, ast.For):
            self._iterated.update(map(id, self._loop_values(node.iter)))
        super().visit_For(node)

    visit_AsyncFor = visit_For

    def visit_Assign(self, node: ast.Assign) -> None:
        """`steps = tqdm(steps, ...)`: the bar replaces the steps it wraps, for loops later on.
        `q = LifoQueue()`: the class of the object the local holds, for its methods."""
        value = node.value
        made = self.context.facts.resolve(value.func) if isinstance(value, ast.Call) else None
        if isinstance(value, ast.Call) and self._matches(value, made):
            made = REGEX_MATCH
        bind_made(self._made_here, node.targets, made, UNTRACEABLE_OBJECT_METHODS)
        # `pattern = re.compile(...)` here: its matches are `re.Match` objects too.
        bind_made(self._patterns, node.targets, made, (REGEX_PATTERN_MAKER,))
        if len(node.targets) == 1 and isinstance(value, ast.Call) and value.args:
            target, wrapped = node.targets[0], value.args[0]
            same = (
                isinstance(target, ast.Name)
                and isinstance(wrapped, ast.Name)
                and target.id == wrapped.id
            )
            if same:
                self._rewrapped[id(value)] = node

    def _loop_values(self, iterable: ast.expr) -> list[ast.expr]:
        """What a loop over `iterable` only iterates: `iterable` itself, or an argument of
        `enumerate(...)` or `zip(...)` there."""
        inner: list[ast.expr] = []
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name):
            function = iterable.func.id
            if function not in self.context.facts.names:
                if function == "enumerate":
                    inner = iterable.args[:1]
                elif function == "zip":
                    inner = iterable.args
        return [iterable, *inner]

    def visit_Call(self, node: ast.Call) -> None:
        self._check_call(node)
        super().visit_Call(node)

    def _check_call(self, node: ast.Call) -> None:
        facts = self.context.facts
        made = self._untraceable_object(node)
        if made == REGEX_MATCH:
            call = dotted(node.func) or "groupdict"
            self.report(node, self.match_message.format(call=call), hint=self.match_hint)
            return
        if made is not None:
            call = dotted(node.func) or made
            self.report(
                node, self.object_message.format(call=call, cls=made), hint=self.object_hint
            )
            return
        name = facts.resolve(node.func)
        if name is None or name.partition(".")[0] in facts.names:
            return
        copies_python_data = (
            name == "copy.deepcopy" and node.args and facts.kind(node.args[0]) is Kind.PYTHON
        )
        if copies_python_data:
            return  # Dynamo traces the deep copy of plain Python data (a config dict)
        if name == "copy.copy":
            self._check_shallow_copy(node)
            return
        if name in GENERATOR_REFUSING_CALLS:
            if any(type(argument) is ast.GeneratorExp for argument in node.args):
                message = self.generator_message.format(call=name)
                self.report(node, message, hint=self.generator_hint.format(call=name))
            return
        if name in knowledge().random_traced:
            if self._tensor_argument(node):
                message = self.tensor_argument_message.format(call=name)
                self.report(node, message, hint=UNTRACEABLE_STDLIB["random."])
            return
        for prefix, alternative in UNTRACEABLE_STDLIB.items():
            if name == prefix or (prefix.endswith(".") and name.startswith(prefix)):
                fix = None
                if name == "copy.deepcopy" and self._copies_a_tensor(node):
                    fix = offer(
                        self.context,
                        node,
                        "copy the tensor with `.clone()`",
                        "clone",
                        self.fix_applicability,
                    )
                elif name in WARNING_FILTERS:
                    fix = guard_fix(self.context, node, self.fix_applicability)
                elif name in LOCKS:
                    fix = self._lock_fix(node)
                self.report(node, self.message.format(call=name), hint=alternative, fix=fix)
                return
        for prefix, alternative in SKIPPED_LIBRARIES.items():
            if name.startswith(prefix):
                message = self.library_message.format(call=name, library=prefix[:-1])
                self.report(node, message, hint=alternative, fix=self._plain_steps_fix(node, name))
                return

    def _plain_steps_fix(self, node: ast.Call, name: str) -> Fix | None:
        """A progress bar that a loop only iterates (`for i in tqdm(range(n)):`), given its
        steps: iterate the steps themselves while compiling."""
        given = PROGRESS_BARS.get(name)
        if given == "iterable" and id(node) in self._rewrapped:
            return self._unwrapped_fix(self._rewrapped[id(node)])
        if given is None or id(node) not in self._iterated:
            return None
        if any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if any(keyword.arg is None for keyword in node.keywords):
            return None
        if given == "range":
            if not 1 <= len(node.args) <= 3 or "range" in self.context.facts.names:
                return None
        elif not node.args and all(keyword.arg != "iterable" for keyword in node.keywords):
            return None
        return offer(
            self.context,
            node,
            "iterate the plain steps while compiling: `{torch}.compiler.is_compiling()`",
            f"plain-{given}",
            self.fix_applicability,
            needs_torch=True,
        )

    def _unwrapped_fix(self, statement: ast.Assign) -> Fix | None:
        """`steps = tqdm(steps, ...)` whose name only `for` statements read afterwards (as
        their iterable, or in `enumerate`/`zip` there): the statement runs only when not
        compiling, so compiled code loops over the steps themselves."""
        name = statement.value.args[0]  # type: ignore[attr-defined]
        function = self.context.definition
        iterated: set[int] = set()
        for loop in ast.walk(function):
            if isinstance(loop, ast.For):
                iterated.update(map(id, self._loop_values(loop.iter)))
        for node in ast.walk(function):
            if not isinstance(node, ast.Name) or node.id != name.id or node is name:
                continue
            if isinstance(node.ctx, ast.Load) and id(node) not in iterated:
                return None  # read otherwise: compiled code would not give it the bar
        if not owns_its_lines(self.context, statement):
            return None
        message = f"wrap the steps only when not compiling: `{GUARD}`"
        return offer(
            self.context, statement, message, "guard", self.fix_applicability, needs_torch=True
        )

    def _lock_fix(self, node: ast.Call) -> Fix | None:
        """`name = Lock()` whose lock the function only enters, tests against None or passes
        on: a `contextlib.nullcontext()` while compiling."""
        function = self.context.definition
        if node.args or node.keywords:
            return None
        holder = next(
            (s for s in ast.walk(function) if isinstance(s, ast.Assign) and s.value is node),
            None,
        )
        if holder is None or len(holder.targets) != 1:
            return None
        target = holder.targets[0]
        if not isinstance(target, ast.Name) or not _only_entered(function, target.id):
            return None
        return nullcontext_fix(self.context, node, self.fix_applicability)

    def _untraceable_object(self, node: ast.Call) -> str | None:
        """The class of the object whose untraceable method `node` calls (a `ContextVar`'s
        `get`), known from its construction: `self.var = ContextVar(...)` in the class, or
        `VAR = ContextVar(...)` at the top of this module or of the one it is imported from."""
        call = method_call(node)
        if call is None or call[1] not in UNTRACEABLE_METHOD_NAMES:
            return None
        receiver, method = call
        made = self._made_by(receiver)
        if made and all(method in UNTRACEABLE_OBJECT_METHODS.get(cls, ()) for cls in made):
            return made[0]
        return None

    def _made_by(self, receiver: ast.expr) -> tuple[str, ...]:
        context = self.context
        if isinstance(receiver, ast.Name) and receiver.id in self._made_here:
            return (self._made_here[receiver.id],)
        return made_by(receiver, context.facts.held_objects, context.self_assignments)

    def _object_draw(self, node: ast.Call) -> str | None:
        """`rng.random()` on a `random.Random` made at module level or in `__init__`: the draw
        as written, which Dynamo traces like `random.uniform`."""
        call = method_call(node)
        if call is None or node.keywords or self._tensor_argument(node):
            return None
        receiver, method = call
        made = self._made_by(receiver)
        if made and all(method in TRACED_DRAW_METHODS.get(cls, ()) for cls in made):
            return f"{dotted(receiver)}.{method}"
        return None

    def _check_shallow_copy(self, node: ast.Call) -> None:
        """`copy.copy` breaks on dicts, lists, tensors and modules; some objects it traces."""
        if len(node.args) != 1 or node.keywords:
            return
        argument = node.args[0]
        made_here = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
        certain = isinstance(argument, made_here) or self.context.facts.kind(argument) in (
            Kind.TENSOR,
            Kind.MASK,
            Kind.TENSORS,
        )
        fix = None
        if self._copies_a_dict(node):
            message = "copy the dict with `dict(...)`"
            fix = offer(self.context, node, message, "dict", self.fix_applicability)
        self.report(
            node,
            self.message.format(call="copy.copy") if certain else self.copy_message,
            hint=UNTRACEABLE_STDLIB["copy.copy"],
            severity=None if certain else Severity.WARNING,
            fix=fix,
        )

    def _copies_a_dict(self, node: ast.Call) -> bool:
        """Whether the copied argument is a name that holds a dict wherever the copy runs:
        every binding of it in the function is a dict-annotated parameter or a dict made
        there, and where the parameter may be None, the copy runs only past `is None`."""
        argument, function = node.args[0], self.context.definition
        if not isinstance(argument, ast.Name):
            return False
        if "dict" in self.context.facts.names:
            return False
        name = argument.id
        parameters = [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
        parameter = next((a for a in parameters if a.arg == name), None)
        if parameter is not None and _dict_annotation(parameter.annotation) is None:
            return False
        parents = {
            id(child): parent
            for parent in ast.walk(function)
            for child in ast.iter_child_nodes(parent)
        }
        for other in ast.walk(function):
            if (
                isinstance(other, ast.Name)
                and other.id == name
                and not isinstance(other.ctx, ast.Load)
            ):
                assigned = parents.get(id(other))
                if not isinstance(assigned, ast.Assign) or len(assigned.targets) != 1:
                    return False
                if assigned.targets[0] is not other or not _makes_a_dict(assigned.value, node):
                    return False
            elif isinstance(other, ast.Global | ast.Nonlocal) and name in other.names:
                return False
        if parameter is None or _dict_annotation(parameter.annotation) is False:
            return True  # the parameter admits no None
        return _past_none_test(node, name, parents)

    def _copies_a_tensor(self, node: ast.Call) -> bool:
        return (
            len(node.args) == 1 and not node.keywords and tensor_valued(self.context, node.args[0])
        )

    def _tensor_argument(self, node: ast.Call) -> bool:
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        return any(self.context.facts.kind(argument).is_tensor for argument in arguments)

    def value_of_call(self, node: ast.Call) -> TracedValue | None:
        drawn = self._object_draw(node)
        if drawn is not None:
            return TracedValue(drawn, frozenset({"random"}))
        name = self.context.facts.resolve(node.func)
        if name is None or knowledge().random_traced.get(name) != "number":
            return None
        if name.partition(".")[0] in self.context.facts.names or self._tensor_argument(node):
            return None
        return TracedValue(name, frozenset({"random"}))


def _only_entered(function: ast.AST, name: str) -> bool:
    """Whether every read of `name` in `function` enters it (`with name:`), tests it against
    None (`name is None`) or passes it on (an argument, a keyword, a dict's value): what a
    `contextlib.nullcontext()` does as well as a lock, where no thread shares it."""
    parents = {
        id(child): parent for parent in ast.walk(function) for child in ast.iter_child_nodes(parent)
    }
    for node in ast.walk(function):
        if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
            continue
        parent = parents.get(id(node))
        entered = isinstance(parent, ast.withitem) and parent.context_expr is node
        passed = isinstance(parent, ast.keyword) or (
            isinstance(parent, ast.Call) and node in parent.args
        )
        valued = isinstance(parent, ast.Dict) and any(v is node for v in parent.values)
        tested = (
            isinstance(parent, ast.Compare)
            and all(isinstance(op, ast.Is | ast.IsNot) for op in parent.ops)
            and all(isinstance(c, ast.Constant) and c.value is None for c in parent.comparators)
        )
        if not (entered or passed or valued or tested):
            return False
    return True


def _dict_annotation(annotation: ast.expr | None) -> bool | None:
    """For an annotation that admits dicts only: whether it admits None as well
    (`dict | None`, `Optional[Dict[str, int]]`); None for any other annotation."""
    if annotation is None:
        return None
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = [annotation.left, annotation.right]
        nones = [s for s in sides if isinstance(s, ast.Constant) and s.value is None]
        if len(nones) != 1:
            return None
        (other,) = [s for s in sides if s is not nones[0]]
        return None if _dict_annotation(other) is not False else True
    base = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    written = (dotted(base) or "").rpartition(".")[2]
    if written == "Optional" and isinstance(annotation, ast.Subscript):
        return None if _dict_annotation(annotation.slice) is not False else True
    return False if written in ("dict", "Dict") else None


def _makes_a_dict(value: ast.expr, copy: ast.Call) -> bool:
    """A dict display or comprehension, `dict(...)`, or the copy being fixed."""
    if value is copy or isinstance(value, ast.Dict | ast.DictComp):
        return True
    return (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict"
    )


def _past_none_test(node: ast.AST, name: str, parents: dict[int, ast.AST]) -> bool:
    """Whether `node` runs only where `name` is not None: under `if name is not None:`, or
    under the `else` of `if name is None:`."""
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.If):
            test = parent.test
            tested = (
                isinstance(test, ast.Compare)
                and isinstance(test.left, ast.Name)
                and test.left.id == name
                and len(test.ops) == 1
                and isinstance(test.comparators[0], ast.Constant)
                and test.comparators[0].value is None
            )
            if tested:
                assert isinstance(test, ast.Compare)
                under = parent.body if isinstance(test.ops[0], ast.IsNot) else parent.orelse
                if isinstance(test.ops[0], ast.Is | ast.IsNot) and child in under:
                    return True
        child, parent = parent, parents.get(id(parent))
    return False
