from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.class_attributes import bind_made, made_by, made_object
from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import nullcontext_fix, offer
from breaklint.knowledge.curated import (
    CONTEXT_MANAGER_ALIASES,
    HELD_CONTEXT_MANAGERS_ENTERED,
    HELD_GRAD_MODES,
    UNSUPPORTED_CONTEXT_MANAGERS,
    UNSUPPORTED_CONTEXT_OBJECTS,
)
from breaklint.rule import FixExample, Report, Rule, RuleContext
from breaklint.rules.control_flow._frame_skip import after_skip, branch_paths, line, under
from breaklint.syntax import dotted

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten

DEPRECATED_SDP = "torch.backends.cuda.sdp_kernel"
# A project subclass of it only hides warnings: compiled code can enter a `nullcontext()`.
WARNINGS_CATCHER = "warnings.catch_warnings"
_QUIET = """
import warnings

import torch


class quiet_tracer(warnings.catch_warnings):
    def __enter__(self):
        super().__enter__()
        warnings.simplefilter("ignore", category=torch.jit.TracerWarning)
        return self


def flatten(x, w):
    with quiet_tracer():  # the sizes are constants
        shape = [int(size) for size in w.shape]
    return x.reshape(shape[0], -1) * 2


compiled = torch.compile(flatten)
"""
# What `torch.backends.cuda.sdp_kernel(...)` does in torch 2.13, written out: the same
# parameters, and `torch.nn.attention.sdpa_kernel` of the backends they enable, in its order.
_SDPA_KERNEL = (
    "{torch}.nn.attention.sdpa_kernel((lambda enable_flash=True, enable_math=True, "
    "enable_mem_efficient=True, enable_cudnn=True: [backend for backend, enabled in ("
    "({torch}.nn.attention.SDPBackend.FLASH_ATTENTION, enable_flash), "
    "({torch}.nn.attention.SDPBackend.EFFICIENT_ATTENTION, enable_mem_efficient), "
    "({torch}.nn.attention.SDPBackend.MATH, enable_math), "
    "({torch}.nn.attention.SDPBackend.CUDNN_ATTENTION, enable_cudnn)) if enabled])())"
)


def _sdpa_kernel(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `sdpa-kernel` fix: `torch.backends.cuda.sdp_kernel(ARGS)` becomes
    `torch.nn.attention.sdpa_kernel` of the backends ARGS enable."""
    import libcst as cst

    if not isinstance(node, cst.Call):
        return None
    replacement = cst.ensure_type(
        cst.parse_expression(_SDPA_KERNEL.format(torch=fix.torch)), cst.Call
    )
    backends = cst.ensure_type(replacement.args[0].value, cst.Call)
    backends = backends.with_changes(args=node.args)
    return replacement.with_changes(
        args=[replacement.args[0].with_changes(value=backends)], lpar=node.lpar, rpar=node.rpar
    )


class UnsupportedContextManager(Rule):
    code = "BL507"
    name = "unsupported-context-manager"
    words = frozenset({"with"})  # it reads the managers of `with` statements only
    severity = Severity.ERROR
    message = (
        "`{manager}()` is a context manager Dynamo cannot enter while tracing: it gives up on "
        "the whole function, which runs eagerly with no graph"
    )
    object_message = (
        "`with {manager}:` enters a `{cls}`, a context manager Dynamo cannot enter while "
        "tracing: it gives up on the whole function, which runs eagerly with no graph"
    )
    held_message = (
        "`with {manager}:` enters an object made before the compiled function ran (by "
        "`{maker}`): Dynamo cannot enter a context manager it did not see made, so it gives up "
        "on the whole function, which runs eagerly with no graph"
    )
    hint = (
        "enter it outside the compiled function (around the call of the compiled model), or "
        "drop it where the setting is already the default"
    )
    held_hint = "make the context manager in the function: `with {maker}(...):`"
    passed_message = (
        "`with {manager}:` enters an object passed in ({how}): Dynamo cannot enter a context "
        "manager it did not see made (a held autocast, `nullcontext` or profiler range aside), "
        "so it would give up on the whole function, which runs eagerly with no graph"
    )
    passed_hint = "make the context manager in the compiled function, or enter it around the call"
    subclass_message = (
        "`{manager}()` makes a subclass of `{base}`, which Dynamo cannot enter while tracing: "
        "it gives up on the whole function, which runs eagerly with no graph"
    )
    subclass_hint = (
        "enter it outside the compiled function (around the call of the compiled model), or "
        "enter `{base}(...)` itself, which Dynamo supports"
    )
    fix_safety = """
Safe fix: `torch.backends.cuda.sdp_kernel(...)` becomes `torch.nn.attention.sdpa_kernel` of the
backends its arguments enable, picked by a lambda with `sdp_kernel`'s own parameters and
defaults, so any arguments (`**config` included) keep their meaning. In torch 2.13
`sdp_kernel` is that same `sdpa_kernel` call, which Dynamo traces (one graph); eager runs lose
only its deprecation warning.

Unsafe fix: `with Quiet():`, where `Quiet` is a project class deriving from
`warnings.catch_warnings`, becomes `with contextlib.nullcontext() if
torch.compiler.is_compiling() else Quiet():` (importing `contextlib`): eager runs enter it as
before; compiled code enters a context that does nothing (one graph on Dynamo 2.13, where the
whole frame was skipped), so the warnings its filters hid are shown there, and whatever else
its `__enter__` and `__exit__` do is skipped while compiling. The other context managers this
rule flags have no automatic fix: they set global state Dynamo cannot record, so the `with`
has to move around the call of the compiled function, outside the function flagged.
"""
    what = """
Flags `with` on the torch context managers that Dynamo does not support:
`torch.backends.cudnn.flags`, `torch.backends.mkldnn.flags`, `torch.backends.cuda.sdp_kernel`,
`torch.random.fork_rng`, `torch.autograd.detect_anomaly`, `torch.autograd.set_detect_anomaly`,
`torch.autograd.graph.save_on_cpu`, `torch.autograd.graph.saved_tensors_hooks` and
`torch.device` (`with torch.device("cpu"):`, the default device for new tensors), and `with`
on a `threading.Lock`, `RLock`, `Condition` or `Semaphore` known from where it is made:
`lock = Lock()` earlier in the function, or `self.lock = threading.Lock()` in a method of the
class. The grad modes,
autocast, `torch.nn.attention.sdpa_kernel` and profiler ranges are supported and not flagged.

It flags `with Quiet():` where `Quiet` is a class of the project deriving from
`warnings.catch_warnings` (unless a `__enter__` of its own does not call the base's) or from a
grad mode (`torch.no_grad`, `enable_grad`, `inference_mode`, `set_grad_enabled`): Dynamo enters
these classes themselves, not their subclasses.

It also flags `with self.<attribute>:` where the class's methods set the attribute to an object
made by a call (`self.ctx = torch.no_grad()`, `self.timer = Timer()` in `__init__`): Dynamo
enters only the context managers it sees made in the frame, or a held autocast,
`contextlib.nullcontext` or profiler range. A held grad mode is an error; another maker (the
project's own class, or a function whose return it does not know) is a warning. So is `with`
on an object passed in: a parameter of the function that it never rebinds (`with context:`),
an attribute of one (`with options.context:`; in a function defined inside another, a
decorator's wrapper, `with self.context:` too), or `self.<attribute>` that the class's methods
set only to one of their parameters (`self.handler = handler`).
"""
    why = """
Dynamo knows how to record a few context managers in a graph. The others change global state
(backend flags, the RNG, autograd hooks, the default device, a lock) through code that it will
not trace, and it cannot resume inside a `with` block it did not enter, so it skips the whole
function: it runs eagerly, and only the functions it calls are compiled on their own. The
breaks after the first such `with` are only what runs eagerly (info); when a configuration
decides the `if` it is under, that holds for what follows it in the same branch.
"""
    example = """
import torch


def smoothed(x):
    with torch.backends.cudnn.flags(enabled=False):
        y = torch.nn.functional.avg_pool1d(x, 3)
    return y * 2


compiled = torch.compile(smoothed)
"""
    use_instead = """
import torch


def smoothed(x):
    y = torch.nn.functional.avg_pool1d(x, 3)
    return y * 2


compiled = torch.compile(smoothed)
with torch.backends.cudnn.flags(enabled=False):
    compiled(torch.randn(2, 4, 9))
"""
    probe = "(smoothed, (torch.randn(2, 4, 9),))"
    gb_ids = ("GB0142",)
    breaks_graph = False  # the whole frame is skipped already, loop or not
    fix_examples = (
        FixExample(
            before="""
import torch
import torch.nn.functional as F


def attend(q, k, v, config):
    with torch.backends.cuda.sdp_kernel(**config):  # the backends allowed
        out = F.scaled_dot_product_attention(q, k, v)
    return out * 2


compiled = torch.compile(attend)
""",
            after=f"""
import torch
import torch.nn.functional as F


def attend(q, k, v, config):
    with {_SDPA_KERNEL.format(torch="torch").replace("())", "(**config))")}:  # the backends allowed
        out = F.scaled_dot_product_attention(q, k, v)
    return out * 2


compiled = torch.compile(attend)
""",
            probe=(
                "(attend, (*torch.randn(3, 1, 2, 4, 8), "
                "{'enable_flash': False, 'enable_math': True}))"
            ),
        ),
        FixExample(
            before=_QUIET,
            after=_QUIET.replace("import torch\n", "import torch\nimport contextlib\n", 1).replace(
                "with quiet_tracer():",
                "with contextlib.nullcontext() if torch.compiler.is_compiling() else "
                "quiet_tracer():",
            ),
            probe="(flatten, (torch.randn(4, 6), torch.randn(4, 3)))",
            applicability=Applicability.UNSAFE,
        ),
    )
    fix_applicability = Applicability.SAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"sdpa-kernel": _sdpa_kernel}

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._made: dict[str, str] = {}  # local name -> the class of the object it was made as
        self._function: ast.FunctionDef | ast.AsyncFunctionDef | None = None  # the outer one

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._function = self._function or node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        value = node.value
        made = self.context.facts.resolve(value.func) if isinstance(value, ast.Call) else None
        bind_made(self._made, node.targets, made, UNSUPPORTED_CONTEXT_OBJECTS)

    def restate(self, reports: list[Report]) -> list[Report]:
        """Dynamo skips the frame at the first such `with`: it traces nothing after it in this
        function, so the breaks other rules see later are only what runs eagerly."""
        mine = [report for report in reports if report.code == self.code]
        if not mine:
            return reports
        first = min(mine, key=line)
        certain = (first.severity or self.severity) is Severity.ERROR
        if not certain and first.error_when_taken and self._function is not None:
            # Certain in the configurations that take the branches it is under.
            accepts = under(first, branch_paths(self._function))
            if accepts is not None:
                reports = after_skip(reports, first, True, skips=self.code, within=accepts)
        return after_skip(reports, first, certain, skips=self.code)

    def visit_withitem(self, node: ast.withitem) -> None:
        manager = node.context_expr
        made = made_object(
            manager, self._made, self.context.self_assignments, UNSUPPORTED_CONTEXT_OBJECTS
        )
        if made is not None:
            written = dotted(manager) or made
            self.report(manager, self.object_message.format(manager=written, cls=made))
            return
        if self._report_held(manager) or self._report_passed_in(manager):
            return
        if not isinstance(manager, ast.Call):
            return
        base = self.context.facts.unenterable_calls.get(dotted(manager.func) or "")
        if base is not None:
            fix = None
            if base == WARNINGS_CATCHER:
                fix = nullcontext_fix(self.context, manager, Applicability.UNSAFE)
            self.report(
                manager,
                self.subclass_message.format(manager=dotted(manager.func), base=base),
                hint=self.subclass_hint.format(base=base),
                fix=fix,
            )
            return
        name = self.context.facts.resolve(manager.func)
        name = CONTEXT_MANAGER_ALIASES.get(name or "", name)
        if name in UNSUPPORTED_CONTEXT_MANAGERS:
            fix = None
            if name == DEPRECATED_SDP:
                fix = offer(
                    self.context,
                    manager,
                    "enter `{torch}.nn.attention.sdpa_kernel` with the backends it enables",
                    "sdpa-kernel",
                    self.fix_applicability,
                    needs_torch=True,
                )
            self.report(manager, self.message.format(manager=name), fix=fix)

    def _report_passed_in(self, manager: ast.expr) -> bool:
        """`with handler:` on a parameter the function never rebinds, or `with self.handler:`
        where the class sets the attribute only to a parameter of a method (`self.handler =
        handler`): whether it was reported, as a warning (what is passed is not known)."""
        if isinstance(manager, ast.Name) and self._function is not None:
            if manager.id not in _parameters(self._function) or _rebinds(
                self._function, manager.id
            ):
                return False
            how = f"`{manager.id}` is a parameter"
        elif (
            isinstance(manager, ast.Attribute)
            and isinstance(manager.value, ast.Name)
            and manager.value.id == "self"
            and not self.context.self_assignments.callees(manager.attr)
            and self.context.self_assignments.passed_in(manager.attr)
        ):
            how = f"a method sets `self.{manager.attr}` to one of its parameters"
        elif (
            isinstance(manager, ast.Attribute)
            and isinstance(manager.value, ast.Name)
            and manager.value.id in _parameters(self.context.definition, keep_self=self._nested())
            and not _rebinds(self.context.definition, manager.value.id)
        ):
            # What an attribute of a parameter holds was made before the call; in a function
            # defined inside another (a decorator's wrapper) `self` is a parameter like any other.
            how = f"an attribute of the parameter `{manager.value.id}`"
        else:
            return False
        self.report(
            manager,
            self.passed_message.format(manager=dotted(manager), how=how),
            hint=self.passed_hint,
            severity=Severity.WARNING,
        )
        return True

    def _nested(self) -> bool:
        """Whether the function walked is defined inside another (a decorator's wrapper):
        its walk is its own, under the enclosing function's name."""
        return self.context.function.rpartition(".")[2] != self.context.definition.name

    def _report_held(self, manager: ast.expr) -> bool:
        """`with self.ctx:` on what the class's methods made before the call: whether it was
        reported."""
        if not isinstance(manager, ast.Attribute):
            return False
        makers = made_by(manager, {}, self.context.self_assignments)
        if not makers or any(
            maker in HELD_CONTEXT_MANAGERS_ENTERED
            or (maker.startswith("torch.") and maker not in HELD_GRAD_MODES)
            for maker in makers
        ):
            return False  # entered, or a torch object this rule does not know
        certain = all(maker in HELD_GRAD_MODES for maker in makers)
        self.report(
            manager,
            self.held_message.format(manager=dotted(manager), maker=makers[0]),
            hint=self.held_hint.format(maker=makers[0]),
            severity=None if certain else Severity.WARNING,
        )
        return True


def _parameters(
    function: ast.FunctionDef | ast.AsyncFunctionDef, keep_self: bool = False
) -> set[str]:
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    return {argument.arg for argument in every if keep_self or argument.arg not in ("self", "cls")}


def _rebinds(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether the function binds `name` anywhere (read only for a `with` on a parameter)."""
    return any(
        isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
        for node in ast.walk(function)
    )
