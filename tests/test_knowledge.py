"""What breaklint knows about numpy and Python's `random` under Dynamo, checked against Dynamo.

Each form is linted (BL501 and BL601 must flag exactly its lines marked `# BREAK`) and compiled
with a recording backend (it must break exactly when a line is marked). The knowledge itself
is derived from the installed torch; the shipped fallback must be what the query answers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from conftest import compile_and_count

HEADER = "import copy\nimport random\nimport time\n\nimport numpy as np\nimport torch\n\n\n"
# Each form is the body of `f(x)`, compiled with `x = torch.arange(6.0)`. Bodies end in a
# tensor operation, so that a break anywhere leaves a second graph (or none, when Dynamo skips
# the frame): a data-dependent branch is not counted as a graph break.
RANDOM_FORMS = {
    "uniform-times-tensor": "return x * random.uniform(0, 1)",
    "randint-plus-tensor": "return x + random.randint(1, 3)",
    "randrange-times-tensor": "return x * random.randrange(1, 3)",
    "uniform-of-shape": "return x * random.uniform(0, x.shape[0])",
    "uniform-in-place": "y = x * 2\ny *= random.uniform(1, 2)\nreturn y",
    "uniform-as-fill-value": "return x + torch.full((6,), random.uniform(0, 1))",
    "uniform-of-seeded-generator": "return x * random.Random(0).uniform(0, 1)",
    "randint-as-size": "return x.sum() + torch.zeros(random.randint(1, 3)).sum()  # BREAK",
    "randint-as-view-size": "return x.view(random.randint(1, 1), -1) * 2  # BREAK",
    "randint-as-slice-bound": "return x[: random.randint(1, 3)] * 2  # BREAK",
    "uniform-in-branch": (
        "p = random.uniform(0, 1)\nif p < 0.5:  # BREAK\n    return x + 1\nreturn x - 1"
    ),
    "int-of-uniform": "return x * int(random.uniform(1, 3))  # BREAK",
    "uniform-python-arithmetic": "return x * (random.uniform(0, 1) * 2)  # BREAK",
    "randint-python-accumulator": "n = 1\nn += random.randint(1, 3)  # BREAK\nreturn x * n",
    "uniform-of-tensor": "return x * random.uniform(0, x.sum())  # BREAK",
    "random": "return x + random.random()  # BREAK",
    "choice": "return x + random.choice([1, 2])  # BREAK",
    "gauss": "return x + random.gauss(0, 1)  # BREAK",
    "shuffle": "items = [1, 2]\nrandom.shuffle(items)  # BREAK\nreturn x + items[0]",
    "time": "return x + time.time()  # BREAK",
    "deepcopy-of-tensor": "return copy.deepcopy(x) * 2  # BREAK",
    "str-of-randint": "n = random.randint(1, 2)\ntag = str(n)  # BREAK\nreturn x * len(tag)",
    "f-string-of-randint": "n = random.randint(1, 2)\nreturn x * len(f'{n}')  # BREAK",
}
NUMPY_FORMS = {
    "choice-without-replacement": (
        "keep = np.random.choice(6, 3, replace=False)  # BREAK\n"
        "return x[torch.from_numpy(keep)] * 2"
    ),
    "scalar-uniform-times-tensor": "return x * np.random.uniform(0, 1)  # BREAK",
    "scalar-uniform-in-branch": (
        "if np.random.uniform() < 0.5:  # BREAK\n    return x + 1\nreturn x - 1"
    ),
    "scalar-rand": "return x * np.random.rand()  # BREAK",
    "sized-rand": "return x * torch.from_numpy(np.random.rand(6))",
    "scalar-randint-as-size": (
        "return x.sum() + torch.zeros(np.random.randint(1, 3)).sum()  # BREAK"
    ),
    "sized-randint-element-as-size": (
        "n = np.random.randint(1, 3, size=1)[0]\nreturn x.sum() + torch.zeros(n).sum()  # BREAK"
    ),
    "int-of-lcm": "return x[: int(np.lcm(2, 3))] * 2  # BREAK",
    "lcm-as-size": "return x.sum() + torch.zeros(np.lcm(2, 3)).sum()",
    "lcm-as-view-size": "return x.view(np.lcm(2, 3), -1) * 2",
    "lcm-as-slice-bound": "return x[: np.lcm(1, 2)] * 2  # BREAK",
    "lcm-in-modulo-branch": (
        "chunk = np.lcm(2, 3)\n"
        "if x.shape[-1] % chunk != 0:  # BREAK\n"
        "    return x + 1\n"
        "return x - 1"
    ),
    "sum-of-array-times-tensor": "a = x.numpy()\nreturn x * np.sum(a)",
    "sum-of-array-in-branch": (
        "a = x.numpy()\nif np.sum(a) > 0:  # BREAK\n    return x + 1\nreturn x - 1"
    ),
    "float-of-sum-of-array": "a = x.numpy()\nreturn x * float(np.sum(a))  # BREAK",
    "sum-of-mask-as-size": (
        "a = x.numpy()\nreturn x.sum() + torch.zeros(np.sum(a > 2)).sum()  # BREAK"
    ),
    "sum-of-constant-array-times-tensor": "return x * np.sum(np.ones(3))",
    "int-of-sqrt-of-shape": "return x * int(np.sqrt(x.shape[0]))",
    "int-of-round-of-ratio": "return x * int(np.round(x.shape[0] / 4))",
    "int-of-ceil-of-integer": "return x * int(np.ceil(7))  # BREAK",
    "int-of-prod-of-list": "return x * int(np.prod([2, 3]))  # BREAK",
    "str-of-prod-of-shape": "return x * len(str(np.prod(x.shape)))  # BREAK",
    "repr-of-sqrt-of-shape": "return x * len(repr(np.sqrt(x.shape[0])))  # BREAK",
    "f-string-of-log2-of-shape": "n = np.log2(x.shape[0])\nreturn x * len(f'{n:.1f}')  # BREAK",
    "percent-of-lcm": "return x * len('%d' % np.lcm(2, 3))  # BREAK",
    "format-of-lcm": "return x * len('{}'.format(np.lcm(2, 3)))  # BREAK",
    "f-string-of-int-of-log2": "n = int(np.log2(x.shape[0]))\nreturn x * len(f'{n}')",
    "f-string-of-shape": "return x * len(f'{x.shape[0]}')",
    "interp": "return x * torch.from_numpy(np.interp(x.numpy(), [0.0, 5.0], [0.0, 1.0]))  # BREAK",
}
FORMS = {**RANDOM_FORMS, **NUMPY_FORMS}


def source_of(body: str) -> str:
    return (
        HEADER
        + "def f(x):\n"
        + textwrap.indent(body, "    ")
        + "\n\n\ncompiled = torch.compile(f)\n"
    )


def marked(source: str) -> set[int]:
    lines = source.splitlines()
    return {number for number, line in enumerate(lines, 1) if line.endswith("# BREAK")}


@pytest.mark.parametrize("form", FORMS)
def test_static_findings_are_the_marked_lines(form: str, tmp_path: Path) -> None:
    source = source_of(FORMS[form])
    path = tmp_path / "form.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1).findings
    flagged = {f.line for f in findings if f.code in ("BL501", "BL601")}
    assert flagged == marked(source)


@pytest.mark.parametrize("form", FORMS)
def test_dynamo_breaks_exactly_on_marked_forms(form: str) -> None:
    pytest.importorskip("numpy", reason="the forms call numpy")
    source = source_of(FORMS[form])
    graphs, breaks = compile_and_count(source, "(f, (torch.arange(6.0),))")
    assert (graphs != 1 or breaks > 0) == bool(marked(source))


def test_the_shipped_answer_is_what_the_query_answers() -> None:
    pytest.importorskip("torch", reason="the query asks the installed torch")
    from breaklint.knowledge import answers

    shipped = answers.shipped()
    if shipped["torch"] != answers._torch_version():
        pytest.skip(f"the shipped answer is for torch {shipped['torch']}")
    assert answers._query_torch() == shipped


def test_a_cached_answer_imports_neither_torch_nor_subprocess(tmp_path: Path) -> None:
    from breaklint.knowledge import answers

    version = answers._torch_version()
    if version is None:
        pytest.skip("the cache is kept per installed torch")
    cached = tmp_path / "breaklint" / answers._cache_file(version).name
    cached.parent.mkdir()
    answer = answers.shipped()
    answer["random_traced"] = {"random.marker": "number"}  # proves the cache was read
    cached.write_text(json.dumps(answer), encoding="utf-8")
    script = (
        "import json, sys\n"
        "from breaklint.knowledge.answers import knowledge\n"
        "traced = sorted(knowledge().random_traced)\n"
        "print(json.dumps([traced, 'torch' in sys.modules, 'subprocess' in sys.modules]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)},
        check=True,
    )
    assert json.loads(done.stdout) == [["random.marker"], False, False]


def test_without_torch_the_shipped_answer_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    from breaklint.knowledge import answers

    monkeypatch.setattr(answers, "_torch_version", lambda: None)
    answers._answer.cache_clear()
    answers.knowledge.cache_clear()
    try:
        assert answers.knowledge().uses == answers.shipped()["uses"]
    finally:
        answers._answer.cache_clear()
        answers.knowledge.cache_clear()
