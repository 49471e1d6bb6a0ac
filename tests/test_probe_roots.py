"""What the probes compile, read from their source without running them."""

import os
from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.probe_roots import ProbeRoot, probe_roots, probe_search_folders


def test_a_helper_returning_either_mode_gives_the_instance(tmp_path: Path) -> None:
    probes = tmp_path / "probes.py"
    probes.write_text(
        "from asr.model import CTCModel\n"
        "def _model(train=False):\n"
        "    m = CTCModel()\n"
        "    return m.train() if train else m.eval()\n"
        "def probe_loss():\n"
        "    model = _model(True)\n"
        "    return model.loss, ()\n"
        "def probe_forward():\n"
        "    return _model(), ()\n",
        encoding="utf-8",
    )
    assert probe_roots([str(probes)]) == (
        ProbeRoot("asr.model.CTCModel()", str(tmp_path)),
        ProbeRoot("asr.model.CTCModel().loss", str(tmp_path)),
    )


def test_imports_under_a_module_level_try_or_if_give_the_roots(tmp_path: Path) -> None:
    # A probe file that patches something around its imports (`try:` ... `finally:`), and
    # one with a fallback import: the `try`'s body decides, as it is what runs.
    probes = tmp_path / "probes.py"
    probes.write_text(
        "import os\n"
        "_popen = os.popen\n"
        "try:\n"
        "    from encoder import DataEncoder\n"
        "finally:\n"
        "    os.popen = _popen\n"
        "try:\n"
        "    from fast.model import Net\n"
        "except ImportError:\n"
        "    from slow.model import Net\n"
        "if os.name:\n"
        "    from nets import Head\n"
        "def probe_encode():\n"
        "    return DataEncoder().encode, ()\n"
        "def probe_net():\n"
        "    return Net(), ()\n"
        "def probe_head():\n"
        "    return Head(), ()\n",
        encoding="utf-8",
    )
    assert probe_roots([str(probes)]) == (
        ProbeRoot("encoder.DataEncoder().encode", str(tmp_path)),
        ProbeRoot("fast.model.Net()", str(tmp_path)),
        ProbeRoot("nets.Head()", str(tmp_path)),
    )


STEP = "import time\n\ndef step(x):\n    return x * time.time()\n"


def test_a_probed_name_two_scripts_share_is_searched_from_the_probes_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two scripts named generate.py, neither in a package: the probe, run from probes/ with
    # the folder above it on sys.path, compiles the top one's `step`, not moe/'s.
    (tmp_path / "moe").mkdir()
    (tmp_path / "probes").mkdir()
    (tmp_path / "generate.py").write_text(STEP, encoding="utf-8")
    (tmp_path / "moe" / "generate.py").write_text(STEP, encoding="utf-8")
    (tmp_path / "probes" / "probes.py").write_text(
        "import os, sys\n"
        "sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n"
        "import generate\n"
        "def probe_step():\n"
        "    return generate.step, (1.0,)\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    files = ["generate.py", os.path.join("moe", "generate.py")]
    found = lint_paths(files, Settings(), jobs=1, use_cache=False, probes=["probes"])
    assert [(f.path, f.line, f.code) for f in found.findings] == [("generate.py", 4, "BL501")]


def test_the_folders_a_probe_puts_on_sys_path_in_the_order_written(tmp_path: Path) -> None:
    probes = tmp_path / "probes" / "probes.py"
    probes.parent.mkdir()
    probes.write_text(
        "import os, sys\n"
        "ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))\n"
        "SRC = os.path.join(ROOT, 'src')\n"
        "sys.path[:0] = [os.path.join(SRC, 'model'), os.path.join(SRC, 'tools')]\n"
        "sys.path.insert(0, SRC)\n"
        "sys.path.append(os.path.join(ROOT, 'lib', '..', 'vendor'))\n"
        "sys.path.insert(0, os.environ['HOME'])\n"  # not read from the source: left out
        "def probe_nothing():\n"
        "    sys.path.append('/elsewhere')\n"  # not at the top level: left out
        "    return None, ()\n",
        encoding="utf-8",
    )
    assert probe_search_folders([str(probes)]) == (
        str(tmp_path / "src" / "model"),
        str(tmp_path / "src" / "tools"),
        str(tmp_path / "src"),
        str(tmp_path / "vendor"),
    )


def test_the_kinds_of_the_arguments_every_probe_passes_are_kept(tmp_path: Path) -> None:
    # Numbers and strings are Python values, a torch factory's result a tensor (moved too:
    # `.to('cpu')`), a made instance its class; where the probes disagree (`-1` and a
    # tensor) or pass what cannot be read (`data`), the kind is unknown; a `partial` binds
    # arguments first: none are read.
    probes = tmp_path / "probes.py"
    probes.write_text(
        "import functools\n"
        "import torch\n"
        "from agent import Agent\n"
        "from memory import Memory\n"
        "import ops\n"
        "from ops import step\n"
        "SIZE = 4\n"
        "def _memory():\n"
        "    memory = Memory(8)\n"
        "    return memory\n"
        "def probe_update():\n"
        "    return Agent().update, (_memory(), SIZE, 'mean', -1, data)\n"
        "def probe_update_again():\n"
        "    args = (_memory(), 2, 'sum', torch.zeros(3), data)\n"
        "    return Agent().update, args\n"
        "def probe_step():\n"
        "    return functools.partial(step, 2), (torch.randn(3),)\n"
        "def probe_scale():\n"
        "    return ops.scale, (torch.randn(3).to('cpu'), True)\n",
        encoding="utf-8",
    )
    folder = str(tmp_path)
    assert probe_roots([str(probes)]) == (
        ProbeRoot(
            "agent.Agent().update", folder, ("instance:memory.Memory", "python", "python", "", "")
        ),
        ProbeRoot("ops.scale", folder, ("tensor", "python")),
        ProbeRoot("ops.step", folder),
    )
