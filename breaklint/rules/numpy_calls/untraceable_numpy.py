from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.class_attributes import made_object
from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer
from breaklint.knowledge.answers import knowledge
from breaklint.knowledge.curated import NUMPY_OBJECT_MAKERS
from breaklint.rule import FixExample, Outline, RuleContext, within
from breaklint.rules._traced_values import TracedValue, TracedValueUses, python_number
from breaklint.syntax import dotted

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten

SEQUENCES = (ast.List, ast.Tuple, ast.Set, ast.ListComp, ast.SetComp, ast.GeneratorExp)


def _numel(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `numel` fix: `np.prod(sizes)` becomes `torch.Size(sizes).numel()`."""
    import libcst as cst

    from breaklint.rewrites import method, torch_function

    if not isinstance(node, cst.Call) or len(node.args) != 1 or node.args[0].keyword:
        return None
    sizes = cst.Call(torch_function(fix.torch, "Size"), [cst.Arg(node.args[0].value)])
    return method(sizes, "numel").with_changes(lpar=node.lpar, rpar=node.rpar)


def _shape(node: ast.expr) -> bool:
    """Whether `node` is a shape: `x.shape`, `x.shape[1:]`, `x.size()`."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr == "shape"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "size" and not node.args and not node.keywords
    return False


def _sizes(node: ast.expr) -> bool:
    """Whether `node` is plainly a sequence of Python ints: a shape, or a list or tuple of
    plain ints."""
    if isinstance(node, ast.List | ast.Tuple):
        return bool(node.elts) and all(python_number(e) == "int" for e in node.elts)
    return _shape(node)


class UntraceableNumpy(TracedValueUses):
    code = "BL601"
    name = "untraceable-numpy"
    severity = Severity.ERROR
    message = (
        "`{call}` has no counterpart in torch._numpy, so Dynamo cannot trace it and breaks "
        "the graph here (numpy functions it does know are traced as torch ops)"
    )
    hint = "use the torch equivalent, or compute it outside the compiled code"
    breaks_inside_message = (
        "`{call}` is traced through torch._numpy, but breaks inside on a data-dependent "
        "operation (it reads a tensor's value), so the graph breaks here"
    )
    scalar_draw_message = (
        "`{call}()` without a size returns a Python number, which torch._numpy reads from a "
        "tensor with `.item()` (a data-dependent operation): the graph breaks here"
    )
    draw_hint = (
        "draw with torch (`torch.rand`, `torch.randint`, `torch.randperm`, `torch.multinomial`)"
    )
    object_method_message = (
        "`{call}()` is a method of a `{maker}` object, which Dynamo cannot trace (it skips "
        "numpy's own code), so it breaks the graph here"
    )
    object_hint = (
        "make the object and draw what it gives outside the compiled code, or draw with torch "
        "(`torch.Generator` outside, `torch.rand`/`torch.randint` inside)"
    )
    module = "numpy"
    words = within(f"{module}.")

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        """Its calls, or a method of an object its class makes (asked last: the class is read)."""
        if super().may_report(outline):
            return True
        made = outline.self_assignments.made() if "self" in outline.words else ()
        return not NUMPY_OBJECT_MAKERS.isdisjoint(made)

    use_message = (
        "{subject} is an array Dynamo traces as a tensor: {use} needs its value, which breaks "
        "the graph here"
    )
    use_hint = (
        "compute Python numbers with Python (`math.lcm`, `math.sqrt`), or keep the value a "
        "tensor operand"
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"numel": _numel}
    fix_safety = """
Unsafe fix: where the value a break reads is `np.prod(sizes)` of a shape (`x.shape[1:]`,
`x.size()`, or a local bound to one: `dims = x.shape[1:]`, the starred target of one unpacked,
`b, c, *spatial = x.shape`) or of a list of Python ints, the product becomes
`torch.Size(sizes).numel()`: the same number, as a Python `int` Dynamo holds at trace time
instead of a traced array. It is a Python `int` where numpy gave `numpy.int64` (`1` for no
sizes, where numpy gives `1.0`), so code that relies on numpy's integer type sees another type.
Other numpy calls have no automatic fix: a numpy function that torch._numpy lacks has no general
torch equivalent, and drawing from torch's random stream instead of numpy's changes the eager
outputs.
"""
    fix_examples = (
        FixExample(
            before="""
import numpy as np
import torch


def unroll(x):
    steps = np.prod(x.shape[1:])
    for _ in range(steps):
        x = torch.tanh(x)
    return x


compiled = torch.compile(unroll)
""",
            after="""
import numpy as np
import torch


def unroll(x):
    steps = torch.Size(x.shape[1:]).numel()
    for _ in range(steps):
        x = torch.tanh(x)
    return x


compiled = torch.compile(unroll)
""",
            probe="(unroll, (torch.randn(2, 3),))",
        ),
        FixExample(
            before="""
import numpy as np
import torch


def attend(x):
    b, c, *spatial = x.shape
    n = int(np.prod(spatial))
    return x.reshape(b, c, n).softmax(-1)


compiled = torch.compile(attend)
""",
            after="""
import numpy as np
import torch


def attend(x):
    b, c, *spatial = x.shape
    n = int(torch.Size(spatial).numel())
    return x.reshape(b, c, n).softmax(-1)


compiled = torch.compile(attend)
""",
            probe="(attend, (torch.randn(2, 3, 4, 5),))",
        ),
    )
    what = """
Flags numpy in compiled code where Dynamo's numpy tracing breaks the graph:

- calls of numpy functions that `torch._numpy` lacks (`np.interp`, `np.histogram`...);
- calls of methods of the numpy objects such calls make (`rng.normal(size=3)` after
  `rng = np.random.default_rng(0)`, `seq.generate_state(4)` on a `np.random.SeedSequence`),
  held in a local of the function or on an attribute that the class sets only to such objects
  (`self.rng = np.random.default_rng(seed)` in `__init__`);
- traced calls that break inside on a data-dependent operation: `np.random.choice`, and the
  `np.random` draws that return a Python number when given no size (`np.random.uniform(0, 1)`,
  `np.random.rand()`; `np.random.rand(3)` is traced);
- uses of a traced numpy result that need its value as a Python number: a branch
  (`if np.sum(a) > 0`; also an operand of `or`/`and` that Python reads the truth of to pick
  the value, `bad = np.any(low != 0) or np.any(high != 255)`, and a branch on what it picked),
  `int()`/`float()`/`bool()`/`range()` (`int(np.lcm(a, b))`), a slice
  bound, and an index or a size when the value comes from arrays
  (`torch.zeros(np.sum(mask))`; `torch.zeros(np.lcm(a, b))` is traced) or from a sequence
  of Python ints, which numpy makes an array of (`np.prod([h, w])`; a warning where the
  sequence's length is not written out, `x.view(b, np.prod(x.shape[1:]))`, `np.prod(rest)`
  after `b, *rest = x.shape`: Dynamo folds a sequence of one item into a number). As a tensor
  operand
  (`x * np.sum(a)`) a result costs nothing, and Dynamo folds floats computed from Python
  numbers (`int(np.sqrt(n))` is traced);
- text made of any traced numpy result, even one computed from Python numbers: `str()` and
  `repr()` of it break the graph (errors); an f-string, `%` or `str.format` that formats it
  (`self.blocks[f"{n}"]` after `n = np.log2(x.shape[-1])`) makes a string Dynamo cannot use:
  the frame is skipped and runs eagerly where the string is used as text (`len()`, `+`, a
  module dict's key), a warning, as a plain dict's `.get()` of it traces and an unused one
  costs nothing;
- uses as Python numbers of what a `np.random` draw Dynamo cannot trace returns
  (`range(max(np.random.geometric(p, n)) + 1)`): the draw breaks and runs eagerly, and the
  frame resumes with the array as an input it traces as a tensor. `max()`, `min()` and
  `sum()` of a traced array are traced values too.

What numpy Dynamo traces, what breaks inside, and which uses of which results break are read
from the installed torch once per version (in a subprocess, cached under the user cache
folder), with the answer for torch 2.13 as fallback.
"""
    why = """
For a numpy call Dynamo looks up the function of the same name in `torch._numpy`; when there is
none (`np.interp`, `np.histogram`, ...) it cannot trace the call, breaks the graph and runs
numpy eagerly on real arrays ("attempted to trace numpy function unsupported by PyTorch",
GB0294). A traced call becomes torch ops on fake tensors, which have no values: a function
that reads one inside (`np.random.choice` checks its probabilities, a size-less draw calls
`.item()`) breaks ("Data dependent operator", GB0033), and so does user code that turns a
traced result into a Python number ("Data-dependent branching", GB0170; "torch.* op returned
non-Tensor", GB0208). It has no text for a traced result either: `str()` of one is
a builtin it cannot trace ("Failed to trace builtin operator", GB0059), `repr()` needs the
tensor's values, and an f-string's formatting gives a value that raises where the string is
used (`len()`, a dict key, `+`), so Dynamo skips the frame ("Observed exception", GB0088;
measured with torch 2.13).
"""
    example = """
import numpy as np
import torch


def resample(x):
    grid = np.interp(np.linspace(0, 1, 8), np.array([0.0, 1.0]), np.array([0.0, 2.0]))
    return x * torch.from_numpy(grid).float()


compiled = torch.compile(resample)
"""
    use_instead = """
import numpy as np
import torch


def resample(x):
    grid = np.linspace(0, 1, 8) * 2.0
    return x * torch.from_numpy(grid).float()


compiled = torch.compile(resample)
"""
    probe = "(resample, (torch.randn(8),))"
    gb_ids = ("GB0294", "GB0033", "GB0170", "GB0208", "GB0059", "GB0088")

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self.objects: dict[str, str] = {}  # locals bound to numpy objects: the call that made it
        # Locals bound to sequences (`*rest` of `b, c, *rest = x.shape`, `dims = x.shape[1:]`):
        # numpy makes an array of a sequence, even of Python ints (`np.prod(rest)`).
        self.sequences: set[str] = set()
        # Those of them bound to sizes: a shape (`dims = x.shape[1:]`), or the starred target
        # of one unpacked (`b, c, *spatial = x.shape`): a list of Python ints.
        self.sizes: set[str] = set()

    def visit_Call(self, node: ast.Call) -> None:
        self._check_call(node)
        super().visit_Call(node)

    def _check_call(self, node: ast.Call) -> None:
        func = node.func
        maker = (
            made_object(
                func.value, self.objects, self.context.self_assignments, NUMPY_OBJECT_MAKERS
            )
            if isinstance(func, ast.Attribute)
            else None
        )
        if maker is not None:
            message = self.object_method_message.format(call=dotted(func), maker=maker)
            self.report(node, message, hint=self.object_hint)
            return
        name = self.context.facts.resolve(node.func)
        if name is None or not name.startswith("numpy."):
            return
        known = knowledge()
        if name not in known.numpy_traced:
            self.report(node, self.message.format(call=name))
        elif self._breaks_inside(name):
            self.report(node, self.breaks_inside_message.format(call=name), hint=self.draw_hint)
        elif self._scalar_draw(node, name):
            self.report(node, self.scalar_draw_message.format(call=name), hint=self.draw_hint)

    @staticmethod
    def _breaks_inside(name: str) -> bool:
        status, _ = knowledge().numpy_draws.get(name, ("traced", None))
        return status == "breaks"

    @staticmethod
    def _scalar_draw(node: ast.Call, name: str) -> bool:
        status, size = knowledge().numpy_draws.get(name, ("traced", None))
        if status != "breaks-without-size":
            return False
        return (
            size is not None
            and len(node.args) <= size
            and not any(k.arg == "size" for k in node.keywords)
        )

    def use_fix(self, node: ast.expr) -> Fix | None:
        made = self.bound.get(node.id) if isinstance(node, ast.Name) else node
        if not isinstance(made, ast.Call) or self.context.facts.resolve(made.func) != "numpy.prod":
            return None
        if made.keywords or len(made.args) != 1:
            return None
        sizes = made.args[0]
        if not (_sizes(sizes) or (isinstance(sizes, ast.Name) and sizes.id in self.sizes)):
            return None
        message = "compute the product in Python: `{torch}.Size(...).numel()`"
        return offer(self.context, made, message, "numel", self.fix_applicability, needs_torch=True)

    def value_of_call(self, node: ast.Call) -> TracedValue | None:
        name = self.context.facts.resolve(node.func)
        known = knowledge()
        if name is not None and name.startswith("numpy.random.") and name not in known.numpy_traced:
            # A draw Dynamo cannot trace breaks at the call (reported there) and runs eagerly:
            # the frame resumes with the array it drew as an input, which it traces as a
            # tensor (`range(max(draws))` breaks again, measured on 2.13).
            return TracedValue(name, frozenset({"numpy-data"}))
        if name is None or name not in known.numpy_traced:
            return None
        if name in known.numpy_draws:
            if self._breaks_inside(name) or self._scalar_draw(node, name):
                return None  # reported at the call
            return TracedValue(name, frozenset({"numpy-data"}))
        return self._computed_value(node, name)

    def _computed_value(self, node: ast.Call, name: str) -> TracedValue:
        """What Dynamo knows of a numpy result: arrays give values it does not know
        ("numpy-data"); Python numbers give a number it holds at trace time."""
        facts = self.context.facts
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        values = [self.value(argument) for argument in node.args]
        arrays = any(facts.kind(argument).is_tensor for argument in arguments) or any(
            isinstance(argument, (*SEQUENCES, ast.Starred))
            or (value is not None and "numpy-data" in value.kinds)
            for argument, value in zip(node.args, values, strict=True)
        )
        result = knowledge().numpy_results.get(name)
        if arrays or result is None:
            return TracedValue(name, frozenset({"numpy-data"}))
        # A shape, or a list bound elsewhere, of Python ints: an array of several, which
        # Dynamo holds as a tensor, or folded into a number where it holds one item only.
        sequences = [self._sequence(argument) for argument in node.args]
        numbers = [
            "int" if sequence else value.number if value is not None else python_number(argument)
            for argument, value, sequence in zip(node.args, values, sequences, strict=True)
        ]
        if result == "follows":
            result = "float" if "float" in numbers else "integer" if set(numbers) == {"int"} else ""
        kinds = {"float": {"numpy-float"}, "integer": {"numpy-int"}}.get(
            result, {"numpy-int", "numpy-float"}
        )
        if None in numbers or any(sequences):
            kinds.add("numpy-data")  # an argument that may be an array
        number = {"float": "float", "integer": "int"}.get(result)
        return TracedValue(name, frozenset(kinds), number, either=any(sequences))

    def _sequence(self, node: ast.expr) -> bool:
        """Whether `node` is a sequence of a length the source does not show: a shape, or a
        local bound to one (or to a literal sequence, or collecting a starred target)."""
        if isinstance(node, ast.Name):
            return node.id in self.sequences
        return _shape(node)

    def _bind(self, target: ast.expr, value: ast.expr) -> None:
        super()._bind(target, value)
        maker = self.context.facts.resolve(value.func) if isinstance(value, ast.Call) else None
        if isinstance(target, ast.Name) and maker in NUMPY_OBJECT_MAKERS:
            self.objects[target.id] = maker
        if isinstance(target, ast.Name) and (self._sequence(value) or isinstance(value, SEQUENCES)):
            self.sequences.add(target.id)
            if _shape(value):
                self.sizes.add(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            # `b, c, *rest = x.shape`: a starred target collects a list.
            for element in target.elts:
                if isinstance(element, ast.Starred) and isinstance(element.value, ast.Name):
                    self.sequences.add(element.value.id)
                    if _shape(value):
                        self.sizes.add(element.value.id)

    def _unbind(self, target: ast.expr) -> None:
        super()._unbind(target)
        if isinstance(target, ast.Name):
            self.objects.pop(target.id, None)
            self.sequences.discard(target.id)
            self.sizes.discard(target.id)
