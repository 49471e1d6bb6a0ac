"""Calls into installed libraries (issue 20), on tests/projects/library_calls: `app/model.py`
calls `gplib`, a library of several files installed in `installed/` (put on the subprocess's
`PYTHONPATH`, as site-packages is on a user's `sys.path`): a kernel class held on
`self.covar` whose inherited `__call__` breaks (BL102 in `gplib/kernels/base.py`), a function
imported under an alias whose `if` reads a tensor (BL201 in `gplib/utils/linalg.py`), and a
function that does not break (`jitter`). The breaks are reported at the linted calls, never in
the library, and Dynamo breaks at exactly those calls."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import REPO, run_breaklint

PROJECT = REPO / "tests" / "projects" / "library_calls"

EXPECTED = [
    (
        "app/model.py",
        14,
        "BL516",
        "warning",
        "`gplib.kernels.base.Kernel.__call__` breaks the graph at gplib/kernels/base.py:7 "
        "(BL102): `float(...)` of a tensor reads its value into a Python float; Dynamo traces "
        "without values, so it breaks the graph here",
    ),
    (
        "app/model.py",
        15,
        "BL516",
        "info",
        "`gplib.utils.linalg.jitter` breaks the graph at gplib/utils/linalg.py:9 (BL403): "
        "`warnings.warn()` is a side effect (it inspects the stack and the warning registry); "
        "Dynamo breaks the graph here to run it eagerly (only where the values passed take the "
        "library's branch)",
    ),
    (
        "app/model.py",
        16,
        "BL516",
        "warning",
        "`gplib.utils.linalg.safe_cholesky` breaks the graph at gplib/utils/linalg.py:15 "
        "(BL201): `if` decides on a tensor's value; Dynamo cannot know which way it goes while "
        "tracing, so it breaks the graph here",
    ),
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(PROJECT, tmp_path, dirs_exist_ok=True)
    return tmp_path


def lint(
    project: Path,
    *args: str,
    installed: bool = True,
    follow: bool = True,
    env: dict[str, str] | None = None,
) -> list[tuple[object, ...]]:
    paths = [os.environ.get("PYTHONPATH", ""), str(project / "installed") if installed else ""]
    done = run_breaklint(
        "app/model.py",
        *("--output-format", "json", *(["--dependencies"] if follow else []), *args),
        cwd=project,
        env={"PYTHONPATH": os.pathsep.join(p for p in paths if p), **(env or {})},
    )
    assert done.returncode in (0, 1), done.stderr
    return [
        (f["path"], f["line"], f["code"], f["severity"], f["message"])
        for f in json.loads(done.stdout)["findings"]
    ]


def test_breaks_inside_the_library_are_reported_at_the_linted_calls(project: Path) -> None:
    assert lint(project, "--no-cache") == EXPECTED


def test_nothing_is_followed_with_the_knob_off_or_without_the_library(project: Path) -> None:
    assert lint(project, "--no-cache", "--no-dependencies") == []
    # pre-commit's isolated environment: the library is not installed, nothing is followed,
    # by default as when asked for.
    assert lint(project, "--no-cache", installed=False) == []
    assert lint(project, "--no-cache", installed=False, follow=False) == []


def test_on_by_default_and_set_by_the_configuration(project: Path) -> None:
    assert lint(project, "--no-cache", follow=False) == EXPECTED
    pyproject = project / "pyproject.toml"
    pyproject.write_text("[tool.breaklint]\ndependencies = false\n", encoding="utf-8")
    assert lint(project, "--no-cache", follow=False) == []
    assert lint(project, "--no-cache") == EXPECTED  # the command line wins
    pyproject.write_text('[tool.breaklint]\ndependencies-exclude = ["gplib"]\n', encoding="utf-8")
    assert lint(project, "--no-cache", follow=False) == []
    pyproject.write_text('[tool.breaklint]\ndependencies = "no"\n', encoding="utf-8")
    done = run_breaklint("app/model.py", cwd=project)
    assert done.returncode == 2
    assert "'dependencies' must be true or false" in done.stderr


def test_a_changed_library_file_is_linted_again(project: Path) -> None:
    assert lint(project) == EXPECTED
    linalg = project / "installed" / "gplib" / "utils" / "linalg.py"
    linalg.write_text(
        linalg.read_text(encoding="utf-8").replace("    if info.any():\n", "    if True:\n"),
        encoding="utf-8",
    )
    # `safe_cholesky` breaks now only through `jitter`, under its `if` on a name's value.
    guarded = EXPECTED[1][4].replace("linalg.jitter", "linalg.safe_cholesky")
    assert lint(project) == [*EXPECTED[:2], (*EXPECTED[2][:3], "info", guarded)]


def test_the_library_indexes_kept_in_the_cache_give_the_same_findings(project: Path) -> None:
    assert lint(project) == EXPECTED
    model = project / "app" / "model.py"
    model.write_text(model.read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")
    assert lint(project) == EXPECTED  # the library's indexes come from the cache


def probed(project: Path) -> list[tuple[object, ...]]:
    """Each finding's line, code and what Dynamo did there, running `app/probes.py`."""
    pytest.importorskip("torch", reason="the probes run Dynamo")
    paths = [os.environ.get("PYTHONPATH", ""), str(project / "installed")]
    done = run_breaklint(
        "app/model.py",
        *("--probes", "app/probes.py", "--output-format", "json", "--no-cache"),
        "--dependencies",
        cwd=project,
        env={"PYTHONPATH": os.pathsep.join(p for p in paths if p)},
    )
    assert done.returncode == 1, done.stderr
    return [(f["line"], f["code"], f["status"]) for f in json.loads(done.stdout)["findings"]]


def test_dynamo_breaks_at_the_linted_calls(project: Path) -> None:
    assert probed(project) == [
        (14, "BL516", "confirmed"),
        (15, "BL516", "not-reproduced"),  # `jitter` is passed no keyword: no break
        (16, "BL516", "confirmed"),
    ]


def test_a_star_import_of_a_compiled_extension_ends(tmp_path: Path) -> None:
    """`from ._native import *` of a module without source (a compiled extension): a name the
    package does not define is not looked up in it, one part longer each time, without end."""
    package = tmp_path / "installed" / "extlib"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from ._native import *\nfrom .ops import *\n", encoding="utf-8"
    )
    (package / "_native.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (package / "ops.py").write_text("def double(x):\n    return x * 2\n", encoding="utf-8")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "model.py").write_text(
        "import torch\n\nimport extlib\n\n\n"
        "class Model(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        return extlib.native_op(extlib.double(x))\n",
        encoding="utf-8",
    )
    assert lint(tmp_path, "--no-cache") == []


def test_a_library_objects_method_named_like_a_tensors_is_no_break(tmp_path: Path) -> None:
    """`backend.reshape(tensor, shape)` in a library, on the object a function annotated
    `-> "Backend"` returns, on a module-level instance and on a parameter annotated with the
    class (tests/projects/receiver_kinds/ops): the library's own method, not `Tensor.reshape`
    given a tensor as a size, so the calls reaching it break nothing."""
    shutil.copytree(
        REPO / "tests" / "projects" / "receiver_kinds" / "ops", tmp_path / "installed" / "packlib"
    )
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "model.py").write_text(
        "import torch\n\nfrom packlib.backends import Backend\n"
        "from packlib.packing import flat, halves, pack\n\n\n"
        "class Model(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        (packed,) = pack([x])\n"
        "        first, second = halves(x, Backend())\n"
        "        return flat(packed) + first.sum()\n",
        encoding="utf-8",
    )
    assert lint(tmp_path, "--no-cache") == []


def test_the_findings_do_not_depend_on_the_hash_seed(project: Path) -> None:
    """Sets iterate in an order PYTHONHASHSEED picks: the modules followed, the functions
    rechecked and the break a call is named by come out the same under any seed."""
    runs = [lint(project, "--no-cache", env={"PYTHONHASHSEED": seed}) for seed in ("1", "2", "3")]
    assert runs == [EXPECTED] * 3


RESAMPLE_LIBRARY = """
import torch


class Resample(torch.nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor

    def forward(self, x):
        length = torch.as_tensor(x.shape[-1] / self.factor).long()
        return x[..., :length]


def resample(x, factor):
    return Resample(factor).to(x)(x)
"""

RESAMPLE_MODEL = """import torch

from resamplib import resample


class Model(torch.nn.Module):
    def forward(self, x):
        return resample(x * 2, 2) + 1
"""


def _resample_project(root: Path) -> Path:
    return _library_project(root, "resamplib", RESAMPLE_LIBRARY, RESAMPLE_MODEL)


def _library_project(root: Path, name: str, library: str, model: str) -> Path:
    """A library package `name` installed under `root`, a linted `app/model.py` calling it,
    and a probe of its `Model` on a (2, 8) tensor."""
    package = root / "installed" / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(library, encoding="utf-8")
    (root / "app").mkdir()
    (root / "app" / "model.py").write_text(model, encoding="utf-8")
    (root / "app" / "probes.py").write_text(
        "import torch\nfrom model import Model\n\n\n"
        "def probe_model():\n    return Model(), (torch.randn(2, 8),)\n",
        encoding="utf-8",
    )
    return root


def test_a_module_made_then_called_in_the_library_is_followed(tmp_path: Path) -> None:
    """`Resample(factor).to(x)(x)` in a library (julius' `resample_frac`): the module made,
    passed through `.to()` (which returns it), is called, so its `forward` runs, and the
    slice bound it reads from a tensor breaks there (BL304)."""
    project = _resample_project(tmp_path)
    assert lint(project, "--no-cache") == [
        (
            "app/model.py",
            8,
            "BL516",
            "warning",
            "`resamplib.resample` breaks the graph at resamplib/__init__.py:12 (BL304): "
            "`length` is a tensor where slicing needs a Python number (a size, a count, a "
            "bound); Dynamo must read its value, a data-dependent operator, and breaks the "
            "graph here",
        )
    ]


def test_dynamo_breaks_in_the_forward_of_a_module_made_then_called(tmp_path: Path) -> None:
    assert probed(_resample_project(tmp_path)) == [(8, "BL516", "confirmed")]


SHARING_LIBRARY = """
import contextlib
import threading
from collections import defaultdict

_STACK = defaultdict(list)


@contextlib.contextmanager
def shared(cache=None):
    if cache is None:
        cache = {}
    _STACK[threading.get_ident()].append(cache)
    try:
        yield cache
    finally:
        _STACK[threading.get_ident()].pop()
"""

SHARING_MODEL = """import torch

from sharelib import shared


class Model(torch.nn.Module):
    def forward(self, x):
        with shared() as cache:
            return x * 2 + len(cache)
"""


def test_dynamo_breaks_at_a_library_context_manager_entered(tmp_path: Path) -> None:
    """`with shared():` of a library's generator context manager that reads
    `threading.get_ident()` (opt_einsum's `shared_intermediates`, entered by pyro): Dynamo
    cannot trace the builtin ("Attempted to call function marked as skipped") while it enters
    the context manager, and breaks at the `with`."""
    project = _library_project(tmp_path, "sharelib", SHARING_LIBRARY, SHARING_MODEL)
    assert [finding[1:4] for finding in lint(project, "--no-cache")] == [(8, "BL516", "warning")]
    assert probed(project) == [(8, "BL516", "confirmed")]


TRACING_LIBRARY = """
import torch


def _is_tracing():
    return torch._C._get_tracing_state()


def exporting():
    return torch.jit.is_scripting() or _is_tracing()
"""

TRACING_MODEL = """import torch

import tracelib


class Model(torch.nn.Module):
    def forward(self, x):
        if tracelib.exporting():
            x = x.nonzero()
        return x * 2
"""


def test_a_library_helper_false_while_compiling_rules_its_branch_out(tmp_path: Path) -> None:
    """`if tracelib.exporting():` of a library helper whose every return is false while Dynamo
    traces (`torch.jit.is_scripting() or _is_tracing()`, torchvision's `_is_tracing`): followed,
    the branch is dead (tests/projects/tracing_helpers has Dynamo agree); not followed, the
    helper may answer anything."""
    project = _library_project(tmp_path, "tracelib", TRACING_LIBRARY, TRACING_MODEL)
    assert lint(project, "--no-cache") == []
    not_followed = lint(project, "--no-cache", "--no-dependencies")
    assert [finding[1:4] for finding in not_followed] == [(9, "BL301", "warning")]


ENTERED_MODEL = """import torch

from sharelib import shared


class Model(torch.nn.Module):
    def forward(self, x):
        y = x * 2
        with shared() as cache:
            y = y + len(cache)
            for _ in range(2):
                if y.sum() > 0:
                    y = y * 3
        return y.sum().item() + 1
"""

SKIPPED = "(no break of its own: the frame is skipped at line {} and runs eagerly)"
SHARED_BREAK = (
    "`sharelib.shared` breaks the graph at sharelib/__init__.py:{} (BL501): "
    "`threading.get_ident()` is a Python runtime call Dynamo does not trace (clock, Python RNG, "
    "serialization, copies, threads or locks); it breaks the graph here to run it eagerly"
)
TENSOR_IF = (
    "`if` decides on a tensor's value; Dynamo cannot know which way it goes while tracing, so "
    "it breaks the graph here"
)
LOOP_SKIP = (
    "graph break inside a loop (BL201): Dynamo cannot resume in the middle of a loop, so it "
    "skips the whole frame and `Model.forward` runs eagerly, with no graph at all"
)
ITEM = "`.item()` turns a tensor into a Python number: Dynamo breaks the graph here"
# What Dynamo does: it skips the frame at the `with`, and breaks nowhere after it.
ENTERED_PROBED = [
    (9, "BL516", "confirmed"),
    (12, "BL201", "not-reproduced"),
    (12, "BL202", "not-reproduced"),
    (14, "BL101", "not-reproduced"),
]


# `shared` breaking in helpers it calls on its straight-line path (opt_einsum's
# `shared_intermediates` calling `_add_sharing_cache`), as certain as its own break.
HELPED_LIBRARY = SHARING_LIBRARY.replace(
    "    _STACK[threading.get_ident()].append(cache)\n", "    _push(cache)\n"
).replace("        _STACK[threading.get_ident()].pop()\n", "        _pop()\n") + (
    "\n\ndef _push(cache):\n    _STACK[threading.get_ident()].append(cache)\n"
    "\n\ndef _pop():\n    _STACK[threading.get_ident()].pop()\n"
)


@pytest.mark.parametrize(
    ("library", "line"), [(SHARING_LIBRARY, 13), (HELPED_LIBRARY, 21)], ids=["own", "helper"]
)
def test_entering_a_library_context_manager_that_breaks_skips_the_frame(
    tmp_path: Path, library: str, line: int
) -> None:
    """Dynamo skips the whole frame at the `with` whose library context manager breaks as it
    is entered (no graph at all, measured on 2.13): the breaks after it, in its body (a tensor
    `if` in a loop, BL201 and BL202) and after it (`.item()`), are no breaks of their own.
    The same where the manager breaks in a helper it always calls."""
    project = _library_project(tmp_path, "sharelib", library, ENTERED_MODEL)
    assert lint(project, "--no-cache") == [
        ("app/model.py", 9, "BL516", "warning", SHARED_BREAK.format(line)),
        ("app/model.py", 12, "BL201", "info", f"{TENSOR_IF} {SKIPPED.format(9)}"),
        ("app/model.py", 12, "BL202", "info", f"{LOOP_SKIP} {SKIPPED.format(9)}"),
        ("app/model.py", 14, "BL101", "info", f"{ITEM} {SKIPPED.format(12)}"),
    ]
    assert probed(project) == ENTERED_PROBED


def test_a_library_context_manager_that_may_break_makes_what_follows_uncertain(
    tmp_path: Path,
) -> None:
    """The same `with`, where the manager breaks only in a helper it calls under an `if`: the
    skip may happen, and the breaks after it are warnings, if the frame is not skipped first.
    Dynamo skips it there too (the default takes the `if`)."""
    library = (
        SHARING_LIBRARY.replace("def shared(cache=None):", "def shared(cache=None, push=True):")
        .replace(
            "    _STACK[threading.get_ident()].append(cache)\n",
            "    if push:\n        _push(cache)\n",
        )
        .replace("        _STACK[threading.get_ident()].pop()\n", "        _pop()\n")
    )
    library += (
        "\n\ndef _push(cache):\n    _STACK[threading.get_ident()].append(cache)\n"
        "\n\ndef _pop():\n    _STACK[threading.get_ident()].pop()\n"
    )
    project = _library_project(tmp_path, "sharelib", library, ENTERED_MODEL)
    maybe = "(if the frame is not skipped at line 9 first)"
    assert lint(project, "--no-cache") == [
        ("app/model.py", 9, "BL516", "warning", SHARED_BREAK.format(22)),
        ("app/model.py", 12, "BL201", "warning", f"{TENSOR_IF} {maybe}"),
        ("app/model.py", 12, "BL202", "warning", f"{LOOP_SKIP} {maybe}"),
        ("app/model.py", 14, "BL101", "info", f"{ITEM} {SKIPPED.format(12)}"),
    ]
    assert probed(project) == ENTERED_PROBED


def test_a_break_modules_deep_in_the_library_is_followed(tmp_path: Path) -> None:
    """A chain of library modules, each reached only from a function of the one before (a
    round of `dependencies.follow` each): the break in the last is reported at the linted
    call, and where the chain passes through a held object (`self.scale = Scaler()` called in
    `forward`) as where it is a call of an imported name."""
    _library_project(
        tmp_path,
        "deeplib",
        "from deeplib.first import outer\nfrom deeplib.holder import Holder\n",
        "import torch\n\nfrom deeplib import Holder, outer\n\n\n"
        "class Model(torch.nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.held = Holder()\n\n"
        "    def forward(self, x):\n        return outer(x) + self.held(x)\n",
    )
    package = tmp_path / "installed" / "deeplib"
    files = {
        "first.py": "from deeplib.second import middle\n\n\ndef outer(x):\n    return middle(x)\n",
        "second.py": "from deeplib import third\n\n\ndef middle(x):\n    return third.inner(x)\n",
        "third.py": "def inner(x):\n    return x * float(x.sum())\n",
        "holder.py": "from deeplib.scaler import Scaler\n\n\nclass Holder:\n"
        "    def __init__(self):\n        self.scale = Scaler()\n\n"
        "    def __call__(self, x):\n        return self.scale.apply(x)\n",
        "scaler.py": "from deeplib.third import inner\n\n\nclass Scaler:\n"
        "    def apply(self, x):\n        return inner(x) * 2\n",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    assert [finding[:4] for finding in lint(tmp_path, "--no-cache")] == [
        ("app/model.py", 12, "BL516", "warning"),
        ("app/model.py", 12, "BL516", "warning"),
    ]
