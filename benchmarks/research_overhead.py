"""What the dynamic phase costs a researcher on one model, default options: `breaklint FILES
--probes probe.py` as a whole process against the same model compiled bare
(`torch.compile(model, backend="eager")` and one call, in a process that imports torch and
builds the model the same way), one model at a time.

    .venv/bin/python benchmarks/research_overhead.py [--repeat R] [--models NAME,...]

Models: tiny transformers models built from their configs alone (`breaklint.hf.build`, no
weights: `gpt2` and `bert` compile to one graph), and models of the test corpus that break
(`tests/corpus`, `tests/recompiles/stack.py`). breaklint lints the model's own files.

Each round runs breaklint and the bare process one after the other, so under the same load;
each side's CPU time (user + sys of the process and every process it waited for, its probe
worker included) is printed beside its wall time. The best of `--repeat` rounds counts. The
last lines add the models up: those that compile to one graph, those that break, and all.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"


@dataclass(frozen=True)
class Model:
    probe: str  # the body of `probe_model()`, after the imports in IMPORTS
    copied: tuple[Path, ...]  # files copied next to the probe
    linted: tuple[str, ...]  # what breaklint lints: copied files, or `hf:TYPE` for transformers


IMPORTS = "import torch\nfrom breaklint.hf import build\n"
MODELS = {
    "gpt2": Model('return build("gpt2", "eval").as_probe()', (), ("hf:gpt2",)),
    "bert": Model('return build("bert", "eval").as_probe()', (), ("hf:bert",)),
    "corpus-attention": Model(
        "from layers import Attention\n"
        "    return Attention(), (torch.randn(2, 5, 8),), {'lengths': torch.tensor([5, 3])}",
        (TESTS / "corpus" / "layers.py",),
        ("layers.py",),
    ),
    "corpus-block": Model(
        "from models import Block\n    return Block().eval(), (torch.randn(2, 8).abs(),)",
        (TESTS / "corpus" / "models.py", TESTS / "corpus" / "layers.py"),
        ("models.py",),
    ),
    "stack": Model(
        "from stack import Net\n    return Net(), (torch.randn(2, 4),)",
        (TESTS / "recompiles" / "stack.py",),
        ("stack.py",),
    ),
}

BARE = """
import torch
from probe import probe_model
target, args, *rest = probe_model()
torch.compile(target, backend="eager")(*args, **(rest[0] if rest else {}))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(command: list[str], folder: str) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one whole process."""
    started, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    wall, used = time.perf_counter() - started, _children_cpu() - cpu
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return wall, used, done.stdout


def _linted(model: Model) -> list[str]:
    """The files breaklint lints: a transformers type's own modeling file."""
    files = []
    for item in model.linted:
        if item.startswith("hf:"):
            import transformers

            kind = item.removeprefix("hf:")
            folder = Path(transformers.__file__).parent / "models" / kind
            files.append(str(folder / f"modeling_{kind}.py"))
        else:
            files.append(item)
    return files


@dataclass(frozen=True)
class Measured:
    breaks: int
    ours: tuple[float, float]  # (wall, CPU) seconds
    bare: tuple[float, float]


def measure(name: str, model: Model, repeat: int) -> Measured:
    with tempfile.TemporaryDirectory() as folder:
        for path in model.copied:
            shutil.copy(path, folder)
        probe = f"{IMPORTS}\n\ndef probe_model():\n    {model.probe}\n"
        Path(folder, "probe.py").write_text(probe, encoding="utf-8")
        command = [sys.executable, "-m", "breaklint", *_linted(model), "--probes", "probe.py"]
        command += ["--no-cache", "--jobs", "1", "--output-format", "json"]
        bare = [sys.executable, "-c", BARE]
        best: dict[str, tuple[float, float]] = {}
        report: dict = {}
        for _ in range(repeat):
            wall, cpu, out = _timed(command, folder)
            report = json.loads(out)
            best["breaklint"] = min(best.get("breaklint", (wall, cpu)), (wall, cpu))
            wall, cpu, _ = _timed(bare, folder)
            best["bare"] = min(best.get("bare", (wall, cpu)), (wall, cpu))
    (probe_result,) = report["probes"]
    if probe_result["status"] != "ok":
        sys.exit(f"{name}: the probe did not run: {probe_result['error']}")
    recompiles = probe_result["recompiles"] or {}
    (ours, ours_cpu), (theirs, theirs_cpu) = best["breaklint"], best["bare"]
    print(
        f"{name:<17} graphs {probe_result['graphs']:>2}  breaks {probe_result['breaks']:>2}"
        f"  calls {recompiles.get('calls', 1)}  |  breaklint {ours:6.2f} s wall {ours_cpu:6.2f}"
        f" s CPU  |  bare {theirs:6.2f} s wall {theirs_cpu:6.2f} s CPU  |  "
        f"{ours / theirs:.2f}x wall  {ours_cpu / theirs_cpu:.2f}x CPU"
    )
    return Measured(probe_result["breaks"], best["breaklint"], best["bare"])


def _total(label: str, measured: list[Measured]) -> None:
    if not measured:
        return
    ours = [sum(m.ours[i] for m in measured) for i in (0, 1)]
    bare = [sum(m.bare[i] for m in measured) for i in (0, 1)]
    print(
        f"{label:<30} breaklint {ours[0]:6.2f} s wall {ours[1]:6.2f} s CPU  |  bare "
        f"{bare[0]:6.2f} s wall {bare[1]:6.2f} s CPU  |  {ours[0] / bare[0]:.2f}x wall  "
        f"{ours[1] / bare[1]:.2f}x CPU"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=1, help="rounds; the best counts")
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated names")
    options = parser.parse_args()
    measured = [measure(name, MODELS[name], options.repeat) for name in options.models.split(",")]
    _total("models without breaks", [m for m in measured if not m.breaks])
    _total("models that break", [m for m in measured if m.breaks])
    _total("all models", measured)


if __name__ == "__main__":
    main()
