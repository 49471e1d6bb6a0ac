"""breaklint's static accuracy on model libraries it was not written against, scored by Dynamo.

A library is a module `benchmarks/libraries/<name>.py` of model builders: module-level
functions `build_<model>()` (or `build_<model>(mode)`) that return what a probe returns,
`(callable, args)` or `(callable, args, kwargs)`, for a tiny model with random weights on the
CPU (no weights or data are ever downloaded), plus `PACKAGES` (the import packages whose
installed source is linted) and `MODES` (`("eval",)` or `("eval", "train")`). For each library
the harness writes one probe per (builder, mode), runs breaklint once, as a subprocess, over
the library's installed packages with those probes (the static phase with its default scope,
then the dynamic phase: Dynamo 2.13 with a recording backend, so every break lands on the
library's own lines), and scores the JSON report with `accuracy_scoring.py`:

- the truth: the statements where Dynamo broke or skipped a frame (BL900, BL901), and the
  statements a probe executed, from breaklint's own join (`confirmed`, `not-reproduced`,
  `not-reached`);
- precision: of the statements a static error or warning flags and a probe ran, the share where
  Dynamo broke; recall: of the break statements, the share a static error or warning flagged;
  errors-only precision. Info findings and the recompile rules (BL811, BL812: they predict
  recompiles, not breaks) are left out.

Each library gets DIR/<library>/report.md (every miss and false positive with its source line)
and results.json; DIR/summary.md and summary.json pool the libraries per half and overall from
every DIR/<library>/results.json present, and DIR/tuning.md lists the tuning half's misses and
false positives (with Dynamo's reasons) in one place. The halves are fixed here (`LIBRARIES`):
tune the analysis on the tuning half only; the held-out half measures it.

    python benchmarks/library_accuracy.py --half all --out /tmp/libs \\
        --breaklint-python /work/bench-venv/bin/python [--checkout PATH] [--jobs 2]
    python benchmarks/library_accuracy.py --libraries timm --out /tmp/libs --rescore
    python benchmarks/library_accuracy.py --half tuning --out /tmp/fast --static-only \\
        --truth /tmp/libs --breaklint-python /work/bench-venv/bin/python --checkout PATH

A full run keeps the probes' results in DIR/<library>/truth.pickle (`dynamic_truth.py` runs
breaklint's command line and records them); `--static-only --truth DIR` runs the static phase
of `--checkout` only and joins its findings with that recorded truth, in seconds instead of
the tens of minutes Dynamo takes: the truth does not depend on the static rules. A statement
only the new checkout flags counts as run when a probe executed its line.

`--checkout` names the breaklint source tree to score (default: this repository); it is run as
`PYTHONPATH=<checkout> <python> -m breaklint ...`, so any commit can be scored with the same
libraries. The harness itself needs no torch: it reads the builder modules with `ast`.

The environment (`benchmarks/libraries/setup_venv.sh` builds it): torch 2.13.0 from the local
CPU wheel, `pip install -e .[bench]` (transformers, x-transformers, vector-quantize-pytorch,
openai-whisper), then timm, vit-pytorch, denoising-diffusion-pytorch and segment-anything with
`--no-deps` and their runtime dependencies by hand (so are torch-geometric and kornia: of their
declared dependencies they import only xxhash and kornia-rs; demucs's model code needs only julius
and einops, not torchaudio, which has no wheel for torch 2.13; gpytorch needs linear_operator,
scipy and mpmath, and scikit-learn only for two initialisations no builder uses), the first four
because they import torchvision at import time (timm/layers/norm_act.py, vit_pytorch/dino.py
and others, denoising_diffusion_pytorch/denoising_diffusion_pytorch.py,
segment_anything/utils/transforms.py) and PyPI's torchvision is a CUDA build whose C ops cannot
load beside the CPU torch. torchvision 0.28.0 is installed without its ops; its pure-Python
parts (what the builders reach) work once the script guards the two fake-kernel registrations
that 0.28 makes unconditionally for its nms ops. Of the fourth round's libraries, e3nn needs
opt_einsum_fx (and opt_einsum) beside what is there, mmdit hyper-connections (in the extra), and
normflows, torchdiffeq and zuko nothing new, torchsde trampoline (in the extra). The sixth
round's monai, torchmetrics (with lightning-utilities) and pyro-ppl (with pyro-api) need nothing
else that is not already there. Of the seventh round's, botorch needs its small helpers
(pyre-extensions, multipledispatch, threadpoolctl), neuraloperator tensorly and tensorly-torch
(its other declared dependencies serve only its training scripts and data loaders), fair-esm
nothing, peft psutil (all in the extra). Of the eighth round's, stable-baselines3 needs gymnasium
(with cloudpickle and farama-notifications), pytorch-metric-learning nothing new (it imports
scikit-learn only in its accuracy calculator and testers), piq torchvision's pure-Python parts.
Of the ninth round's, reformer-pytorch needs lucidrains's small attention packages
(axial-positional-embedding, local-attention, product-key-memory, colt5-attention: in the extra),
pytorch-tabnet's networks numpy only (the scikit-learn estimator wrappers are never imported),
egnn-pytorch einops and torch-geometric (in the extra).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shlex
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# A sibling module: a script's own folder comes first on sys.path.
from accuracy_scoring import (
    LineCounts,
    Ratio,
    Scores,
    code_span,
    score,
    scores_document,
    scores_markdown,
    table,
)

REPO = Path(__file__).resolve().parent.parent
LIBRARY_FOLDER = REPO / "benchmarks" / "libraries"
# Fixed before any result was seen; never move a library between halves.
LIBRARIES = {
    "transformers": "tuning",
    "x-transformers": "tuning",
    "vit-pytorch": "tuning",
    "vector-quantize-pytorch": "tuning",
    # Added later, to the tuning half only: more styles to tune on (graph message passing;
    # functional vision with value checks).
    "torch-geometric": "tuning",
    "kornia": "tuning",
    # Added in a third round, to the tuning half only: audio and signal-processing research code
    # (STFT, hybrid transformer, Wiener filtering) and probabilistic models (lazy linear
    # operators, settings context managers, Cholesky).
    "demucs": "tuning",
    "gpytorch": "tuning",
    # A fourth round, research code of styles not in the list (chosen from PyPI for CPU wheels
    # that install beside torch 2.13 without torchaudio or torchvision): equivariant networks,
    # a diffusion transformer, normalizing flows, ODE solvers. Split before any was run, by
    # alphabetical order: the 1st and 3rd (e3nn, normflows) tune, the 2nd and 4th (mmdit,
    # torchdiffeq) are held out.
    "e3nn": "tuning",
    "normflows": "tuning",
    # A fifth round, two more of the same kind (SDE solvers; normalizing flows written against
    # torch.distributions), split by the same rule before either ran: torchsde tunes, zuko is
    # held out.
    "torchsde": "tuning",
    # A sixth round, to the tuning half only, styles none of the others has: medical imaging
    # (3D segmentation networks, losses), metrics (functional and stateful, with input
    # validation), probabilistic programs (effect handlers, distributions, variational inference).
    "monai": "tuning",
    "torchmetrics": "tuning",
    "pyro-ppl": "tuning",
    # A seventh round, four styles none of the others has, split before any was run by the
    # fourth round's rule (alphabetical; the 1st and 3rd tune, the 2nd and 4th are held out):
    # Bayesian optimisation (acquisition functions over GP posteriors) and neural operators
    # (spectral convolutions over FFTs) tune; protein language models and parameter-efficient
    # adapters injected into transformers models are held out.
    "botorch": "tuning",
    "neuraloperator": "tuning",
    # An eighth round, to the tuning half only (session 21), measured before any change made for
    # them: reinforcement learning policies over gymnasium spaces, metric learning losses and
    # miners (masks, index tuples), image-quality metrics (input validation, filters, FFTs).
    "stable-baselines3": "tuning",
    "pytorch-metric-learning": "tuning",
    "piq": "tuning",
    # A ninth round, to the tuning half only (session 22), measured before any change made for
    # them: hashing attention with reversible layers, sparse tabular feature masks (sparsemax,
    # entmax), equivariant graph layers (top-k neighbours, masks, adjacency degrees).
    "reformer-pytorch": "tuning",
    "pytorch-tabnet": "tuning",
    "egnn-pytorch": "tuning",
    "timm": "heldout",
    "openai-whisper": "heldout",
    "denoising-diffusion-pytorch": "heldout",
    "segment-anything": "heldout",
    "mmdit": "heldout",
    "torchdiffeq": "heldout",
    "zuko": "heldout",
    "fair-esm": "heldout",
    "peft": "heldout",
}
HALVES = ("tuning", "heldout")
SEVERITIES = ("error", "warning")
RECOMPILE_RULES = ("BL811", "BL812")  # they predict recompiles; the truth here is breaks
MODES = ("eval", "train")
RUN_FILE = "run.json"  # what the last run did, for --rescore
TRUTH_FILE = "truth.pickle"  # the probes' results, for --static-only
TRUTH_DRIVER = REPO / "benchmarks" / "dynamic_truth.py"


@dataclass(frozen=True, slots=True)
class Builder:
    name: str  # the function in the library module
    takes_mode: bool


@dataclass(frozen=True, slots=True)
class Library:
    name: str
    half: str
    module: Path
    packages: tuple[str, ...]
    modes: tuple[str, ...]
    builders: tuple[Builder, ...]


@dataclass(frozen=True, slots=True)
class ProbeTarget:
    function: str
    builder: str
    mode: str


@dataclass(slots=True)
class Run:
    """What one breaklint run over a library was asked to do; --rescore reads it back."""

    command: list[str]
    root: str  # the folder breaklint ran in: reported paths are relative to it
    checkout: str
    environment: dict[str, Any]
    jobs: int
    probe_timeout_s: float
    wall_s: float
    exit_code: int
    targets: list[ProbeTarget]


@dataclass(slots=True)
class ProbeRow:
    probe: str
    builder: str
    mode: str
    status: str  # ok, error, timeout, crashed, out-of-memory
    graphs: int
    breaks: int
    frames_skipped: int
    wall_s: float
    error: str


class LibraryError(Exception):
    """A library module that cannot be read, or a library that is not installed."""


def module_path(name: str) -> Path:
    return LIBRARY_FOLDER / f"{name.replace('-', '_')}.py"


def _literal_strings(tree: ast.Module, name: str, path: Path) -> tuple[str, ...]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            value = ast.literal_eval(node.value)
            if isinstance(value, tuple) and all(isinstance(item, str) for item in value):
                return value
            raise LibraryError(f"{path}: {name} must be a tuple of strings")
    raise LibraryError(f"{path}: no {name} = (...)")


def read_library(name: str, half: str, path: Path) -> Library:
    """The library module's declarations and builders, read without importing it."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (OSError, SyntaxError) as error:
        raise LibraryError(f"{path}: {error}") from error
    modes = _literal_strings(tree, "MODES", path)
    if not modes or set(modes) - set(MODES):
        raise LibraryError(f"{path}: MODES takes {', '.join(MODES)}")
    builders = tuple(
        Builder(node.name, [argument.arg for argument in node.args.args] == ["mode"])
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("build_")
    )
    if not builders:
        raise LibraryError(f"{path}: no build_* function")
    return Library(name, half, path, _literal_strings(tree, "PACKAGES", path), modes, builders)


def _unfollowed(library: Library) -> list[str]:
    """The options that keep a tuning library's run from following calls into the held-out
    libraries' packages (`--dependencies-exclude`): their code is never read while tuning."""
    if library.half != "tuning":
        return []
    held_out = sorted(
        package
        for name, half in LIBRARIES.items()
        if half == "heldout"
        for package in read_library(name, half, module_path(name)).packages
    )
    return ["--dependencies-exclude", ",".join(held_out)] if held_out else []


def probe_targets(library: Library) -> list[ProbeTarget]:
    return [
        ProbeTarget(f"probe_{builder.name.removeprefix('build_')}_{mode}", builder.name, mode)
        for builder in library.builders
        for mode in library.modes
    ]


def builders_module(library: Library) -> str:
    """The name the library's module is copied under, beside the probes: its own name would
    shadow the installed package it builds from."""
    return f"{library.module.stem}_builders"


def write_probe_file(path: Path, library: Library, targets: Sequence[ProbeTarget]) -> None:
    """The probes, and the library module copied beside them: a probe's folder is first on
    `sys.path` when it runs, and breaklint reads what each probe returns from these sources
    (`breaklint.probe_roots`), so the static scope sees what the probes compile."""
    module = builders_module(library)
    (path.parent / f"{module}.py").write_bytes(library.module.read_bytes())
    takes_mode = {builder.name: builder.takes_mode for builder in library.builders}
    builders = sorted({target.builder for target in targets})
    lines = [
        f'"""Generated by benchmarks/library_accuracy.py: {library.name}, one probe per (builder,',
        'mode)."""',
        "",
        "import torch",
        "",
        f"from {module} import {', '.join(builders)}",
        "",
        "",
        "def _in_mode(built, mode):",
        "    # The module called, a bound method's module, and modules passed as arguments.",
        "    owner = getattr(built[0], '__self__', None)",
        "    for value in (built[0], owner, *built[1]):",
        "        if isinstance(value, torch.nn.Module):",
        "            value.train(mode == 'train')",
        "",
    ]
    for target in targets:
        mode = repr(target.mode) if takes_mode[target.builder] else ""
        lines += [
            "",
            f"def {target.function}():",
            "    torch.manual_seed(0)",
            f"    built = {target.builder}({mode})",
            f"    _in_mode(built, {target.mode!r})",
            "    return built",
            "",
        ]
    path.write_text("\n".join(lines), encoding="utf-8")


_ENVIRONMENT_SCRIPT = """
import importlib.metadata, importlib.util, json, sys
packages, distribution = sys.argv[1].split(","), sys.argv[2]
def version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None
folders = {}
for package in packages:
    spec = importlib.util.find_spec(package)
    folders[package] = list(spec.submodule_search_locations) if spec else None
import breaklint
print(json.dumps({"folders": folders, "torch": version("torch"),
    "library": version(distribution), "breaklint": breaklint.__version__,
    "breaklint_file": breaklint.__file__}))
"""


def _checkout_environment(checkout: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(checkout)}


def inspect_environment(library: Library, python: str, checkout: Path) -> dict[str, Any]:
    """Where the library's packages are installed and the versions that run, asked of the
    benchmark's interpreter (finding a package's folder does not import it)."""
    done = subprocess.run(
        [python, "-c", _ENVIRONMENT_SCRIPT, ",".join(library.packages), library.name],
        capture_output=True,
        text=True,
        # `-c` puts the working folder first on sys.path: the checkout's, not the caller's.
        cwd=checkout,
        env=_checkout_environment(checkout),
        check=False,
    )
    if done.returncode != 0:
        raise LibraryError(f"{python} cannot inspect {library.name}: {done.stderr[-2000:]}")
    found: dict[str, Any] = json.loads(done.stdout)
    missing = [package for package, folders in found["folders"].items() if not folders]
    if missing:
        raise LibraryError(f"{library.name}: {', '.join(missing)} not installed for {python}")
    roots = {Path(folders[0]).resolve().parent for folders in found["folders"].values()}
    if len(roots) != 1:
        raise LibraryError(f"{library.name}: its packages lie in several folders: {roots}")
    found["root"] = str(roots.pop())
    if not Path(found["breaklint_file"]).resolve().is_relative_to(checkout.resolve()):
        raise LibraryError(f"{python} imports breaklint from {found['breaklint_file']}")
    commit = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    found["commit"] = commit.stdout.strip() or None
    return found


def run_breaklint(
    library: Library, targets: list[ProbeTarget], options: argparse.Namespace, out: Path
) -> Run:
    checkout = Path(options.checkout).resolve()
    environment = inspect_environment(library, options.breaklint_python, checkout)
    probe_file = out / "probes.py"
    write_probe_file(probe_file, library, targets)
    # The driver runs breaklint's command line as is, keeping the probes' results (the truth)
    # in TRUTH_FILE, or, with --static-only, joining with those a previous run kept.
    if options.static_only:
        recorded = Path(options.truth).resolve() / library.name
        truth = ["--replay", str(recorded / TRUTH_FILE)]
        # A truth recorded in another environment with the same packages: its paths move here.
        recorded_root = json.loads((recorded / RUN_FILE).read_text())["root"]
        if recorded_root != environment["root"]:
            truth += ["--relocate", recorded_root, environment["root"]]
    else:
        truth = ["--record", str(out / TRUTH_FILE)]
    command = [options.breaklint_python, str(TRUTH_DRIVER), *truth, "--", "--isolated"]
    command += ["--output-format", "json", "--probes", str(probe_file), "--jobs", str(options.jobs)]
    command += ["--probe-timeout", str(options.probe_timeout), "--no-cache", "--quiet"]
    command += _unfollowed(library)
    command += shlex.split(options.breaklint_args or "")
    command += list(library.packages)
    print(f"{library.name}: {len(targets)} probes over {', '.join(library.packages)}", flush=True)
    started = time.perf_counter()
    with (out / "breaklint.json").open("w") as stdout, (out / "breaklint.stderr").open("w") as err:
        # From the packages' parent, so reported paths read <package>/...
        done = subprocess.run(
            command,
            cwd=environment["root"],
            stdout=stdout,
            stderr=err,
            env=_checkout_environment(checkout),
            check=False,
        )
    run = Run(
        command,
        environment["root"],
        str(checkout),
        environment,
        options.jobs,
        options.probe_timeout,
        time.perf_counter() - started,
        done.returncode,
        targets,
    )
    (out / RUN_FILE).write_text(json.dumps(asdict(run), indent=1) + "\n", encoding="utf-8")
    return run


def read_run(out: Path) -> Run:
    saved = json.loads((out / RUN_FILE).read_text())
    targets = [ProbeTarget(**target) for target in saved.pop("targets")]
    return Run(**saved, targets=targets)


def probe_rows(probes: list[dict[str, Any]], targets: Sequence[ProbeTarget]) -> list[ProbeRow]:
    by_function = {target.function: target for target in targets}
    rows = []
    for probe in probes:
        target = by_function.get(probe["name"], ProbeTarget(probe["name"], "?", "?"))
        error = (probe.get("error") or "").strip().split("\n", 1)[0][:300]
        rows.append(
            ProbeRow(
                target.function,
                target.builder,
                target.mode,
                probe["status"],
                probe.get("graphs") or 0,
                probe.get("breaks") or 0,
                probe.get("frames_skipped") or 0,
                round(probe.get("wall_s") or 0.0, 2),
                error,
            )
        )
    return rows


def score_library(library: Library, out: Path) -> dict[str, Any]:
    """Scores the breaklint run kept in `out`; writes results.json and report.md there."""
    run = read_run(out)
    if run.exit_code not in (0, 1):
        tail = (out / "breaklint.stderr").read_text(errors="replace")[-3000:]
        raise LibraryError(f"{library.name}: breaklint exited {run.exit_code}:\n{tail}")
    report = json.loads((out / "breaklint.json").read_text())
    scores = score(
        report["findings"], Path(run.root), library.packages, SEVERITIES, RECOMPILE_RULES
    )
    rows = probe_rows(report.get("probes", []), run.targets)
    document = {
        "library": library.name,
        "half": library.half,
        "packages": list(library.packages),
        "version": run.environment["library"],
        "torch": run.environment["torch"],
        "breaklint": run.environment["breaklint"],
        "breaklint_commit": run.environment["commit"],
        "command": " ".join(run.command),
        "root": run.root,
        "jobs": run.jobs,
        "probe_timeout_s": run.probe_timeout_s,
        "wall_s": round(run.wall_s, 1),
        "probes": len(rows),
        "probe_statuses": dict(Counter(row.status for row in rows)),
        "severities": list(SEVERITIES),
        "left_out_codes": list(RECOMPILE_RULES),
        **scores_document(scores),
        "probe_rows": [asdict(row) for row in rows],
    }
    (out / "results.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    (out / "report.md").write_text(report_markdown(document, scores, rows), encoding="utf-8")
    return document


def report_markdown(document: dict[str, Any], scores: Scores, rows: list[ProbeRow]) -> str:
    statuses = ", ".join(f"{s} {n}" for s, n in sorted(document["probe_statuses"].items()))
    lines = [
        f"# breaklint on {document['library']} ({document['half']} half)",
        "",
        f"`{document['command']}`",
        "",
        f"{document['library']} {document['version']}, torch {document['torch']}, breaklint "
        f"{document['breaklint']} ({document['breaklint_commit'] or 'no commit'}), "
        f"--jobs {document['jobs']}, --probe-timeout {document['probe_timeout_s']} s, "
        f"{document['probes']} probes in {document['wall_s']} s ({statuses}). Static findings "
        f"counted: {', '.join(document['severities'])}; left out: "
        f"{', '.join(document['left_out_codes'])}.",
        "",
    ]
    lines += scores_markdown(scores, ", ".join(document["packages"]))
    lines += ["", "## Probes", ""]
    lines += table(
        ("probe", "status", "graphs", "breaks", "frames skipped", "wall s", "error"),
        (
            (r.probe, r.status, r.graphs, r.breaks, r.frames_skipped, r.wall_s, code_span(r.error))
            for r in rows
        ),
    )
    return "\n".join(lines) + "\n"


@dataclass(slots=True)
class Pooled:
    """Line counts of several libraries added up (each library's lines are its own)."""

    libraries: int = 0
    probes: int = 0
    probes_ok: int = 0
    overall: LineCounts = field(default_factory=LineCounts)
    traced: LineCounts = field(default_factory=LineCounts)
    errors: LineCounts = field(default_factory=LineCounts)
    recall: Ratio = field(default_factory=lambda: Ratio(0, 0))

    def add(self, document: dict[str, Any]) -> None:
        lines = document["lines"]
        self.libraries += 1
        self.probes += document["probes"]
        self.probes_ok += document["probe_statuses"].get("ok", 0)
        self.overall.add(LineCounts(**lines["overall"]))
        self.traced.add(LineCounts(**lines["outside_skipped_frames"]))
        self.errors.add(LineCounts(**lines["errors"]))
        self.recall.hits += lines["recall"]["hits"]
        self.recall.total += lines["recall"]["total"]

    def row(self, name: str, half: str) -> tuple[Any, ...]:
        return (
            name,
            half,
            f"{self.probes_ok}/{self.probes}",
            self.recall.total,
            self.overall.confirmed + self.overall.not_reproduced,
            _short(self.overall.precision),
            _short(self.traced.precision),
            _short(self.recall),
            _short(self.errors.precision),
        )

    def numbers(self) -> dict[str, Any]:
        return {
            "libraries": self.libraries,
            "probes": self.probes,
            "probes_ok": self.probes_ok,
            "precision": self.overall.precision.value,
            "precision_outside_skipped_frames": self.traced.precision.value,
            "recall": self.recall.value,
            "errors_precision": self.errors.precision.value,
            "lines": {
                "overall": asdict(self.overall),
                "outside_skipped_frames": asdict(self.traced),
                "errors": asdict(self.errors),
                "recall": asdict(self.recall),
            },
        }


def _short(ratio: Ratio) -> str:
    value = ratio.value
    return f"{value:.2f} ({ratio.hits}/{ratio.total})" if value is not None else "n/a"


SUMMARY_HEADER = (
    "library",
    "half",
    "probes ok",
    "break statements",
    "flagged statements run",
    "precision",
    "precision outside skipped frames",
    "recall",
    "errors precision",
)


def summary(documents: Sequence[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """The per-library, per-half and overall table, as markdown and as JSON."""
    rows: list[tuple[Any, ...]] = []
    numbers: dict[str, Any] = {"libraries": {}, "halves": {}}
    everything = Pooled()
    for half in HALVES:
        pooled = Pooled()
        for document in documents:
            if document["half"] == half:
                alone = Pooled()
                alone.add(document)
                rows.append(alone.row(document["library"], half))
                numbers["libraries"][document["library"]] = {"half": half, **alone.numbers()}
                pooled.add(document)
                everything.add(document)
        if pooled.libraries:
            rows.append(pooled.row(f"**{half} half**", half))
            numbers["halves"][half] = pooled.numbers()
    rows.append(everything.row("**overall**", "all"))
    numbers["overall"] = everything.numbers()
    text = [
        "# breaklint's static accuracy per library",
        "",
        "Distinct statements (path:line); static errors and warnings, default scope; truth: "
        "the breaks and frame skips of Dynamo 2.13 (recording backend, CPU) on the probes. "
        "Halves and overall pool their libraries' statements.",
        "",
        *table(SUMMARY_HEADER, rows),
    ]
    commits = sorted({str(d["breaklint_commit"]) for d in documents})
    text += ["", f"breaklint commit(s): {', '.join(commits)}."]
    return "\n".join(text) + "\n", numbers


def tuning_details(documents: Sequence[dict[str, Any]]) -> str:
    """Every miss and false positive of the tuning half's libraries, the material to tune on;
    the held-out half's stay in their own reports."""
    lines = [
        "# The tuning half's misses and false positives",
        "",
        "Static errors and warnings (default scope) against Dynamo 2.13's breaks on the probes; "
        "paths are relative to site-packages. Held-out libraries are not listed here.",
    ]
    for document in documents:
        if document["half"] != "tuning":
            continue
        lines += [
            "",
            f"## {document['library']} {document['version']}: precision "
            f"{document['precision']['overall']}, recall {document['recall']}, errors precision "
            f"{document['precision']['errors']}",
            "",
            "Probes that did not run to the end (their breaks are missing from the truth): "
            + (
                "; ".join(
                    f"{row['probe']} ({row['status']}: {row['error']})"
                    for row in document["probe_rows"]
                    if row["status"] != "ok"
                )
                or "none"
            )
            + ".",
            "",
            f"### Misses ({len(document['misses'])})",
            "",
        ]
        lines += table(
            ("line", "kind", "gb_type", "Dynamo's reason", "source", "first probes"),
            (
                (
                    miss["where"],
                    miss["kind"],
                    "; ".join(miss["gb_types"]),
                    " / ".join(miss["reasons"]),
                    code_span(miss["source"]),
                    ", ".join(miss["probes"]),
                )
                for miss in document["misses"]
            ),
        )
        lines += ["", f"### False positives ({len(document['false_positives'])})", ""]
        lines += table(
            ("line", "codes", "severity", "message", "source", "frame"),
            (
                (
                    fp["where"],
                    ", ".join(fp["codes"]),
                    ", ".join(fp["severities"]),
                    " / ".join(fp["messages"]),
                    code_span(fp["source"]),
                    "skipped" if fp["in_skipped_frame"] else "",
                )
                for fp in document["false_positives"]
            ),
        )
    return "\n".join(lines) + "\n"


def selected_libraries(options: argparse.Namespace) -> list[str]:
    if options.libraries:
        names = [name.strip() for name in options.libraries.split(",") if name.strip()]
        unknown = sorted(set(names) - set(LIBRARIES))
        if unknown:
            sys.exit(f"unknown libraries: {', '.join(unknown)}; known: {', '.join(LIBRARIES)}")
        return names
    return [name for name, half in LIBRARIES.items() if options.half in (half, "all")]


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--libraries", help="comma-separated libraries (default: --half's)")
    parser.add_argument("--half", choices=(*HALVES, "all"), default="all")
    parser.add_argument("--out", required=True, help="folder for the reports")
    parser.add_argument(
        "--breaklint-python",
        default=sys.executable,
        help="the interpreter that has torch and the libraries installed",
    )
    parser.add_argument(
        "--checkout", default=str(REPO), help="the breaklint source tree to score (PYTHONPATH)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="breaklint's worker processes")
    parser.add_argument(
        "--breaklint-args",
        help="more options for breaklint's command line, as one shell-quoted string "
        "(e.g. '--no-dependencies')",
    )
    parser.add_argument("--probe-timeout", type=float, default=300, help="seconds per probe")
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="score the breaklint runs already in --out again instead of running breaklint",
    )
    parser.add_argument(
        "--static-only",
        action="store_true",
        help="run only the static phase and score it against the truth kept under --truth",
    )
    parser.add_argument(
        "--truth", help="a previous full run's --out: its <library>/truth.pickle is the truth"
    )
    options = parser.parse_args(argv)
    if options.static_only and not options.truth:
        parser.error("--static-only needs --truth DIR")
    return options


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(argv)
    out = Path(options.out).resolve()
    failed = []
    for name in selected_libraries(options):
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        try:
            library = read_library(name, LIBRARIES[name], module_path(name))
            if not options.rescore:
                run_breaklint(library, probe_targets(library), options, folder)
            document = score_library(library, folder)
        except LibraryError as error:
            print(f"{name}: {error}", file=sys.stderr)
            failed.append(name)
            continue
        print(
            f"{name}: precision {document['precision']['overall']}, recall "
            f"{document['recall']}, errors precision {document['precision']['errors']}, "
            f"{document['probes']} probes in {document['wall_s']} s -> {folder / 'report.md'}",
            flush=True,
        )
    documents = [
        json.loads((out / name / "results.json").read_text())
        for name in LIBRARIES
        if (out / name / "results.json").is_file()
    ]
    text, numbers = summary(documents)
    (out / "summary.md").write_text(text, encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(numbers, indent=1) + "\n", encoding="utf-8")
    (out / "tuning.md").write_text(tuning_details(documents), encoding="utf-8")
    print(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
