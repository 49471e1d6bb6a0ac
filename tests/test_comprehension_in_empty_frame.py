"""BL523: a comprehension in a frame Dynamo compiles on its own and that traces no op.

Each function below is linted as a compile root, and compiled with Dynamo 2.13 (recording
backend): BL523 flags exactly the comprehensions Dynamo compiles alone and skips ("Missing
tp_iternext", GB4347), but for the forms it leaves alone on purpose (an unknown call may make
an op: `with_helper`). See tests/test_empty_frame_comprehensions.py for the mechanism.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.knowledge.curated import comprehension_frames

SOURCE = """
from collections import OrderedDict

import torch


def helper(order):
    return order


def pick(parts: list[torch.Tensor], order: list[int]):
    return [parts[i] for i in sorted(order)]


def by_enumerate(parts: list[torch.Tensor], names: list[str]):
    return [parts[i] for i, _ in enumerate(names)]


def as_dict(parts: list[torch.Tensor], order: list[int]):
    return {i: parts[i] for i in sorted(order)}


def as_set(parts: list[torch.Tensor], keys: dict[int, str]):
    return {id(parts[k]) for k in keys.keys()}


def reads_module(order: list[int]):
    return [torch.neg for _ in sorted(order)]


def with_metadata(parts: list[torch.Tensor], order: list[int]):
    names = dict(a=1)
    names.update(b=2)
    out = [parts[i] for i in sorted(order) if isinstance(parts[i], torch.Tensor)]
    return out, len(names)


def ordered(parts: list[torch.Tensor], order: list[int]):
    index = OrderedDict(zip(order, order))
    return [parts[i] for i in index]


def fill(seq: list[torch.Tensor], like: list[torch.Tensor]):
    return [torch.zeros_like(q) if p is None else p for p, q in zip(seq, like)]


def pick_and_add(parts: list[torch.Tensor], order: list[int]):
    y = parts[0] + 1
    return [parts[i] for i in sorted(order)], y


def reads_no_tensor(parts: list[torch.Tensor], order: list[int]):
    return [str(i) for i in sorted(order)]


def over_tuple(parts: list[torch.Tensor], order: list[int]):
    return [parts[i] for i in tuple(order)]


def with_helper(parts: list[torch.Tensor], order: list[int]):
    helper(order)
    return [parts[i] for i in sorted(order)]


def after_break(parts: list[torch.Tensor]):
    y = parts[0] * 2
    print("after_break")
    return [torch.neg for _ in parts], y


def after_break_op(parts: list[torch.Tensor]):
    y = parts[0] * 2
    print("after_break_op")
    return [torch.neg for _ in parts], y + 1


def break_after(parts: list[torch.Tensor], order: list[int]):
    picked = [parts[i] for i in sorted(order)]
    print("break_after")
    return picked


COMPILED = (
    torch.compile(pick),
    torch.compile(by_enumerate),
    torch.compile(as_dict),
    torch.compile(as_set),
    torch.compile(reads_module),
    torch.compile(with_metadata),
    torch.compile(ordered),
    torch.compile(fill),
    torch.compile(pick_and_add),
    torch.compile(reads_no_tensor),
    torch.compile(over_tuple),
    torch.compile(with_helper),
    torch.compile(after_break),
    torch.compile(after_break_op),
    torch.compile(break_after),
)
"""

# What BL523 reports, by function: the severity, at its comprehension.
FLAGGED = {
    "pick": "error",
    "by_enumerate": "error",
    "as_dict": "error",
    "as_set": "error",
    "reads_module": "error",  # it reads `torch`, a torch module
    "with_metadata": "error",  # `dict(...)`, `.update`, `isinstance`, `len`: no op
    "ordered": "warning",  # making an `OrderedDict` is no op; `index` is a dict by a guess
    "fill": "warning",  # `torch.zeros_like` runs only where an item is None
    "after_break": "warning",  # `parts` is a list only by its annotation
}


def _comprehension_line(function: str) -> int:
    """The line of the comprehension in `function` (its first line with a `for`)."""
    lines = SOURCE.splitlines()
    start = next(n for n, text in enumerate(lines, 1) if text.startswith(f"def {function}("))
    return next(n for n, text in enumerate(lines[start:], start + 1) if " for " in text)


@pytest.mark.skipif(not comprehension_frames(), reason="Python 3.12 inlines comprehensions")
def test_flags_the_comprehensions_of_frames_that_trace_no_op(tmp_path: Path) -> None:
    path = tmp_path / "frames.py"
    path.write_text(SOURCE, encoding="utf-8")
    result = lint_paths([str(path)], Settings(root=tmp_path), jobs=1)
    found = {(f.range.line, f.severity.value) for f in result.findings if f.code == "BL523"}
    assert found == {(_comprehension_line(name), severity) for name, severity in FLAGGED.items()}


def test_no_comprehension_frames_from_python_3_12() -> None:
    assert comprehension_frames((3, 11))
    assert not comprehension_frames((3, 12))
    assert not comprehension_frames((3, 13))


def _skipped_comprehensions(name: str, *args: object) -> list[int]:
    """The lines of the comprehensions whose frames Dynamo skips when `name` is compiled."""
    torch = pytest.importorskip("torch")
    from breaklint.dynamic import torch_shim

    namespace: dict = {}
    source = SOURCE.split("COMPILED = (")[0]
    exec(compile(source, "<frames>", "exec", dont_inherit=True), namespace)
    captured = torch_shim.capture(lambda compiled: compiled(*args), namespace[name])
    assert all(b.frames[-1].function.startswith("<") for b in captured.breaks if b.skipped)
    assert all("tp_iternext" in b.reason for b in captured.breaks if b.skipped)
    del torch
    return [b.frames[-1].line for b in captured.breaks if b.skipped]


@pytest.mark.skipif(sys.version_info[:2] >= (3, 12), reason="Python 3.12 inlines comprehensions")
@pytest.mark.parametrize(
    "name",
    [
        "pick",
        "by_enumerate",
        "as_dict",
        "as_set",
        "reads_module",
        "with_metadata",
        "ordered",
        "fill",
        "pick_and_add",
        "reads_no_tensor",
        "over_tuple",
        "with_helper",
        "after_break",
        "after_break_op",
        "break_after",
    ],
)
def test_dynamo_skips_exactly_the_flagged_comprehensions(name: str) -> None:
    torch = pytest.importorskip("torch")
    parts = [torch.randn(3), torch.randn(3)]
    args: dict[str, tuple[object, ...]] = {
        "by_enumerate": (parts, ["a", "b"]),
        "as_set": (parts, {0: "a", 1: "b"}),
        "reads_module": ([1, 0],),
        "fill": (parts, parts),  # no item is None: `torch.zeros_like` does not run
        "after_break": (parts,),
        "after_break_op": (parts,),
    }
    skipped = _skipped_comprehensions(name, *args.get(name, (parts, [1, 0])))
    if name == "with_helper":
        # `helper` makes no op either: the frame is skipped, but an unknown call may make one,
        # and BL523 leaves it alone.
        assert skipped == [_comprehension_line("with_helper")]
        return
    expected = [_comprehension_line(name)] if name in FLAGGED else []
    assert skipped == expected


CALLED = """
import torch


def partition(terms: list[torch.Tensor], order: list[int]):
    return [terms[i] for i in sorted(order)]


def shifted(parts: list[torch.Tensor], order: list[int]):
    return [parts[i] + 1 for i in sorted(order)]


def run(x: torch.Tensor, order: list[int]):
    parts = [x, x + 1]
    picked = partition(parts, order)
    moved = shifted(parts, order)
    for _ in range(2):
        x = x + int(x.sum())
    return picked[0] * x + moved[0]


compiled = torch.compile(run)
"""


@pytest.mark.skipif(not comprehension_frames(), reason="Python 3.12 inlines comprehensions")
def test_a_function_a_skipped_frame_calls_is_a_frame_of_its_own(tmp_path: Path) -> None:
    # The break in `run`'s loop skips its frame (BL202): `partition` and `shifted` run
    # eagerly, each a frame Dynamo compiles alone; `partition` traces no op.
    path = tmp_path / "called.py"
    path.write_text(CALLED, encoding="utf-8")
    result = lint_paths([str(path)], Settings(root=tmp_path), jobs=1)
    flagged = [f for f in result.findings if f.code == "BL523"]
    assert [(f.range.line, f.severity.value) for f in flagged] == [(6, "error")]
    loop_break = CALLED.splitlines().index("        x = x + int(x.sum())") + 1
    assert f"(`run` is skipped at {path}:{loop_break})" in flagged[0].message


@pytest.mark.skipif(sys.version_info[:2] >= (3, 12), reason="Python 3.12 inlines comprehensions")
def test_dynamo_compiles_the_called_function_alone_and_skips_its_comprehension() -> None:
    torch = pytest.importorskip("torch")
    from breaklint.dynamic import torch_shim

    namespace: dict = {}
    exec(compile(CALLED, "<called>", "exec", dont_inherit=True), namespace)
    captured = torch_shim.capture(
        lambda compiled: compiled(torch.randn(3), [1, 0]), namespace["run"]
    )
    skipped = [(b.frames[-1].line, b.frames[-1].function) for b in captured.breaks if b.skipped]
    # `run` at its loop; `partition`'s comprehension; not `shifted`'s, whose frame has an op.
    assert (6, "<listcomp>") in skipped
    assert all(line != 10 for line, _ in skipped)
    assert [b for b in captured.breaks if b.skipped and "tp_iternext" in b.reason]


RESUMED = """
import torch


def fill(seq, like):
    return [torch.zeros_like(q) if p is None else p for p, q in zip(seq, like)]


def relay(seq, like):
    return fill(seq, like)


def relay_op(seq, like):
    out = fill(seq, like)
    return out, like[0] + 1


def grads(x: torch.Tensor):
    y = x * 2
    print("grads")
    return fill([y], [x])


def grads_two(x: torch.Tensor):
    y = x * 2
    print("grads_two")
    return relay([y], [x])


def grads_op(x: torch.Tensor):
    y = x * 2
    print("grads_op")
    return relay_op([y], [x])
"""
FILL_LINE = RESUMED.splitlines().index("def fill(seq, like):") + 2


def _lint_resumed(tmp_path: Path, *roots: str) -> set[tuple[int, str]]:
    path = tmp_path / "resumed.py"
    compiled = ", ".join(f"torch.compile({root})" for root in roots)
    path.write_text(f"{RESUMED}\n\nCOMPILED = ({compiled},)\n", encoding="utf-8")
    result = lint_paths([str(path)], Settings(root=tmp_path), jobs=1)
    return {(f.range.line, f.severity.value) for f in result.findings if f.code == "BL523"}


@pytest.mark.skipif(not comprehension_frames(), reason="Python 3.12 inlines comprehensions")
@pytest.mark.parametrize("root", ["grads", "grads_two"])
def test_the_callees_of_a_resumed_frame_with_no_op_are_frames_of_their_own(
    tmp_path: Path, root: str
) -> None:
    # The rest of `grads` after its `print` calls `fill` only: no op, so Dynamo skips it and
    # runs it eagerly; `fill` is a frame of its own with no op (its `zeros_like` runs only for
    # a None item), and its comprehension is compiled alone and skipped. Through `relay`
    # (no op either) the same, one level further.
    assert _lint_resumed(tmp_path, root) == {(FILL_LINE, "warning")}


@pytest.mark.skipif(not comprehension_frames(), reason="Python 3.12 inlines comprehensions")
def test_a_callee_with_an_op_gives_the_resumed_frame_a_graph(tmp_path: Path) -> None:
    # `relay_op` adds: the rest of `grads_op` has a graph, `relay_op` and `fill` are inlined.
    assert _lint_resumed(tmp_path, "grads_op") == set()


@pytest.mark.skipif(sys.version_info[:2] >= (3, 12), reason="Python 3.12 inlines comprehensions")
@pytest.mark.parametrize(
    ("root", "skips"), [("grads", True), ("grads_two", True), ("grads_op", False)]
)
def test_dynamo_skips_the_comprehension_of_a_resumed_frames_callee(root: str, skips: bool) -> None:
    torch = pytest.importorskip("torch")
    from breaklint.dynamic import torch_shim

    namespace: dict = {}
    exec(compile(RESUMED, "<resumed>", "exec", dont_inherit=True), namespace)
    captured = torch_shim.capture(lambda compiled: compiled(torch.randn(3)), namespace[root])
    # The break at the `print` (not skipped: Dynamo resumes after it) ...
    assert [b for b in captured.breaks if not b.skipped]
    skipped = [b for b in captured.breaks if b.skipped]
    # ... and, where the rest traces no op, the comprehension of `fill`, compiled alone.
    assert [(b.frames[-1].line, b.frames[-1].function) for b in skipped] == (
        [(FILL_LINE, "<listcomp>")] if skips else []
    )
    assert all("Missing tp_iternext" in b.reason for b in skipped)


MODULE_CALL = """
import torch


class Fill(torch.nn.Module):
    def forward(self, seq, like):
        return [torch.zeros_like(q) if p is None else p for p, q in zip(seq, like)]


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fill = Fill()

    def forward(self, x):
        y = x * 2
        print("net")
        return self.fill([y], [x])
"""


@pytest.mark.skipif(sys.version_info[:2] >= (3, 12), reason="Python 3.12 inlines comprehensions")
def test_dynamo_runs_a_module_call_of_a_resumed_frame_with_no_op_eagerly() -> None:
    # A call of a submodule is no op of itself: the rest of `Net.forward` after the `print`
    # calls `self.fill` only, is skipped, and `Fill.forward` is a frame of its own.
    torch = pytest.importorskip("torch")
    from breaklint.dynamic import torch_shim

    namespace: dict = {}
    exec(compile(MODULE_CALL, "<module_call>", "exec", dont_inherit=True), namespace)
    captured = torch_shim.capture(lambda compiled: compiled(torch.randn(3)), namespace["Net"]())
    line = MODULE_CALL.splitlines().index("    def forward(self, seq, like):") + 2
    skipped = [b for b in captured.breaks if b.skipped]
    assert [(b.frames[-1].line, b.frames[-1].function) for b in skipped] == [(line, "<listcomp>")]
    assert all("Missing tp_iternext" in b.reason for b in skipped)
