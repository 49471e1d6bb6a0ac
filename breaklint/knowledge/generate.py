"""Ask the installed torch what Dynamo does with numpy and Python's `random`, and which
methods tensors have.

With `dynamic/torch_shim.py`, the only place that touches torch's private APIs. `answers.py`
runs this module in a subprocess (`python -m breaklint.knowledge.generate`) once per torch
version and caches the JSON it prints. `--write` writes it instead as the answers shipped for
this torch version (`data/torch-<major>.<minor>.json`, see `versions.py`).

Where torch has a table, the answer is read from it; where the only truth is what Dynamo does,
the table's candidates are compiled with a recording backend and the graphs counted. Nothing
runs on import: `answers.py` imports its constants, and the static phase never imports torch.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from breaklint.knowledge.versions import data_file

# Format of the answer; `answers.py` keys its cache on it.
VERSION = 5

# How each kind of traced value is written in a probe, and the uses whose probes decide which
# uses break. `V` stands for the value, `x` for the compiled function's tensor argument.
VALUES = {
    # A `random` draw Dynamo traces: a Python number that reaches the graph as a tensor input.
    "random": "random.randint(1, 2)",
    # A numpy result computed from tensor data (or drawn): an array Dynamo holds as a tensor.
    "numpy-data": "np.sum(x.numpy() > 100) + 1",
    # numpy results computed from Python numbers only, an integer and a float.
    "numpy-int": "np.lcm(1, 2)",
    "numpy-float": "np.sqrt(4.0)",
}
USES = {
    "tensor-operand": "return x * V",
    "test": "if V > 1:\n        return x + 1\n    return x - 1",
    "int": "return x * int(V)",
    "float": "return x * float(V)",
    "bool": "return x * bool(V)",
    "range": "for _ in range(V):\n        x = x + 1\n    return x * 2",
    "arithmetic": "return x * (V * 2)",
    "index": "return x[V] * 2",
    "slice": "return x[:V] * 2",
    "size": "return x.sum() + torch.zeros(V).sum()",
    # Text made of the value, then used (an unused f-string costs nothing).
    "str": "return x * len(str(V))",
    "repr": "return x * len(repr(V))",
    "format": "return x * len(f'{V}')",
}
INTEGER_USES = ("range", "index", "slice", "size")  # a float there fails without Dynamo too
# Overloads whose parameter at some position a Python number cannot bind (a dtype, a dimension
# name, a flag): they do not decide what a number passed there becomes.
_NOT_NUMBERS = ("ScalarType", "Layout", "MemoryFormat", "str", "bool", "Generator", "Device")
_INTEGERS = ("int", "List[int]")
FUNCTION, METHOD, VARARGS = 1, 2, 4  # flags of an integer-parameter entry


def _probe(statements: str) -> bool | None:
    """Whether a function running `statements` (ending in a `return` that computes on `x`)
    compiles to one graph without a break; None when it raised, so it says nothing.

    A tensor operation comes first and the last one comes after every statement, so that a
    break anywhere leaves two graphs (a skipped frame leaves none): a data-dependent jump is
    not counted as a graph break.
    """
    import random

    import numpy as np
    import torch
    from torch._dynamo.utils import counters

    namespace: dict[str, Any] = {"np": np, "numpy": np, "random": random, "torch": torch}
    source = f"def probe(x):\n    x = x * 2\n    {statements}\n"
    exec(compile(source, "<breaklint probe>", "exec"), namespace)
    graphs: list[Any] = []

    def record(graph_module: torch.fx.GraphModule, example_inputs: Any) -> Callable[..., Any]:
        graphs.append(graph_module)
        return graph_module.forward

    torch._dynamo.reset()
    counters.clear()
    try:
        probe: Callable[..., Any] = namespace["probe"]
        torch.compile(probe, backend=record)(torch.arange(6.0))
    except Exception:
        return None
    finally:
        torch._dynamo.reset()
    # A skipped frame records no graph, a data-dependent jump a second one, and a break
    # before the first operation is only counted.
    return len(graphs) == 1 and not counters["graph_break"]


def numpy_traced() -> list[str]:
    """numpy functions Dynamo maps to torch._numpy: the same name in both modules
    (torch/_dynamo/variables/misc.py, get_np_to_tnp_map)."""
    from torch._dynamo.utils import NP_TO_TNP_MODULE

    return sorted(
        f"{np_mod.__name__}.{name}"
        for np_mod, tnp_mod in NP_TO_TNP_MODULE.items()
        for name, value in vars(tnp_mod).items()
        if callable(value) and getattr(np_mod, name, None) is not None
    )


def _result_from_numbers(
    function: Callable[..., Any], samples: tuple[tuple[Any, ...], ...]
) -> str | None:
    """What `function` gives for the first sample of Python numbers it takes, run on fake
    tensors as Dynamo runs it: "float" or "integer" when the fake result still holds its
    value (Dynamo folds it), "unknown" when it does not, None when no sample suits."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    for arguments in samples:
        try:
            with FakeTensorMode():
                result = function(*arguments)
            tensor, kind = result.tensor, result.dtype.kind
        except Exception:
            continue
        if getattr(tensor, "constant", None) is None:
            return "unknown"
        return "float" if kind in "fc" else "integer"
    return None


def numpy_results(traced: list[str]) -> dict[str, str]:
    """What traced functions give from Python numbers, when Dynamo knows it at trace time:
    "float" (`np.sqrt(7)`), "integer" even from floats or taking integers only (`np.lcm`), or
    "follows" their arguments (`np.sum`, and `np.ceil`, which keeps integers in torch._numpy).
    Functions left out build arrays whose values Dynamo does not know (`np.zeros(3)`)."""
    from torch._dynamo.utils import NP_TO_TNP_MODULE

    by_name = {
        f"{np_mod.__name__}.{name}": getattr(tnp_mod, name)
        for np_mod, tnp_mod in NP_TO_TNP_MODULE.items()
        for name in dir(tnp_mod)
    }
    results: dict[str, str] = {}
    for name in traced:
        function = by_name.get(name)
        if function is None or name.startswith("numpy.random."):
            continue  # draws are data
        from_integers = _result_from_numbers(function, ((7,), (7, 3)))
        if from_integers == "float":
            results[name] = "float"
        elif from_integers == "integer":
            from_floats = _result_from_numbers(function, ((7.5,), (7.5, 3), (7, 3.5)))
            results[name] = "follows" if from_floats == "float" else "integer"
    return results


def _probe_numpy_call(name: str, arguments: str) -> bool | None:
    return _probe(f"numpy.random.{name}({arguments})\n    return x + 1")


def numpy_draws(traced: list[str]) -> dict[str, list[Any]]:
    """What each traced `numpy.random` function does under Dynamo: `[status, size]`, status
    "traced", "breaks" (inside torch._numpy, on a data-dependent operation) or
    "breaks-without-size" (it returns a Python number, read with `.item()`, unless given a
    size); `size` is the position of its size argument (its first for `rand(*size)`)."""
    import inspect

    from torch._numpy import random as tnp_random

    draws: dict[str, list[Any]] = {}
    for name in traced:
        if not name.startswith("numpy.random."):
            continue
        short = name.removeprefix("numpy.random.")
        parameters = list(inspect.signature(getattr(tnp_random, short)).parameters.values())
        names = [p.name for p in parameters]
        required = [
            p
            for p in parameters
            if p.default is inspect.Parameter.empty
            and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        arguments = ["6"] * len(required)  # `choice(6)`, `randint(6)`
        if any(p.kind is p.VAR_POSITIONAL for p in parameters):  # `rand(*size)`
            size, sized = 0, [*arguments, "2"]
        elif "size" in names:
            size, sized = names.index("size"), [*arguments, "size=(2,)"]
        else:
            size, sized = None, None
        bare = _probe_numpy_call(short, ", ".join(arguments))
        if bare is None:
            continue  # our sample arguments do not suit it: no knowledge
        if bare:
            status = "traced"
        elif sized is not None and _probe_numpy_call(short, ", ".join(sized)):
            status = "breaks-without-size"
        else:
            status = "breaks"
        draws[name] = [status, size]
    return draws


def random_traced() -> dict[str, str]:
    """`random` functions and classes Dynamo traces without a break, and what they give: a
    "number" (`random.uniform`) or an "object" (`random.Random`).

    Dynamo skips `random.py` (its trace rules list the file) except for the functions of its
    own table of supported random functions; module-level functions that are C methods of the
    hidden `random.Random()` (`random.random`) still break, so each candidate is compiled.
    """
    import random

    from torch._dynamo import trace_rules
    from torch._dynamo.variables.user_defined import UserDefinedObjectVariable

    table = getattr(UserDefinedObjectVariable, "_supported_random_functions", None)
    public = [name for name in random.__all__ if callable(getattr(random, name))]
    if table is None:
        candidates = public  # the table moved: compile everything
    else:
        supported = {function.__name__ for function in table()}

        def inlined(name: str) -> bool:
            try:
                return not trace_rules.check(getattr(random, name))
            except Exception:  # a C function has no file to check: Dynamo skips it
                return False

        candidates = [
            name
            for name in public
            if name in supported or isinstance(getattr(random, name), type) or inlined(name)
        ]
    traced = {}
    for name in candidates:
        for arguments in ((), (1, 2)):  # the first that Python accepts
            try:
                result = getattr(random, name)(*arguments)
            except Exception:
                continue
            if _probe(f"random.{name}{arguments!r}\n    return x + 1"):
                kind = "number" if isinstance(result, int | float) else "object"
                traced[f"random.{name}"] = kind
            break
    return traced


def uses() -> dict[str, dict[str, bool]]:
    """For each kind of traced value, which uses compile to one graph (False: they break)."""
    answer: dict[str, dict[str, bool]] = {}
    for kind, value in VALUES.items():
        answer[kind] = {}
        for use, body in USES.items():
            if kind == "numpy-float" and use in INTEGER_USES:
                continue
            traced = _probe(body.replace("V", f"({value})"))
            if traced is not None:
                answer[kind][use] = traced
    return answer


def _bare(type_name: str) -> str:
    """A schema type without its `Optional[...]`."""
    return type_name[len("Optional[") : -1] if type_name.startswith("Optional[") else type_name


def _number_binding(type_name: str) -> str | None:
    """What a Python number passed for a parameter of this schema type becomes: "integer",
    "other" (a Scalar, a float, a tensor) or None when no number can bind it."""
    bare = _bare(type_name)
    if bare.startswith(_NOT_NUMBERS) or bare.startswith(("List[str]", "List[bool]")):
        return None
    return "integer" if bare in _INTEGERS else "other"


def integer_parameters() -> dict[str, list[Any]]:
    """Parameters of torch functions and tensor methods that take only integers (sizes,
    dimensions, counts), from the ATen schemas: `{name: [flags, positions, keywords]}`.

    A position counts when every overload where a number can bind it types it `int`,
    `SymInt` or a list of them. Positions count `self` as 0; the flags say whether the name is
    a `torch.` function, a tensor method, and whether its sizes may be given one by one
    (`x.view(2, 3)`, `torch.zeros(2, 3)`).
    """
    import torch

    overloads: dict[str, list[Any]] = defaultdict(list)
    for schema in torch._C._jit_get_all_schemas():
        namespace, _, name = schema.name.partition("::")
        # TorchScript's own overloads (`aten::add.int`) return numbers, not tensors.
        if namespace == "aten" and any("Tensor" in str(r.type) for r in schema.returns):
            overloads[name].append(schema.arguments)
    answer: dict[str, list[Any]] = {}
    for name, variants in sorted(overloads.items()):
        if name.startswith("_"):
            continue  # private operators: not what model code calls
        flags = (FUNCTION if hasattr(torch, name) else 0) | (
            METHOD
            if hasattr(torch.Tensor, name) and all(v and v[0].name == "self" for v in variants)
            else 0
        )
        if not flags:
            continue
        positions: dict[int, set[str]] = defaultdict(set)
        keywords: dict[str, set[str]] = defaultdict(set)
        for arguments in variants:
            for index, argument in enumerate(arguments):
                binding = _number_binding(str(argument.real_type))
                if binding is not None:
                    keywords[argument.name].add(binding)
                    if not argument.kwarg_only:
                        positions[index].add(binding)
        integer_positions = sorted(p for p, kinds in positions.items() if kinds == {"integer"})
        integer_keywords = sorted(k for k, kinds in keywords.items() if kinds == {"integer"})
        if integer_positions or integer_keywords:
            flags |= VARARGS if _sizes_one_by_one(variants) else 0
            answer[name] = [flags, integer_positions, integer_keywords]
    return answer


def _sizes_one_by_one(variants: list[Any]) -> bool:
    """Whether Python's argument parser takes the sizes one by one (`x.view(2, 3)`): in every
    overload a number can call, the only positional parameter after `self` is a size list."""
    callable_by_numbers = []
    for arguments in variants:
        positional = [a for a in arguments if not a.kwarg_only and a.name != "self"]
        if positional and _number_binding(str(positional[0].real_type)) is not None:
            callable_by_numbers.append([str(a.real_type) for a in positional])
    return bool(callable_by_numbers) and all(
        types == ["List[int]"] for types in callable_by_numbers
    )


def tensor_methods() -> list[str]:
    """Public method names of `torch.Tensor` (not its properties): a call of a method that
    tensors do not have proves its receiver is not a tensor."""
    import torch

    return sorted(
        name
        for name in dir(torch.Tensor)
        if not name.startswith("_") and callable(getattr(torch.Tensor, name))
    )


def _number_kind(type_name: str) -> str:
    """What a schema type takes: "tensor", "number" (a Scalar or float: any Python number) or
    "other"."""
    return {"Tensor": "tensor", "number": "number", "float": "number"}.get(
        _bare(type_name), "other"
    )


def _sample_argument(argument: Any, tested: set[str]) -> str | None:
    """What a probe passes for a schema argument: the 0-dim tensor `x[1]` for a tested one, a
    2x3 tensor `y`, small numbers; None when it has no sample (the call is not probed)."""
    if argument.name in tested:
        return "x[1]"
    type_name = str(argument.real_type)
    bare = _bare(type_name)
    samples = {"Tensor": "y", "number": "0.5", "float": "0.5", "int": "1", "SymInt": "1",
               "bool": "False", "List[int]": "[1]", "List[SymInt]": "[1]"}  # fmt: skip
    return samples.get(bare, "None" if type_name.startswith("Optional[") else None)


def _breaks_on_tensor(call: str) -> bool | None:
    """Whether `call` (of `y`, a 2x3 tensor, and `x[1]`, a 0-dim one) breaks the graph; None
    when the same call with the number 0.5 for `x[1]` fails eagerly, or it raises."""
    import torch

    try:
        eval(
            call.replace("x[1]", "0.5"), {"torch": torch, "y": torch.arange(6.0).reshape(2, 3) * 2}
        )
    except Exception:
        return None
    compiled = _probe(f"y = x.reshape(2, 3)\n    return ({call}) * 2")
    return None if compiled is None else not compiled


def number_parameters() -> dict[str, dict[str, dict[str, int]]]:
    """Parameters of torch functions, tensor methods and `torch.nn.functional` functions
    where a tensor is read as a Python number, measured: every ATen overload types them a
    number (Scalar or float; sizes are `integer_parameters`), and a probe passing a 0-dim tensor
    there breaks (`F.leaky_relu(x, t)`, `x.add(y, alpha=t)`: "Data dependent operator"; not
    `torch.full(size, t)`, which Dynamo rewrites). `{"single": {name: {parameter: position}},
    "linked": {...}}`: a linked set is one where each overload takes all numbers or all
    tensors (`clamp(x, min, max)`), so a Python number given for one makes a tensor given for
    another a number (`torch.clamp(x, 0, t)`). Positions count `self` as 0 (a method's first
    argument is 1), -1 for keyword-only parameters. Names are `torch.add`, `Tensor.add`,
    `torch.nn.functional.leaky_relu`."""
    import torch

    overloads: dict[str, list[Any]] = defaultdict(list)
    for schema in torch._C._jit_get_all_schemas():
        namespace, _, name = schema.name.partition("::")
        returns_tensor = any("Tensor" in str(r.type) for r in schema.returns)
        if namespace == "aten" and returns_tensor and not name.startswith("_"):
            overloads[name].append([a for a in schema.arguments if a.name != "out"])
    tables: dict[str, dict[str, dict[str, int]]] = {"single": {}, "linked": {}}
    for name, variants in sorted(overloads.items()):
        kinds: dict[str, set[str]] = defaultdict(set)
        for arguments in variants:
            for argument in arguments:
                kinds[argument.name].add(_number_kind(str(argument.real_type)))
        # (the parameters probed with a tensor, the parameters the finding is about)
        tests = [([p], [p]) for p, found in kinds.items() if found == {"number"}]
        either = [p for p, found in kinds.items() if found == {"number", "tensor"}]
        if len(either) > 1 and all(
            len({_number_kind(str(a.real_type)) for a in arguments if a.name in either}) == 1
            for arguments in variants
        ):
            tests.append((either[1:2], either))  # a number for the first, a tensor after
        for tensors, reported in tests:
            arguments = next(
                (v for v in variants if all(
                    any(a.name == p and _number_kind(str(a.real_type)) == "number" for a in v)
                    for p in reported
                )),
                None,
            )  # fmt: skip
            if arguments is None:
                continue
            for public, call, positions in _public_calls(name, arguments, set(tensors)):
                if _breaks_on_tensor(call):
                    places = {p: positions.get(p, -1) for p in reported}
                    table = tables["linked" if len(reported) > 1 else "single"]
                    table.setdefault(public, {}).update(places)
    return tables


def _public_calls(
    name: str, arguments: list[Any], tensors: set[str]
) -> list[tuple[str, str, dict[str, int]]]:
    """The calls of an overload's public forms with a 0-dim tensor for `tensors`: the torch
    function, the tensor method and the `torch.nn.functional` function of that name, each with
    where its parameters are (by position, `self` at 0)."""
    import inspect

    import torch
    import torch.nn.functional as F

    positional = [a for a in arguments if not a.kwarg_only]
    samples = [_sample_argument(a, tensors) for a in positional]
    if None in samples or not positional or positional[0].name != "self":
        return []
    keywords = [f"{a.name}=x[1]" for a in arguments if a.kwarg_only and a.name in tensors]
    written = [str(sample) for sample in samples] + keywords
    places = {a.name: index for index, a in enumerate(positional)}
    calls = []
    if hasattr(torch, name):
        calls.append((f"torch.{name}", f"torch.{name}({', '.join(written)})", places))
    if callable(getattr(torch.Tensor, name, None)):
        calls.append((f"Tensor.{name}", f"y.{name}({', '.join(written[1:])})", places))
    functional = getattr(F, name, None)
    if callable(functional) and not hasattr(torch, name):
        try:
            accepted = list(inspect.signature(functional).parameters)
        except (TypeError, ValueError):
            accepted = []
        if tensors <= set(accepted):  # called as users do: the tested ones by keyword
            given = ", ".join(f"{p}=x[1]" for p in sorted(tensors))
            call = f"torch.nn.functional.{name}(y, {given})"
            at = {p: accepted.index(p) for p in accepted}
            calls.append((f"torch.nn.functional.{name}", call, at))
    return calls


def dynamic_output_shape() -> list[str]:
    """Public functions and tensor methods that run an operator tagged
    `dynamic_output_shape`: its output's size depends on the data, so fake tensors cannot
    give it and Dynamo breaks there ("Dynamic shape operator", GB0036), unless
    `capture_dynamic_output_shape_ops` is set. Read from torch's operator table."""
    import torch

    tagged = set()
    for qualified in torch._C._dispatch_get_all_op_names():
        namespace, _, name = qualified.partition("::")
        base, _, overload = name.partition(".")
        if namespace != "aten":
            continue
        try:
            operator = getattr(getattr(torch.ops.aten, base), overload or "default")
        except (AttributeError, RuntimeError):
            continue
        if torch.Tag.dynamic_output_shape in operator.tags:
            tagged.add(base)
    public = set()
    for base in tagged:
        bare = base.lstrip("_")  # `_ctc_loss` is what `F.ctc_loss` runs
        places = [
            (torch, "torch", base),
            (torch.nn.functional, "torch.nn.functional", bare),
            (torch.linalg, "torch.linalg", base.removeprefix("linalg_")),
            (torch.special, "torch.special", base.removeprefix("special_")),
        ]
        for owner, prefix, attribute in places:
            if not attribute.startswith("_") and callable(getattr(owner, attribute, None)):
                public.add(f"{prefix}.{attribute}")
        if not base.startswith("_") and callable(getattr(torch.Tensor, base, None)):
            public.add(f"Tensor.{base}")
    return sorted(public)


def _breaks(function: Callable[..., Any], *arguments: Any) -> bool | None:
    """Whether compiling `function` (one tensor operation before what it tests, one after)
    leaves more than one graph or a counted break; None when it raised."""
    import torch
    from torch._dynamo.utils import counters

    graphs: list[Any] = []

    def record(graph_module: torch.fx.GraphModule, example_inputs: Any) -> Callable[..., Any]:
        graphs.append(graph_module)
        return graph_module.forward

    def probe(*values: Any) -> Any:
        return function(*(value * 2 for value in values)) * 2

    torch._dynamo.reset()
    counters.clear()
    try:
        torch.compile(probe, backend=record)(*arguments)
    except Exception:
        return None
    finally:
        torch._dynamo.reset()
    return len(graphs) != 1 or bool(counters["graph_break"])


def distribution_validation() -> dict[str, Any]:
    """What validating a `torch.distributions` distribution costs in compiled code.

    Dynamo turns the default validation off when it first compiles
    (`Distribution.set_default_validate_args(False)`), so only `validate_args=True` validates.
    A constructor then checks each parameter of `arg_constraints` and calls
    `constraints.is_dependent`, a function Dynamo skips ("Attempted to call function marked as
    skipped", GB0007): `constructors` are the public classes whose `arg_constraints` (torch's
    table) is not empty, when `Normal(..., validate_args=True)` measures the break; a class
    whose `arg_constraints` is a property is left out. `set_default_validate_args`: whether
    calling it in compiled code breaks (it sets a class attribute: "setattr() on unsupported
    type")."""
    import inspect

    import torch
    from torch import distributions

    location, scale = torch.zeros(3), torch.ones(3)
    validated = _breaks(
        lambda m, s: distributions.Normal(m, s, validate_args=True).loc, location, scale
    )
    unvalidated = _breaks(lambda m, s: distributions.Normal(m, s).loc, location, scale)
    constructors: list[str] = []
    if validated and unvalidated is False:
        for name in dir(distributions):
            value = getattr(distributions, name)
            table = inspect.getattr_static(value, "arg_constraints", None)
            if (
                not name.startswith("_")
                and inspect.isclass(value)
                and issubclass(value, distributions.Distribution)
                and isinstance(table, dict)
                and table
            ):
                constructors.append(f"torch.distributions.{name}")
                module = value.__module__
                if module.startswith("torch.distributions."):
                    constructors.append(f"{module}.{value.__name__}")
    Distribution = distributions.Distribution

    def set_default(value: torch.Tensor) -> torch.Tensor:
        Distribution.set_default_validate_args(False)
        return value + 1

    return {
        "constructors": sorted(set(constructors)),
        "set_default_validate_args": bool(_breaks(set_default, location)),
    }


def answer() -> dict[str, Any]:
    import torch

    warnings.simplefilter("ignore")
    traced = numpy_traced()
    return {
        "version": VERSION,
        "torch": torch.__version__,
        "numpy_traced": traced,
        "numpy_results": numpy_results(traced),
        "numpy_draws": numpy_draws(traced),
        "random_traced": random_traced(),
        "uses": uses(),
        "integer_parameters": integer_parameters(),
        "tensor_methods": tensor_methods(),
        "dynamic_output_shape": dynamic_output_shape(),
        "number_parameters": number_parameters(),
        "distribution_validation": distribution_validation(),
    }


def _compact_json(value: Any, indent: int = 0, taken: int = 0) -> str:
    """JSON with what fits on a line kept on one, so that the shipped file stays readable
    (`taken`: the characters already on the line)."""
    flat = json.dumps(value, sort_keys=True)
    if indent + taken + len(flat) < 95 or not isinstance(value, dict | list):
        return flat
    inner = " " * (indent + 1)
    if isinstance(value, dict):
        items = []
        for key, item in sorted(value.items()):
            prefix = f"{json.dumps(key)}: "
            items.append(f"{inner}{prefix}{_compact_json(item, indent + 1, len(prefix))}")
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{inner}{_compact_json(item, indent + 1)}" for item in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def write_shipped(knowledge: dict[str, Any]) -> Path:
    """Write the answers as those shipped for this torch's major and minor version."""
    version = tuple(int(part) for part in knowledge["torch"].split(".")[:2])
    path = Path(__file__).parent / "data" / data_file((version[0], version[1]))
    path.write_text(_compact_json(knowledge) + "\n", encoding="utf-8")
    return path


def main() -> None:
    knowledge = answer()
    if sys.argv[1:] == ["--write"]:
        sys.stdout.write(f"wrote {write_shipped(knowledge)}\n")
    else:
        json.dump(knowledge, sys.stdout)


if __name__ == "__main__":
    main()
