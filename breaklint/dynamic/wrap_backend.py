"""Insert pass-through wrapper modules after named nodes of the FX graphs TorchDynamo
captures, so that forward hooks on a wrapper can read (or replace) a value that no module
boundary exposes. Needs only torch.

    backend, wrappers = make_backend(WRAPS)
    wrappers["graph1:value"].register_forward_hook(hook)
    compiled = torch.compile(model, backend=backend)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
import torch.fx

_PLAIN = (int, float, complex, str, bytes, bool, type(None))

# Graph number (1-based, in the order Dynamo compiles graphs) -> the nodes to wrap in it.
WRAPS: dict[int, tuple[str, ...]] = {}


class Wrapper(torch.nn.Module):
    """Returns its input unchanged: a module to hang hooks on."""

    def forward(self, value: Any) -> Any:
        return value


def wrap_nodes(gm: torch.fx.GraphModule, wrappers: dict[str, Wrapper]) -> None:
    """Insert `wrappers[name]` right after the node `name` of `gm`; every other user of the
    node then reads the wrapper's output, so a hook that returns a value replaces it."""
    nodes = {node.name: node for node in gm.graph.nodes}
    for name, wrapper in wrappers.items():
        node = nodes[name]
        attribute = f"{name}_wrapper"
        while hasattr(gm, attribute):  # never shadow a submodule or parameter of the graph
            attribute += "_"
        gm.add_submodule(attribute, wrapper)
        with gm.graph.inserting_after(node):
            wrapped = gm.graph.call_module(attribute, (node,))
        node.replace_all_uses_with(
            wrapped, delete_user_cb=lambda user, new=wrapped: user is not new
        )
    gm.recompile()


def make_backend(
    wraps: dict[int, tuple[str, ...]],
) -> tuple[Callable[..., Any], dict[str, Wrapper]]:
    """A `torch.compile` backend that wraps the nodes `wraps` names, and the wrappers keyed
    `graphN:name`, made before compiling so that hooks can be registered on them first."""
    wrappers = {f"graph{g}:{name}": Wrapper() for g, names in wraps.items() for name in names}
    compiled = 0

    def backend(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
        nonlocal compiled
        compiled += 1
        mine = {name: wrappers[f"graph{compiled}:{name}"] for name in wraps.get(compiled, ())}
        wrap_nodes(gm, mine)
        return gm.forward

    return backend, wrappers


def leaves(value: Any) -> list[Any]:
    """The values inside nested tuples, lists and dicts (model outputs among them), in order."""
    if isinstance(value, tuple | list):
        return [leaf for item in value for leaf in leaves(item)]
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in leaves(item)]
    return [value]


def describe(value: Any) -> str:
    """`Tensor(2, 8) float32`, or the types of a tuple's items."""
    if isinstance(value, torch.Tensor):
        return f"Tensor({', '.join(str(size) for size in value.shape)}) {str(value.dtype)[6:]}"
    if isinstance(value, tuple | list):
        return f"{type(value).__name__}[{', '.join(describe(item) for item in value)}]"
    return type(value).__name__


def difference(expected: Any, got: Any) -> str | None:
    """How `got` differs from `expected` (tensors compared with torch.equal), or None."""
    want, have = leaves(expected), leaves(got)
    if len(want) != len(have):
        return f"{len(have)} output values instead of {len(want)}"
    for index, (a, b) in enumerate(zip(want, have, strict=True)):
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            if a.shape != b.shape or a.dtype != b.dtype:
                return f"output value {index}: {describe(b)} instead of {describe(a)}"
            if not torch.equal(a, b):
                gap = (a.double() - b.double()).abs().max().item()
                return f"output value {index}: not torch.equal, max abs difference {gap:.3g}"
        elif type(a) is not type(b) or (isinstance(a, _PLAIN) and a != b):
            # Other objects (a cache, say) hold state, not results: their type must match.
            return f"output value {index}: {b!r} instead of {a!r}"
    return None
