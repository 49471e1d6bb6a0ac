"""Tensor-ness decides what rules flag: tensor data yes; shapes, dtypes, flags, None never."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths

HEADER = "import math\nimport numpy as np\nimport torch\nfrom torch import nn\n\n\n"


def flagged(tmp_path: Path, forward_body: str, *, signature: str = "self, x, mask=None") -> list:
    """Codes and lines flagged in `Model.forward` with the given body (line 1 = first line)."""
    body = textwrap.indent(textwrap.dedent(forward_body).strip("\n"), " " * 8)
    source = f"{HEADER}class Model(nn.Module):\n    def forward({signature}):\n{body}\n"
    path = tmp_path / "model.py"
    path.write_text(source, encoding="utf-8")
    first = HEADER.count("\n") + 3
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1).findings
    return [(f.code, f.line - first + 1) for f in findings]


QUIET = [
    "if x.shape[0] > 1:\n    x = x * 2",
    "if x.dim() == 3 and x.size(-1) % 2 == 0:\n    x = x[..., ::2]",
    "if mask is not None:\n    x = x.masked_fill(mask == 0, 0)",
    "if self.training:\n    x = x * 2",
    "if self.config.use_bias and x.ndim > 1:\n    x = x + 1",
    "if x.dtype == torch.float16 or x.device.type == 'cpu':\n    x = x.float()",
    "if isinstance(x, tuple) or len(x) == 0:\n    return x",
    "n = x.numel()\nwhile n > 1:\n    n = n // 2",
    "assert (x > 0).all()",
    "y = x.clone()\ny[y > 0] = 0\nreturn y",
    "heads = math.floor(math.log2(x.shape[-1]))\nif heads != 4:\n    return x",
    "return torch.where(x > 0, x, 0) + np.sum(np.ones(3))",
    "if not torch.compiler.is_compiling():\n    print(x.sum().item())",
    "b, n = x.shape\nreturn x if n > b else x * 2",
    "return torch.repeat_interleave(x, 2, dim=0)",
    # A bare parameter as a condition is a flag: a multi-element tensor there raises eagerly.
    "if not x:\n    return x",
    "n = x.shape[1] // 2\nreturn x[:, :n] + x[0, : x.size(0)]",
    "return x + hash((x.shape[0], 'bias')) % 5",
    "key = hash(x * 2)\nseen = {key: x}\nreturn seen[key] if key in seen else x",
    "return x + torch.randn(x.shape, generator=None)",
    "batch = torch.broadcast_shapes(x.shape[:-1], (1,))\nif x.shape[:-1] != batch:\n    x = x * 2",
    "if x == None:\n    return x\nif None != x:\n    x = x * 2",
]


@pytest.mark.parametrize("body", QUIET)
def test_trace_time_values_are_not_flagged(tmp_path: Path, body: str) -> None:
    assert flagged(tmp_path, body) == []


FLAGGED = [
    ("if x.sum() > 0:\n    x = x - 1", [("BL201", 1)]),
    ("if (x > 0).any():\n    x = x - 1", [("BL201", 1)]),
    (
        "score = x.mean()\nif score > 0:\n    x = x - 1\nelif score < -1:\n    x = x + 1",
        [("BL201", 2), ("BL201", 4)],
    ),
    ("return x if x.max() > 1 else -x", [("BL201", 1)]),
    ("if mask is not None and mask.any():\n    x = x * 2", [("BL201", 1)]),
    ("return float(x) + int(x.argmax()) + bool(x)", [("BL102", 1), ("BL102", 1), ("BL102", 1)]),
    ("return x[: int(x.argmax())]", [("BL102", 1)]),
    ("return x[x > 0]", [("BL302", 1)]),
    ("keep = torch.isfinite(x) & (x > 0)\nreturn x[keep]", [("BL302", 2)]),
    ("return torch.where(x > 0)", [("BL301", 1)]),
    ("return x.repeat_interleave(x.long())", [("BL303", 1)]),
    ("return np.interp(x, x, x)", [("BL601", 1)]),
    (
        "x.requires_grad_()\ntorch.manual_seed(0)\ntorch._dynamo.graph_break()",
        [("BL503", 1), ("BL502", 2), ("BL504", 3)],
    ),
    ("for row in x:\n    if row.sum() > 0:\n        break", [("BL201", 2), ("BL202", 2)]),
    ("yield x", [("BL801", 1)]),
    ("x = x.sum()\nif x:\n    x = x + 1", [("BL201", 2)]),
    ("n = (x > 0).sum()\nreturn x[:, :n]", [("BL304", 2)]),
    ("y = x * 2\nreturn y + hash(y) % 3", [("BL104", 2)]),
    ("with torch.device('cpu'):\n    return x * 2", [("BL507", 1)]),
    (
        "g = torch.Generator()\nreturn x + torch.rand(x.shape, generator=g)",
        [("BL508", 1), ("BL508", 2)],
    ),
]


@pytest.mark.parametrize(("body", "expected"), FLAGGED)
def test_tensor_data_is_flagged(tmp_path: Path, body: str, expected: list) -> None:
    assert sorted(flagged(tmp_path, body)) == sorted(expected)


def test_annotated_python_parameters_are_values(tmp_path: Path) -> None:
    body = "if use_cache and eps > 0:\n    return x\nif x > 0:\n    return -x"
    signature = "self, x, use_cache: bool = False, eps=1e-6"
    assert flagged(tmp_path, body, signature=signature) == [("BL201", 3)]


def test_break_under_a_flag_inside_a_loop_is_a_warning(tmp_path: Path) -> None:
    body = "for i in range(3):\n    if self.training:\n        print(i)"
    path_findings = flagged(tmp_path, body)
    assert path_findings == [("BL202", 3), ("BL401", 3)]
    findings = lint_paths([str(tmp_path / "model.py")], Settings(root=tmp_path), jobs=1).findings
    assert {f.code: f.severity.value for f in findings} == {"BL202": "warning", "BL401": "warning"}


def test_a_loop_skip_is_as_certain_as_the_break_it_follows(tmp_path: Path) -> None:
    # transformers' dac: `n_quantizers` is a tensor only in training, and the trace-time left
    # operand keeps the comparison from running then: the break, and so the skip, are unsure.
    body = (
        "n = 8\n"
        "if self.training:\n"
        "    n = torch.ones(3) * 8\n"
        "for i, layer in enumerate(self.layers):\n"
        "    if self.training is False and i >= n:\n"
        "        break\n"
        "    x = layer(x)"
    )
    assert flagged(tmp_path, body) == [("BL201", 5), ("BL202", 5)]
    findings = lint_paths([str(tmp_path / "model.py")], Settings(root=tmp_path), jobs=1).findings
    assert {f.code: f.severity.value for f in findings} == {"BL201": "warning", "BL202": "warning"}


def test_unconditional_breaks_are_errors(tmp_path: Path) -> None:
    flagged(tmp_path, "for i in range(3):\n    print(i)")
    findings = lint_paths([str(tmp_path / "model.py")], Settings(root=tmp_path), jobs=1).findings
    assert {f.code: f.severity.value for f in findings} == {"BL202": "error", "BL401": "error"}


def test_tensor_read_behind_a_trace_time_and_is_a_warning(tmp_path: Path) -> None:
    body = (
        "if x.dtype == torch.float16 and not torch.isfinite(x).all():\n"
        "    x = x.clamp(-1, 1)\n"
        "if x.sum() > 0 and x.dtype == torch.float16:\n"
        "    x = x * 2"
    )
    assert flagged(tmp_path, body) == [("BL201", 1), ("BL201", 3)]
    findings = lint_paths([str(tmp_path / "model.py")], Settings(root=tmp_path), jobs=1).findings
    assert [f.severity.value for f in findings] == ["warning", "error"]


def test_an_assert_names_what_reads_the_truth_of_a_tensor(tmp_path: Path) -> None:
    # `a == b and c == d` is an `and` of two comparisons, `a <= b <= c` a chained one.
    body = (
        "assert x[0] == x[1] and x[-1] == x[-2]\n"
        "assert x[0] <= x[1] <= x[2]\n"
        "assert not (x > 0).all()"
    )
    flagged(tmp_path, body)
    findings = lint_paths([str(tmp_path / "model.py")], Settings(root=tmp_path), jobs=1).findings
    assert [f.message.partition(" decides")[0] for f in findings] == [
        "`and`/`or` inside an `assert`",
        "a chained comparison inside an `assert`",
        "`not` inside an `assert`",
    ]


def test_a_break_that_rests_on_a_guess_is_a_warning(tmp_path: Path) -> None:
    # `generator` may be None at run time, and `x` is a tensor only because it is a parameter
    # of `forward`: warnings. A generator made here and the hash of a tensor made here: errors.
    body = (
        "a = x + torch.rand(x.shape, generator=generator)\n"
        "b = x + hash(x) % 3\n"
        "c = torch.rand(x.shape, generator=torch.Generator().manual_seed(0))\n"
        "y = x * 2\n"
        "return a + b + c + hash(y) % 3"
    )
    assert flagged(tmp_path, body, signature="self, x, generator=None") == [
        ("BL508", 1),
        ("BL104", 2),
        ("BL508", 3),
        ("BL508", 3),
        ("BL104", 5),
    ]
    findings = lint_paths([str(tmp_path / "model.py")], Settings(root=tmp_path), jobs=1).findings
    assert [f.severity.value for f in findings] == ["warning", "warning", "error", "error", "error"]


def test_a_guess_rebound_from_itself_stays_a_guess(tmp_path: Path) -> None:
    # `n` is a tensor only because it is a parameter of `forward`: it stays as sure after
    # `n //= 2` and `n = n - 1` (warnings); `k = x.sum() // 2` is one whatever `x` is (an error).
    body = (
        "n //= 2\n"
        "if n == 0:\n"
        "    x = x - 1\n"
        "n = n - 1\n"
        "if n > 0:\n"
        "    x = x + 1\n"
        "k = x.sum() // 2\n"
        "if k > 0:\n"
        "    x = x * 2\n"
        "return x"
    )
    assert flagged(tmp_path, body, signature="self, x, n") == [
        ("BL201", 2),
        ("BL201", 5),
        ("BL201", 8),
    ]
    findings = lint_paths([str(tmp_path / "model.py")], Settings(root=tmp_path), jobs=1).findings
    assert [f.severity.value for f in findings] == ["warning", "warning", "error"]


def test_after_a_frame_skip_the_rest_of_the_frame_runs_eagerly(breaklint, write) -> None:
    # The print in the loop skips `run`'s frame: Dynamo never traces the `.item()` after it,
    # so that is no break of its own (info), as Dynamo shows.
    pytest.importorskip("torch", reason="Dynamo decides what breaks: needs torch")
    write(
        "skip.py",
        """
        import torch


        def run(x):
            print("before")
            for i in range(3):
                print(i)
                x = x + 1
            n = x.sum().item()
            return x * n


        compiled = torch.compile(run)
        """,
    )
    write(
        "probe_skip.py",
        """
        import torch
        from skip import run


        def probe_run():
            return run, (torch.randn(4),)
        """,
    )
    done = breaklint(
        "--isolated", "--no-cache", "-q", "--output-format", "json", "--probes", "probe_skip.py",
        "skip.py",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    found = [
        (f["line"], f["code"], f["severity"], f["status"])
        for f in json.loads(done.stdout)["findings"]
    ]
    assert found == [
        (5, "BL401", "error", "confirmed"),
        (7, "BL202", "error", "confirmed"),
        (7, "BL401", "error", "confirmed"),
        (9, "BL101", "info", "not-reproduced"),
    ]


@pytest.mark.parametrize(
    ("module_level", "expected"),
    [
        # Bound once and never rebound: Dynamo reads the global's value, the branch is dead.
        ("_debug = False\n", []),
        ("_debug: bool = 0\n", []),
        # Rebound by a function's `global` statement, or bound twice: its value is not known.
        (
            "_debug = False\n\n\ndef enable():\n    global _debug\n    _debug = True\n",
            ["BL401"],
        ),
        ("_debug = False\n_debug = True\n", ["BL401"]),
    ],
)
def test_a_module_level_constant_flag_decides_its_branch(
    tmp_path: Path, module_level: str, expected: list
) -> None:
    source = (
        f"import torch\n{module_level}"
        "\n\n@torch.compile\ndef step(x):\n"
        "    if _debug:\n        print(x.shape)\n    return x * 2\n"
    )
    path = tmp_path / "model.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1).findings
    line = source.splitlines().index("        print(x.shape)") + 1
    assert [(f.code, f.line) for f in findings] == [(code, line) for code in expected]


TYPE_NARROWING = """
from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

import torch

if TYPE_CHECKING:
    from typing_extensions import TypeIs


def is_tensor(x: object) -> TypeIs[torch.Tensor]:
    return isinstance(x, torch.Tensor)


def is_tensor_guard(x: object) -> TypeGuard[torch.Tensor]:
    return isinstance(x, torch.Tensor)


def double(x):
    if is_tensor(x):
        x = x * 2
    if is_tensor_guard(x):
        x = x + 1
    return x


compiled = torch.compile(double)
"""


def test_a_type_narrowing_function_returns_a_bool_not_a_tensor(tmp_path: Path) -> None:
    """`-> TypeIs[Tensor]` / `-> TypeGuard[Tensor]` return a bool about a tensor: a branch on
    one is decided at trace time (Dynamo 2.13: one graph, no break)."""
    path = tmp_path / "narrow.py"
    path.write_text(TYPE_NARROWING, encoding="utf-8")
    assert lint_paths([str(path)], Settings(root=tmp_path), jobs=1).findings == []
    pytest.importorskip("torch", reason="Dynamo decides what breaks: needs torch")
    from conftest import compile_and_count

    assert compile_and_count(TYPE_NARROWING, "(double, (torch.ones(2),))") == (1, 0)


LAMBDA_GENERATOR = """
import torch


def double(x):
    values = lambda: (yield x)
    return x * 2


compiled = torch.compile(double)
"""


def test_a_yield_in_a_lambda_makes_the_lambda_a_generator_not_the_function(
    tmp_path: Path,
) -> None:
    """BL801 is about the compiled function's own `yield`; a lambda's is the lambda's (Dynamo
    2.13 makes the generator function and traces on: one graph, no break)."""
    path = tmp_path / "lam.py"
    path.write_text(LAMBDA_GENERATOR, encoding="utf-8")
    assert lint_paths([str(path)], Settings(root=tmp_path), jobs=1).findings == []
    pytest.importorskip("torch", reason="Dynamo decides what breaks: needs torch")
    from conftest import compile_and_count

    assert compile_and_count(LAMBDA_GENERATOR, "(double, (torch.ones(2),))") == (1, 0)


def test_a_tensor_compared_with_none_is_a_python_bool_under_dynamo() -> None:
    # Why `x == None` is never flagged: torch answers False without an op, and Dynamo traces on.
    torch = pytest.importorskip("torch")
    from torch._dynamo.testing import CompileCounter

    def forward(x):
        if x == None:  # noqa: E711
            return x + 1
        if None != x:  # noqa: E711, SIM300
            return x * 2
        return x

    counter = CompileCounter()
    torch._dynamo.reset()
    x = torch.randn(3)
    assert torch.equal(torch.compile(forward, backend=counter)(x), x * 2)
    assert counter.frame_count == 1  # one graph: no break
