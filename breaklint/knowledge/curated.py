"""Facts about Dynamo kept by hand for the shipped torch version (`versions.SHIPPED`): what
torch has no table for and the generator does not measure. Each is proven under Dynamo by the
test suite (the accuracy corpus, the knowledge tests and the rules' page examples)."""

import sys

# What Dynamo 2.13 answers to "is something compiling?" while it traces. True: torch's own
# checks, by the last part of their name (libraries name their helpers after them). False:
# TorchScript's checks, which Dynamo folds to a constant, so `a if torch.jit.is_tracing() else b`
# traces `b` only (tests/projects/false_findings runs both under Dynamo).
COMPILING_CHECKS = frozenset({"is_compiling", "is_dynamo_compiling", "is_torchdynamo_compiling"})
# `torch._C._get_tracing_state()` (the tracer's state, which torchvision's and pyro's
# `_is_tracing` helpers return) is None while Dynamo traces: Dynamo folds it to that constant
# (tests/projects/tracing_helpers).
FALSE_WHILE_COMPILING = frozenset(
    {"torch.jit.is_tracing", "torch.jit.is_scripting", "torch._C._get_tracing_state"}
)

# nn.Module methods that return the module itself: `Model().eval()` is still that model, and
# `Resample(1, 2).to(x)(x)` calls it (`torch.nn.Module.to` and the others `return self`).
MODULE_RETURNS_SELF = frozenset(
    {"eval", "train", "to", "cpu", "cuda", "float", "double", "half", "bfloat16", "requires_grad_"}
)

# torch context managers Dynamo 2.13 cannot enter while tracing, each checked under Dynamo by
# tests/accuracy/contexts.py. Those it supports (no_grad, enable_grad, set_grad_enabled,
# inference_mode, autocast, sdpa_kernel, profiler ranges, ...) are not listed.
UNSUPPORTED_CONTEXT_MANAGERS = frozenset(
    {
        "torch.backends.cudnn.flags", "torch.backends.mkldnn.flags",
        "torch.backends.cuda.sdp_kernel", "torch.random.fork_rng",
        "torch.autograd.detect_anomaly", "torch.autograd.set_detect_anomaly",
        "torch.autograd.graph.save_on_cpu", "torch.autograd.graph.saved_tensors_hooks",
        "torch.device",
    }
)  # fmt: skip
# The same context managers under the other names torch exports them by.
CONTEXT_MANAGER_ALIASES = {
    "torch.autograd.anomaly_mode.detect_anomaly": "torch.autograd.detect_anomaly",
    "torch.autograd.anomaly_mode.set_detect_anomaly": "torch.autograd.set_detect_anomaly",
    "torch.fork_rng": "torch.random.fork_rng",
}

# Standard-library context managers Dynamo 2.13 enters but cannot resume inside: a graph break
# in their `with` block skips the whole frame ("Reconstruction failure", "Failed to trace
# builtin operator"; measured with Python 3.11). The grad modes, autocast and
# `contextlib.nullcontext` resume after a break in their block.
RESUMELESS_CONTEXT_MANAGERS = frozenset(
    {"warnings.catch_warnings", "contextlib.suppress", "contextlib.ExitStack"}
)

# Standard-library modules (and functions) Dynamo 2.13 marks as skipped, each with the way out.
UNTRACEABLE_STDLIB = {
    "time.": "time outside the compiled function (or with torch.cuda.Event) and pass it in",
    "random.": "draw random numbers with torch ops (`torch.rand`, `torch.randint`): they trace",
    "json.": "serialize outside the compiled function and pass the result in",
    "pickle.": "serialize outside the compiled function and pass the result in",
    "zlib.": "checksum outside the compiled function and pass the result in",
    "datetime.": "read the date outside the compiled function and pass it in",
    "uuid.": "make identifiers outside the compiled function and pass them in",
    "copy.deepcopy": "copy tensors with `t.clone()` (or `t.detach().clone()`): Dynamo traces it",
    "threading.Lock": "make the lock outside the compiled function (at module level or in "
    "`__init__`) and keep it out of the compiled code",
    "copy.copy": (
        "copy a tensor with `t.clone()`, a dict with `dict(d)` or `d.copy()`, a list with "
        "`list(xs)`: Dynamo traces those"
    ),
    "threading.": "make locks, events and threads outside the compiled function and pass them in",
    "warnings.simplefilter": "set warning filters outside the compiled function",
    "warnings.filterwarnings": "set warning filters outside the compiled function",
    # Reading the caller's frame (a NaN check that names where it was called from) and
    # importing by name (a setting that names its module) are skipped too (GB0007, measured).
    "sys._getframe": "read the frame outside the compiled code, or leave it to a traceback",
    "importlib.import_module": "import the module at module level and pass or read it there",
    # What reads the stack through `sys._getframe` (Dynamo traces their Python code and breaks
    # there, GB0007), and the process-level builtins it does not know (measured on 2.13).
    "inspect.currentframe": "read the frame outside the compiled code, or leave it to a traceback",
    "inspect.stack": "read the stack outside the compiled code, or leave it to a traceback",
    "traceback.format_stack": "format the stack outside the compiled code",
    "traceback.extract_stack": "read the stack outside the compiled code",
    "traceback.print_stack": "print the stack outside the compiled code",
    "os.getpid": "read the process id outside the compiled code and pass it in",
    "gc.collect": "collect garbage outside the compiled code",
    # Order-keeping helpers of plain lists (GB0007, measured on 2.13: `bisect_left`, `bisect`,
    # `insort`; `heappush`, `heappop`, `heapify`; `nsmallest` fails on a builtin operator), and
    # the queues, which lock a `threading.Condition` (tests/projects/stdlib_queues).
    "bisect.": "search the sorted values with `torch.searchsorted`, or before the compiled code",
    "heapq.": "order the values with `sorted` or `torch.topk`, or outside the compiled code",
    "queue.": "hand values over outside the compiled code (a queue locks a `threading.Condition`)",
}

# Third-party libraries Dynamo 2.13 always skips (`THIRDPARTY_SKIPLIST` in
# torch/_dynamo/trace_rules.py, numpy aside: Dynamo traces it as `torch._numpy`): a call into
# one breaks the graph ("Attempted to call function marked as skipped"); checked for tqdm under
# Dynamo by tests/projects/skipped_libraries. Each with the way out.
_OUTSIDE = "call it outside the compiled code and pass its result in"
SKIPPED_LIBRARIES = {
    "tqdm.": "iterate the plain steps in compiled code and show progress outside it (a tqdm bar "
    "around the call of the compiled step)",
    "pandas.": _OUTSIDE,
    "sklearn.": _OUTSIDE,
    "networkx.": _OUTSIDE,
    "tabulate.": _OUTSIDE,
    "hypothesis.": _OUTSIDE,
    "xarray.": _OUTSIDE,
    "tree.": _OUTSIDE,
    "onnx.": _OUTSIDE,
    "onnxruntime.": _OUTSIDE,
    "tensorflow.": _OUTSIDE,
    "tensorrt.": _OUTSIDE,
    "tvm.": _OUTSIDE,
}

# tqdm's progress bars, each by how it is given the steps it yields: `iterable`, its first
# argument (or `iterable=`); `range`, its positional arguments are `range`'s (`trange`).
# Iterated by a `for`, a bar yields exactly its steps, so compiled code can iterate the steps
# themselves (`for i in range(n) if torch.compiler.is_compiling() else tqdm(range(n)):`, one
# graph on Dynamo 2.13, measured) while eager runs keep the bar.
_TQDM_MODULES = ("tqdm", "tqdm.auto", "tqdm.autonotebook", "tqdm.notebook", "tqdm.std")
PROGRESS_BARS = {
    **{f"{module}.tqdm": "iterable" for module in _TQDM_MODULES},
    **{f"{module}.trange": "range" for module in _TQDM_MODULES},
}

# Standard-library classes whose methods Dynamo 2.13 cannot trace: a call of one of these
# methods on an instance breaks the graph at the call ("Unsupported method call", GB0156).
# Each is checked under Dynamo by tests/projects/stdlib_objects (`self.var = ContextVar(...)`,
# a module-level instance, and one imported from another module).
UNTRACEABLE_OBJECT_METHODS = {
    "contextvars.ContextVar": frozenset({"get", "set", "reset"}),
    "threading.Lock": frozenset({"acquire", "release"}),
    "threading.RLock": frozenset({"acquire", "release"}),
    "io.StringIO": frozenset({"write"}),
    # Each method of a queue enters its `threading.Condition` ("Unsupported context manager");
    # a `SimpleQueue`'s are C methods ("Unsupported method call"). A `Condition`'s and
    # `Event`'s too (measured on 2.13, tests/projects/stdlib_queues).
    **dict.fromkeys(
        ("queue.Queue", "queue.LifoQueue", "queue.PriorityQueue", "queue.SimpleQueue"),
        frozenset({"put", "get", "put_nowait", "get_nowait", "empty", "qsize", "full"}),
    ),
    "threading.Condition": frozenset({"acquire", "release", "wait", "notify", "notify_all"}),
    "threading.Event": frozenset({"set", "clear", "wait", "is_set"}),
    # Dynamo runs a regular-expression match's methods at trace time and takes their result as
    # a constant: `groupdict()` returns a dict, which it cannot ("constant-like method call
    # with unsupported return type", GB0292); `group`, `groups`, `span` and `m[i]` trace, and
    # so do `re.compile`, `re.match` and a pattern's `match`/`search`/`fullmatch`
    # (tests/projects/regex_matches).
    "re.Match": frozenset({"groupdict"}),
}
# What makes a `re.Match` (or None): these functions of `re`, and these methods of a pattern
# `re.compile` made.
REGEX_MATCH_FUNCTIONS = frozenset({"re.match", "re.search", "re.fullmatch"})
REGEX_PATTERN_MAKER = "re.compile"
REGEX_MATCH_METHODS = frozenset({"match", "search", "fullmatch"})
# Standard-library objects Dynamo 2.13 cannot enter as context managers (`with lock:`: it
# skips the frame, "Unsupported context manager"), checked by tests/projects/stdlib_objects.
UNSUPPORTED_CONTEXT_OBJECTS = frozenset(
    {
        "threading.Lock", "threading.RLock", "threading.Condition", "threading.Semaphore",
        "threading.BoundedSemaphore",
    }
)  # fmt: skip
# Context managers Dynamo 2.13 enters when an object made before the compiled frame holds one
# (`with self.ctx:`, `self.ctx = torch.autocast(...)` in `__init__`). It cannot enter any other
# object it did not see made: the frame is skipped ("Unsupported context manager", GB0142), for
# the grad modes below and for a project's own context-manager classes alike (measured; a
# `with Timer():` that makes its object in the frame is entered). Checked by
# tests/accuracy/contexts.py.
HELD_CONTEXT_MANAGERS_ENTERED = frozenset(
    {
        "torch.autocast", "torch.amp.autocast", "torch.cpu.amp.autocast",
        "torch.cuda.amp.autocast", "contextlib.nullcontext", "torch.profiler.record_function",
        "torch.autograd.profiler.record_function",
    }
)  # fmt: skip
HELD_GRAD_MODES = frozenset(
    {"torch.no_grad", "torch.enable_grad", "torch.inference_mode", "torch.set_grad_enabled"}
)
# `nn.Module` methods that return generators: Dynamo 2.13 cannot rebuild one alive at a graph
# break ("Generator reconstruction with mutations", GB8335), so it skips the frame (measured on
# `parameters` and `modules`; the others are the same generator functions of `nn.Module`).
MODULE_GENERATOR_METHODS = frozenset(
    {
        "parameters", "named_parameters", "buffers", "named_buffers", "children",
        "named_children", "modules", "named_modules",
    }
)  # fmt: skip
# Builtins whose iterator Dynamo 2.13 iterates only where it made the object itself: one made
# before a graph break reaches the resumed frame as an object it cannot iterate, and each use
# there breaks ("missing tp_iter", GB0811; "Missing tp_iternext" for `next`). Measured with
# Python 3.11 for star-unpacking, `for`, comprehensions, generator expressions, `list`,
# `tuple`, `set`, `sum` and `next`; `iter(...)` and `reversed(...)` of a list resume.
ITERATORS_LOST_AT_BREAK = frozenset({"filter", "map", "zip"})
# The builtins measured to iterate such an object there (and break) when given it.
ITERATING_BUILTINS = frozenset({"list", "tuple", "set", "sum", "next"})
# Builtins whose object Dynamo 2.13 makes as a generator of its own (a polyfill): alive at a
# graph break, it cannot rebuild it either ("Generator reconstruction with mutations", GB8335),
# and skips the frame. Measured with Python 3.11 for a local holding `enumerate(...)` across a
# break and for a call given one that breaks inside.
GENERATOR_BUILTINS = frozenset({"enumerate"})
# Standard-library functions Dynamo 2.13 cannot hand a generator expression to ("Failed to
# convert args/kwargs to proxy"): it breaks at the call, with the generator alive, and skips
# the frame (GB8335; BL210). Measured with Python 3.11; a list comprehension argument traces.
GENERATOR_REFUSING_CALLS = frozenset({"math.prod", "math.fsum"})
# Context-manager classes a project's subclass of which Dynamo 2.13 cannot enter: `with
# Quiet():` of `class Quiet(warnings.catch_warnings)` skips the whole frame at the `with` line.
# True: only where the base's own `__enter__` runs (inherited, or through
# `super().__enter__()`): `catch_warnings.__enter__` calls a builtin Dynamo does not trace
# (GB0007). False: whatever the subclass defines (a subclassed grad mode is an "Unsupported
# context manager", GB0142). Measured with Python 3.11; subclasses of autocast, `nullcontext`,
# `contextlib.suppress`, `ExitStack`, `AbstractContextManager` and `ContextDecorator` are
# entered. Checked by tests/projects/subclassed_managers.
SUBCLASSED_CONTEXT_MANAGERS_SKIPPED = {
    "warnings.catch_warnings": True,
    **dict.fromkeys(HELD_GRAD_MODES, False),
    "torch.autograd.no_grad": False, "torch.autograd.enable_grad": False,
    "torch.autograd.inference_mode": False, "torch.autograd.set_grad_enabled": False,
    "torch.autograd.grad_mode.no_grad": False, "torch.autograd.grad_mode.enable_grad": False,
    "torch.autograd.grad_mode.inference_mode": False,
    "torch.autograd.grad_mode.set_grad_enabled": False,
}  # fmt: skip
# torch modules whose forward runs an operator of data-dependent output size, by public name:
# a call of one breaks the graph ("Dynamic shape operator", GB0036; measured on 2.13 with each
# held on an attribute `__init__` sets).
DYNAMIC_SHAPE_MODULES = frozenset({"torch.nn.CTCLoss", "torch.nn.AdaptiveLogSoftmaxWithLoss"})
# The TypedDict bases. Dynamo 2.13 cannot make an instance of a TypedDict with optional keys
# (`total=False`, `NotRequired[...]`, its own or a base's): calling the class breaks the graph
# ("TypedDict with optional keys", GB0257); one whose keys are all required is traced as the
# dict it makes (measured; tests/projects/typed_dicts).
TYPED_DICTS = frozenset({"typing.TypedDict", "typing_extensions.TypedDict"})
# Classes whose project subclasses Dynamo 2.13 cannot call: making an instance of a subclass of
# `functools.partial` breaks the graph ("Unsupported function call", GB0147), where
# `functools.partial` itself is traced (measured; tests/projects/partial_subclasses).
UNCALLABLE_SUBCLASSED = frozenset({"functools.partial"})
# Methods of standard-library objects that Dynamo 2.13 traces as draws: it keeps the number
# in the graph as a 0-d tensor, so a use that needs the number itself (a branch, `int()`)
# breaks, and a tensor operand (`x * rng.random()`) does not (measured on a module-level
# `random.Random(1234)` and on one `__init__` sets; `gauss` and `choice` break themselves).
TRACED_DRAW_METHODS = {
    "random.Random": frozenset({"random", "uniform", "randint", "randrange"}),
}
# numpy calls that make objects, not arrays, which Dynamo 2.13 cannot trace: it breaks at the
# call (BL601) and again at every call of a method of the object, numpy's own code being
# skipped ("Attempted to inline function marked as skipped", GB0008; "Unsupported method
# call", GB0156). An array a numpy call makes eagerly is traced as a tensor: its methods are
# not listed. Checked under Dynamo by tests/projects/numpy_objects.
NUMPY_OBJECT_MAKERS = frozenset(
    {
        "numpy.random.SeedSequence", "numpy.random.RandomState", "numpy.random.Generator",
        "numpy.random.default_rng", "numpy.random.PCG64", "numpy.random.MT19937",
        "numpy.random.Philox", "numpy.random.SFC64",
    }
)  # fmt: skip
# The optimizers and learning-rate schedulers of `torch.optim` (every class under it) and
# their methods that break in compiled code: `zero_grad` and a scheduler's `step` are functions
# Dynamo 2.13 skips (GB0008), and an optimizer's `step` breaks before and after the update on
# purpose (`torch._dynamo.graph_break()` in `torch.optim.optimizer._use_grad`, GB0025), or,
# once a scheduler has wrapped it, is a call Dynamo skips (GB0007). Measured with SGD, AdamW,
# Adam and StepLR; checked by tests/accuracy/optimizers.py and tests/projects/optimizer_steps.
OPTIMIZER_MODULE = "torch.optim."
OPTIMIZER_METHODS = frozenset({"zero_grad", "step"})
# Every method name above: a call whose method is none of them needs no look-up of its receiver.
UNTRACEABLE_METHOD_NAMES = frozenset().union(*UNTRACEABLE_OBJECT_METHODS.values())
HELD_OBJECT_METHOD_NAMES = UNTRACEABLE_METHOD_NAMES.union(
    *TRACED_DRAW_METHODS.values(), OPTIMIZER_METHODS, REGEX_MATCH_METHODS
)

# `functools.cached_property` computes its value under an `RLock` until Python 3.12 removed
# the lock: Dynamo 2.13 cannot enter an `RLock` ("Unsupported context manager", GB0142) and
# skips the frame that reads the property before it is cached (measured on Python 3.11).
CACHED_PROPERTY = "functools.cached_property"
CACHED_PROPERTY_LOCKLESS_SINCE = (3, 12)
# Python runs a list, set or dict comprehension as a function of its own, with a frame of its
# own, before 3.12; PEP 709 inlines them into the enclosing function from 3.12 on. In a frame
# Dynamo 2.13 runs eagerly, such a frame is compiled on its own when it touches torch.
COMPREHENSIONS_INLINED_SINCE = (3, 12)


# The rules about a comprehension's own frame (BL203 after a break, BL205 in a skipped frame,
# BL523 in a frame that traces no op): off where the target Python inlines comprehensions.
COMPREHENSION_FRAME_RULES = frozenset({"BL203", "BL205", "BL523"})


# Calls that put no op in Dynamo's graph, of the builtins (measured: `dict(...)`, `.update`,
# `isinstance`, `len` in a frame that Dynamo then skips for want of an op).
OP_FREE_BUILTINS = frozenset(
    {
        "callable",
        "dict",
        "enumerate",
        "frozenset",
        "getattr",
        "hasattr",
        "id",
        "isinstance",
        "issubclass",
        "iter",
        "len",
        "list",
        "range",
        "repr",
        "reversed",
        "set",
        "sorted",
        "str",
        "tuple",
        "type",
        "zip",
    }
)
# The standard library's containers, as resolved: making one is no op either (measured).
OP_FREE_CALLS = frozenset(
    {"collections.Counter", "collections.OrderedDict", "collections.defaultdict"}
)
# Methods of lists, dicts, sets and strings; on a value not known to be a tensor, none is an op.
OP_FREE_METHODS = frozenset(
    {
        "append",
        "clear",
        "count",
        "discard",
        "endswith",
        "extend",
        "format",
        "get",
        "index",
        "insert",
        "items",
        "join",
        "keys",
        "pop",
        "popitem",
        "remove",
        "replace",
        "setdefault",
        "split",
        "startswith",
        "update",
        "values",
    }
)


def comprehension_frames(python: tuple[int, int] | None = None) -> bool:
    """Whether a comprehension is a frame of its own on `python` (the target Python; None:
    the one breaklint runs on)."""
    if python is None:
        python = (sys.version_info.major, sys.version_info.minor)
    return python < COMPREHENSIONS_INLINED_SINCE


# The torch modules a module-level name may hold (`import torch.nn.functional as F`): a
# comprehension frame that reads one is compiled (Dynamo's `has_tensor_in_frame`).
TORCH_MODULES = frozenset(
    {
        "torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.fft",
        "torch.linalg", "torch.special", "torch.distributions", "torch.autograd", "torch.cuda",
        "torch.distributed", "torch.utils", "torch.utils.checkpoint", "torch.jit", "torch.amp",
        "torch.backends", "torch.compiler", "torch.random", "torch.sparse", "torch.nested",
    }
)  # fmt: skip

_PACKING = (
    "pass the padded batch and a mask (or the lengths) to the compiled code, and pack outside it"
)
_CTC = "return the log-probabilities from the compiled function and compute the CTC loss outside it"
# torch functions and tensor methods Dynamo 2.13 does not put in a graph (measured), each with
# the way out.
UNTRACEABLE_TORCH_FUNCTIONS = {
    "torch.autograd.grad": (
        "take the gradient with `torch.func.grad(f)(x)`, which Dynamo traces, or outside the "
        "compiled function"
    ),
    "torch.sparse_coo_tensor": "build sparse tensors outside the compiled function",
    # A `Variable` is a plain tensor since torch 0.4; its constructor is a function Dynamo
    # skips (GB0007, measured on 2.13).
    "torch.autograd.Variable": (
        "use the tensor itself (a `Variable` is a tensor since torch 0.4), with "
        "`requires_grad_()` on the input before the compiled call where it needs gradients"
    ),
    # Packing is skipped (GB0007); `pad_sequence` is traced.
    "torch.nn.utils.rnn.pack_padded_sequence": _PACKING,
    "torch.nn.utils.rnn.pack_sequence": _PACKING,
    # The CTC loss is a dynamic-shape operator to Dynamo (GB0036), whatever its reduction.
    "torch.nn.functional.ctc_loss": _CTC,
    "torch.ctc_loss": _CTC,
    # TorchScript's type refinement is a function Dynamo skips (GB0007, measured on 2.13), not
    # folded to a constant as `torch.jit.is_scripting()` is.
    "torch.jit.isinstance": "use the builtin `isinstance(x, torch.Tensor)`, which Dynamo traces",
    # A function Dynamo skips (GB0007, measured on 2.13); `checkpoint` itself is traced.
    "torch.utils.checkpoint.checkpoint_sequential": (
        "checkpoint each segment with `torch.utils.checkpoint.checkpoint(segment, x, "
        "use_reentrant=False)`, which Dynamo traces"
    ),
}
# torch classes in modules Dynamo 2.13 does not inline (not in its inline lists): it refuses
# to trace their `__init__` and their methods ("Attempted to inline function marked as
# skipped", GB0008) and breaks the graph at each call (measured: `SobolEngine.__init__`,
# `draw`, `fast_forward`, `reset`; `GradScaler.__init__`, `scale`; `TensorDataset.__init__`).
# Each with the way out.
SKIPPED_TORCH_CLASSES = {
    "torch.quasirandom.SobolEngine": (
        "make the engine and draw its points outside the compiled code, and pass them in"
    ),
    "torch.amp.GradScaler": "scale the loss and step the scaler outside the compiled code",
    "torch.amp.grad_scaler.GradScaler": (
        "scale the loss and step the scaler outside the compiled code"
    ),
    "torch.utils.data.TensorDataset": "make the dataset outside the compiled code",
    "torch.utils.data.dataset.TensorDataset": "make the dataset outside the compiled code",
}
# Arguments where Dynamo 2.13 traces a 0-d tensor given for a Python number, in one graph with
# the eager result of the number (measured in tests/test_number_argument_fixes.py): by torch
# function, or by tensor method (`.name`), the positions after the receiver and the keywords.
# Not there (the tensor breaks the graph or differs): `full_like`, `new_full`, `F.pad`'s and
# `nan_to_num`'s values, `addcmul`'s `value`, `add`'s `alpha`, `F.threshold`, `F.leaky_relu`,
# `round()`; `pow` (an integer exponent rounds otherwise); a `clamp` with two bounds, one of
# them a Python number (its overload refuses the mix).
NUMBER_ARGUMENTS: dict[str, tuple[tuple[int, ...], frozenset[str]]] = {
    "torch.where": ((1, 2), frozenset({"input", "other"})),
    "torch.full": ((1,), frozenset({"fill_value"})),
    "torch.lerp": ((2,), frozenset({"weight"})),
    "torch.clamp": ((1, 2), frozenset({"min", "max"})),
    "torch.clamp_min": ((1,), frozenset({"min"})),
    "torch.clamp_max": ((1,), frozenset({"max"})),
    **{f"torch.{op}": ((1,), frozenset({"other"})) for op in ("add", "sub", "mul", "div")},
    ".clamp": ((0, 1), frozenset({"min", "max"})),
    ".clamp_": ((0, 1), frozenset({"min", "max"})),
    ".clamp_min": ((0,), frozenset({"min"})),
    ".clamp_max": ((0,), frozenset({"max"})),
    ".masked_fill": ((1,), frozenset({"value"})),
    ".masked_fill_": ((1,), frozenset({"value"})),
    ".fill_": ((0,), frozenset({"value"})),
    ".lerp": ((1,), frozenset({"weight"})),
    **{f".{op}": ((0,), frozenset({"other"})) for op in ("add", "sub", "mul", "div")},
}
# Of those, the bounds: a tensor for one of two bounds breaks where the other is a number.
CLAMPS = frozenset({"torch.clamp", ".clamp", ".clamp_"})
# Builtins that give a tensor from a 0-d tensor among numbers (`max(n, 1)`, `abs(n)`), traced
# by Dynamo 2.13 in the graph with the eager value (measured as above).
NUMBER_BUILTINS = frozenset({"max", "min", "abs"})
# The `math` functions of real numbers: a tensor given to one is read through `__float__`
# (or `__floor__`, `__ceil__`, `__trunc__`), which needs its value: Dynamo breaks there
# (GB0033, measured on 2.13 for sqrt, exp, log, isnan, floor).
MATH_OF_NUMBERS = frozenset(
    {
        "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign",
        "cos", "cosh", "degrees", "erf", "erfc", "exp", "exp2", "expm1", "fabs", "floor",
        "fmod", "frexp", "gamma", "hypot", "isclose", "isfinite", "isinf", "isnan", "ldexp",
        "lgamma", "log", "log10", "log1p", "log2", "modf", "pow", "radians", "remainder",
        "sin", "sinh", "sqrt", "tan", "tanh", "trunc",
    }
)  # fmt: skip

_RESIZE = (
    "give the tensor its size where it is made (`copy_` into one of the right size, or "
    "rebind the name to the new tensor), or resize it outside the compiled function"
)
UNTRACEABLE_TENSOR_METHODS = {
    "to_sparse": "make the sparse tensor outside the compiled function",
    "backward": (
        "compile the forward and the loss, and call `.backward()` on what the compiled "
        "function returns"
    ),
    # A storage is memory, not a value a fake tensor has: GB0208 (`storage`), GB0156.
    "storage": "read storages (sharing, sizes in bytes) outside the compiled function",
    "untyped_storage": "read storages (sharing, sizes in bytes) outside the compiled function",
    # Resizing a tensor's storage in place: GB0126, GB0127 (GB0148 on an input or a buffer).
    "resize_": _RESIZE,
    "resize_as_": _RESIZE,
}

# `torch.nn` modules whose call returns something other than one tensor (a tuple, a named
# tuple): every other `torch.nn.<Module>` a class assigns to `self` returns a tensor.
NON_TENSOR_MODULES = frozenset(
    {
        "torch.nn.RNN", "torch.nn.LSTM", "torch.nn.GRU", "torch.nn.MultiheadAttention",
        "torch.nn.AdaptiveLogSoftmaxWithLoss", "torch.nn.ModuleList", "torch.nn.ModuleDict",
        "torch.nn.ParameterList", "torch.nn.ParameterDict", "torch.nn.Module",
    }
)  # fmt: skip

# What Dynamo traces of a `torch.autograd.Function` subclass whose `apply` compiled code calls:
# `forward` in the caller's graph, and `backward` when an input requires grad (measured on
# 2.13: a `print` in `backward` breaks the caller at `apply` twice, and not under `no_grad`).
AUTOGRAD_FUNCTION_TRACED = ("forward", "backward")

# In-place tensor methods `t.m_(...)` with an out-of-place twin `t.m(...)` (the shipped
# `tensor_methods`) that do not give the value `t.m_(...)` writes: they change a tensor's shape,
# its view or its autograd state rather than its values, or draw random numbers (computing the
# twin in a branch not taken would move the random stream). The others, and `copy_`, update
# values: the BL201 `where-in-place` fix writes `t.copy_(torch.where(cond, <chain>, <chain>))`.
NOT_VALUE_UPDATES = frozenset(
    {
        "as_strided_", "detach_", "resize_", "resize_as_", "squeeze_", "unsqueeze_",
        "swapaxes_", "swapdims_", "t_", "transpose_", "bernoulli_",
    }
)  # fmt: skip
