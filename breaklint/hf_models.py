"""`breaklint --hf MODEL`: Hugging Face models as targets of the dynamic phase.

Each model becomes a generated probe that builds it small with `breaklint.hf.build` (in a
worker, which imports torch and transformers); its modeling source is linted statically and
joined with the breaks as for any probe. This process never imports transformers (its
configuration module imports torch): which files a model type runs is asked of transformers'
own registries in a subprocess (`breaklint.hf.modeling_sources`), once per run.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Any

from breaklint.findings import Finding
from breaklint.hf import ModelBuildError, folder_config, is_folder

ALL = "all"  # `--hf all`: every model type of the installed transformers
HF_PROBES = "hf"  # what reports name a model's probe after: `hf::gpt2`
_BUILD_ERROR = "ModelBuildError: "  # how a worker reports breaklint.hf.ModelBuildError
# Prints `breaklint.hf.modeling_sources(mode)` as JSON; run by this interpreter.
_ASK_REGISTRY = (
    "import json, sys; from breaklint.hf import modeling_sources; "
    "json.dump(modeling_sources(sys.argv[1]), sys.stdout)"
)


class HFError(Exception):
    """A model that cannot be a target at all (unknown type, no config.json, custom code
    without --trust-remote-code, transformers missing); the run exits 2."""


@dataclass(frozen=True, slots=True)
class HFRequest:
    models: tuple[str, ...]  # model types, local folders with a config.json, or ALL
    mode: str  # "eval" or "train"
    trust_remote_code: bool


@dataclass(frozen=True, slots=True)
class HFModel:
    spec: str  # as given: a model type or a folder
    probe: str  # the generated probe function that builds it
    sources: tuple[str, ...]  # its modeling files, linted statically


@dataclass(frozen=True, slots=True)
class ModelRow:
    """One line of the model table."""

    model: str
    status: str  # "ok", "not built", "error", "timeout", "crashed"
    graphs: int
    breaks: int
    frames_skipped: int
    findings: int
    wall_s: float
    note: str  # why it was not built, or what it raised


@dataclass(slots=True)
class HFRun:
    """The models of one run and the probe file that builds them."""

    request: HFRequest
    models: list[HFModel]
    probe_file: str
    folder: tempfile.TemporaryDirectory[str] | None  # None: rebuilt from a report

    def close(self) -> None:
        if self.folder is not None:
            self.folder.cleanup()

    def to_json(self) -> dict[str, Any]:
        """What `from_json` rebuilds it from, to name a merged run's probes after the models."""
        return {
            "request": dataclasses.asdict(self.request),
            "models": [dataclasses.asdict(model) for model in self.models],
            "probe_file": self.probe_file,
        }

    @classmethod
    def from_json(cls, stored: dict[str, Any]) -> HFRun:
        """TypeError, ValueError or KeyError when `stored` is of another shape."""
        from breaklint.cache import as_type

        request = as_type(HFRequest, stored["request"])
        models = as_type(list[HFModel], stored["models"])
        return cls(request, models, as_type(str, stored["probe_file"]), None)

    def reported(
        self, results: Sequence[Any], findings: Sequence[Finding]
    ) -> tuple[list[Any], list[Finding]]:
        """Results and findings as the report gives them: each model's probe named after the
        model, and no finding for a model that could not be built (its row or error says
        why)."""
        return self.relabeled(results, self.built_findings(results, findings))

    def built_findings(self, results: Sequence[Any], findings: Sequence[Finding]) -> list[Finding]:
        """`findings` but those of the models that could not be built."""
        unbuilt = {f"{self.probe_file}::{model.probe}" for model, _ in self.build_failures(results)}
        return [f for f in findings if getattr(f.evidence, "probe", None) not in unbuilt]

    @property
    def files(self) -> list[str]:
        """The modeling files to lint, each once."""
        return list(dict.fromkeys(path for model in self.models for path in model.sources))

    @property
    def zoo(self) -> bool:
        return self.request.models == (ALL,)

    def _model(self, result: Any) -> HFModel | None:
        if result.probe.path != self.probe_file:
            return None
        return next((m for m in self.models if m.probe == result.probe.name), None)

    def relabeled(
        self, results: Sequence[Any], findings: Sequence[Finding]
    ) -> tuple[list[Any], list[Finding]]:
        """Results and findings with each model's probe named after the model (`hf::gpt2`),
        not after the temporary file that built it."""
        from breaklint.dynamic.model import Probe

        labels = {
            f"{self.probe_file}::{model.probe}": Probe(HF_PROBES, model.spec, 1)
            for model in self.models
        }
        relabeled = [
            dataclasses.replace(r, probe=labels[r.probe.key]) if r.probe.key in labels else r
            for r in results
        ]
        kept = []
        for f in findings:
            label = labels.get(f.evidence.probe) if f.evidence is not None else None
            if f.evidence is not None and label is not None:
                moved = f.path == self.probe_file  # a failed probe points at its function
                f = dataclasses.replace(
                    f,
                    evidence=dataclasses.replace(f.evidence, probe=label.key),
                    path=label.path if moved else f.path,
                    range=(
                        dataclasses.replace(f.range, line=label.line, end_line=label.line)
                        if moved
                        else f.range
                    ),
                )
            kept.append(f)
        return relabeled, kept

    def build_failures(self, results: Sequence[Any]) -> list[tuple[HFModel, str]]:
        """The models that could not be built, with the reason (ProbeResults in)."""
        failed = []
        for result in results:
            model = self._model(result)
            if model is not None and (result.error or "").startswith(_BUILD_ERROR):
                failed.append((model, result.error.removeprefix(_BUILD_ERROR)))
        return failed

    def rows(self, results: Sequence[Any], findings: Sequence[Finding]) -> list[ModelRow]:
        """One row per model: what Dynamo did and how many findings its files hold."""
        rows = []
        for result in results:
            model = self._model(result)
            if model is None:
                continue
            sources = {os.path.realpath(path) for path in model.sources}
            found = sum(
                1
                for f in findings
                if os.path.realpath(f.path) in sources
                or getattr(f.evidence, "probe", None) == result.probe.key
            )
            error = result.error or ""
            built = not error.startswith(_BUILD_ERROR)
            rows.append(
                ModelRow(
                    model=model.spec,
                    status=result.status.value if built else "not built",
                    graphs=result.graphs,
                    breaks=result.graph_breaks,
                    frames_skipped=result.frames_skipped,
                    findings=found,
                    wall_s=result.wall_s,
                    note=error.removeprefix(_BUILD_ERROR),
                )
            )
        return rows


def write_table(rows: Sequence[ModelRow], out: IO[str]) -> None:
    """The model table: which models compile to one graph on this torch."""
    width = max([len("model"), *(len(row.model) for row in rows)])
    out.write(f"{'model':<{width}}  {'status':<9}  graphs  breaks  skipped  findings  time\n")
    for row in rows:
        line = (
            f"{row.model:<{width}}  {row.status:<9}  {row.graphs:>6}  {row.breaks:>6}  "
            f"{row.frames_skipped:>7}  {row.findings:>8}  {row.wall_s:>5.1f}s"
        )
        out.write(f"{line}  {row.note}\n" if row.note else f"{line}\n")


@cache
def model_sources(mode: str) -> dict[str, tuple[str, ...]]:
    """Model type -> the modeling files `--hf TYPE` runs in `mode`, for every type of the
    installed transformers, as its own registries say (see `breaklint.hf.modeling_sources`)."""
    if importlib.util.find_spec("transformers") is None:
        raise HFError("--hf needs transformers: pip install 'breaklint[hf]'")
    asked = subprocess.run(
        [sys.executable, "-c", _ASK_REGISTRY, mode],
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        sources = json.loads(asked.stdout) if asked.returncode == 0 else None
    except ValueError:
        sources = None
    if not isinstance(sources, dict):
        last = (asked.stderr.strip().splitlines() or ["no output"])[-1]
        raise HFError(f"--hf: cannot read the model registry of transformers: {last}")
    return {model_type: tuple(files) for model_type, files in sources.items()}


def _resolve(spec: str, request: HFRequest) -> tuple[str, tuple[str, ...]]:
    """(the name its probe is named after, its modeling files) for a type or a folder."""
    if not is_folder(spec):
        return spec, _type_sources(spec, spec, request.mode)
    if not os.path.isdir(spec):
        raise HFError(f"--hf {spec}: no such folder")
    try:
        config = folder_config(spec)
    except ModelBuildError as problem:
        raise HFError(f"--hf {spec}: {problem.reason}") from None
    name = os.path.basename(os.path.normpath(spec))
    if config.get("auto_map"):
        if not request.trust_remote_code:
            raise HFError(
                f"--hf {spec}: config.json maps to custom modeling code in that folder "
                "(auto_map); it runs only with --trust-remote-code"
            )
        return name, tuple(str(p) for p in sorted(Path(spec).glob("*.py")))
    model_type = config.get("model_type")
    if not isinstance(model_type, str):
        raise HFError(f"--hf {spec}: its config.json names no model_type and no auto_map")
    return name, _type_sources(model_type, spec, request.mode)


def _type_sources(model_type: str, spec: str, mode: str) -> tuple[str, ...]:
    sources = model_sources(mode).get(model_type)
    if sources is None:
        import importlib.metadata  # only for this message: it costs every run 15 ms to import

        version = importlib.metadata.version("transformers")
        folder = f"; a folder is written as a path: ./{spec}" if os.path.isdir(spec) else ""
        raise HFError(
            f"--hf {spec}: unknown model type '{model_type}' for transformers {version}{folder}"
        )
    return sources


def _probe_name(name: str, taken: set[str]) -> str:
    base = "probe_" + (re.sub(r"\W", "_", name).strip("_") or "model")
    probe, number = base, 2
    while probe in taken:
        probe, number = f"{base}_{number}", number + 1
    taken.add(probe)
    return probe


def _write_probes(path: str, models: Sequence[HFModel], request: HFRequest) -> None:
    lines = [
        '"""Generated by breaklint --hf: one probe per model."""',
        "",
        "from breaklint.hf import build",
    ]
    for model in models:
        trust = request.trust_remote_code
        call = f"build({model.spec!r}, {request.mode!r}, trust_remote_code={trust})"
        lines += ["", "", f"def {model.probe}():", f"    return {call}.as_probe()"]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def prepared(request: HFRequest | None) -> HFRun | None:
    """The run's models and the probe file that builds them (in a temporary folder, removed
    by `HFRun.close`); None without --hf."""
    if request is None or not request.models:
        return None
    zoo = request.models == (ALL,)
    specs = sorted(model_sources(request.mode)) if zoo else list(request.models)
    taken: set[str] = set()
    models = []
    for spec in specs:
        name, sources = _resolve(spec, request)
        models.append(HFModel(spec, _probe_name(name, taken), sources))
    folder = tempfile.TemporaryDirectory(prefix="breaklint-hf-")
    probe_file = os.path.join(folder.name, "hf_models.py")
    _write_probes(probe_file, models, request)
    return HFRun(request, models, probe_file, folder)
