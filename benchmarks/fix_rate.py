"""The fix rate: how many of the graph breaks Dynamo takes in a model's own code
`--fix --unsafe-fixes` removes, with the model's eager outputs unchanged.

    python benchmarks/fix_rate.py --local [--out DIR]
    python benchmarks/fix_rate.py --libraries x-transformers vit-pytorch \\
        --python /work/bench-venv/bin/python [--breaking-probes ACCURACY_DIR] [--out DIR]
    python benchmarks/fix_rate.py --repositories nerf_pytorch pygat --checkouts CHECKOUTS \\
        --python /work/bench-venv/bin/python [--breaking-probes REPOSITORIES_DIR] [--out DIR]

A target is code plus probes. `--local` measures breaklint's own corpora with their probes:
tests/corpus, tests/fixes and examples. `--libraries` takes libraries of the accuracy
benchmark (`library_accuracy.py`: its halves, its builder modules in benchmarks/libraries/ and
the same seeded probes, one per builder and mode) and measures the installed packages of
`--python`, copied. `--breaking-probes` names a `library_accuracy.py --out` folder: breaklint
then runs only the probes that broke or skipped a frame there (the others have no break to
remove), while the eager outputs are still compared on every probe. `--repositories` takes the
research repositories of `repository_breaks.py` (CHECKOUTS holds one checkout per name, its
probes are `benchmarks/repositories/<name>.py`, written into the copy as `probes/probes.py`,
where they find the checkout from their own path, and never linted or fixed); there
`--breaking-probes` names a `repository_breaks.py --out` folder, and a repository where no
probe broke is not run.

For each target, on a copy (the originals are never written): the eager outputs of every
probe are saved (seeded, called once, no compiling), breaklint with the probes collects the
truth (the statements where Dynamo broke or skipped a frame: confirmed static findings and
BL900/BL901), `--fix --unsafe-fixes` with the same probes fixes the copy (with probes a file
keeps its fixes only when every probe gives equal eager outputs and breaks no more; its report
is the truth after the fixes), and the eager outputs are compared again here, independently,
value by value as `--fix` compares them (`breaklint.dynamic.outputs`: tensors inside tuples,
dicts, dataclasses and objects such as caches, tolerances by dtype, NaN equal to NaN). Before
any fix the unfixed code runs a second time: a probe whose outputs differ already is
nondeterministic (its own column, with how they differed), and its outputs after the fixes are
not compared. A break statement is matched before and after by its file
and its text (fixes insert lines, so line numbers move).

- not fixable in source: breaks outside the target's own code (in torch, in another package),
  and those `fix_rate_unfixable.json` lists, each with why no rewrite of the source can remove
  it and keep the eager outputs (a data-dependent output shape, Python's or numpy's random
  stream, ...); they are listed with Dynamo's reason. The list was written from the tuning
  half's breaks and breaklint's own corpora; a break it does not list counts as fixable;
- fix rate = fixable break statements gone after the fixes / fixable break statements; the
  table also counts the breaks flagged by a rule that offers a fix, and those whose finding
  carried one before fixing ("fix announced": a later round can fix more, `if` under `if`);
- a config traces: of the fixable breaks, those that go away under a `torch._dynamo.config`
  setting, as breaklint measured it (its findings' `config_knob`: the probe rerun with
  `capture_scalar_outputs` or `capture_dynamic_output_shape_ops`, where Dynamo's message names
  it, no longer breaks on the line). A source rewrite removes such a break only where the
  number or the data-dependent shape never leaves the statement (`x[mask].sum()` as a
  `torch.where`); where it does (`torch.unique`, `torch.nonzero` feeding later code), only the
  config does. The rate is given both ways: with them counted fixable, and without them.

Each fixable break left after the fixes is listed with why (`why_left`): Dynamo's alone, no
static finding on it (a detection miss); a static finding without a fix; a fix made and undone
because a probe rejected it (other eager outputs, more breaks, a failure); or a fix offered and
the break still there (the fix was not made, or Dynamo still breaks on the fixed statement).

Prints one table; with --out writes DIR/fix_rate.md and DIR/fix_rate.json.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath

# A sibling module: a script's own folder comes first on sys.path.
from library_accuracy import (
    LIBRARIES,
    inspect_environment,
    module_path,
    probe_targets,
    read_library,
    write_probe_file,
)
from repository_breaks import PROBES as REPOSITORY_PROBES
from repository_breaks import REPOSITORIES

REPO = Path(__file__).resolve().parent.parent
LOCAL = ("tests/corpus", "tests/fixes", "examples")  # each a folder with a probes.py
UNFIXABLE_FILE = Path(__file__).with_name("fix_rate_unfixable.json")
RECOMPILE_KINDS = frozenset({"recompiles"})
NOTHING_TO_FIX = "-"  # the eager outputs, not compared: no probe broke, nothing was fixed
EQUAL = "equal"
NONDETERMINISTIC = "nondeterministic"
VERDICTS = (EQUAL, NONDETERMINISTIC, NOTHING_TO_FIX)  # the eager outputs' cells, but "differ"
OUTSIDE = "outside the target's code (in torch or another package): nothing to rewrite there"


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    sources: tuple[Path, ...]  # folders copied under src/ (a package keeps its name)
    packages: bool  # copy each source as a package folder, rather than its files
    probes: str  # the probes file's text
    eager_probes: str  # the probes whose eager outputs are compared
    half: str = "local"  # the accuracy benchmark's half of a library
    # Files the probes import, written beside them by name (a library's builders module).
    beside: tuple[tuple[str, str], ...] = ()
    # Where the probes are written in the work folder: a repository's find the checkout from
    # their own path (`src/probes`); this folder is never linted, fixed or counted as the code.
    probes_folder: str = "."


@dataclass(slots=True)
class Break:
    path: str
    line: int
    text: str  # the statement's first line, stripped
    codes: list[str]
    reason: str  # Dynamo's gb_type
    announced: bool = False  # a finding on it carried a fix
    unfixable: str | None = None  # why no rewrite of the source can remove it
    config: str | None = None  # the `torch._dynamo.config` setting it goes away under

    @property
    def key(self) -> tuple[str, str]:
        return (self.path, self.text)


@dataclass(slots=True)
class Result:
    target: str
    half: str
    before: int
    flagged: int  # break statements a rule that offers a fix flags
    announced: int  # of those, the ones whose finding carried a fix before fixing
    fixable: int  # break statements fixable in source
    removed: int  # of those, the ones gone after the fixes
    configurable: int  # of the fixable, those a config removes (`config_knob`)
    removed_configurable: int  # of those, the ones gone after the fixes
    after: int
    new: int
    # The eager outputs after the fixes, compared here on the probes whose outputs the unfixed
    # code reproduces: EQUAL, NONDETERMINISTIC (no probe does) or how they differ.
    outputs: str
    nondeterministic: list[str] = field(default_factory=list)  # probes: how two unfixed runs differ
    undone: list[str] = field(default_factory=list)  # breaklint's messages about undone fixes
    not_fixable: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)  # fixable breaks still there, each with why
    why_left: dict[str, int] = field(default_factory=dict)  # how many were left for each why
    failed: list[str] = field(default_factory=list)  # probes that did not run, before fixing
    failed_after: list[str] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def rate(self) -> float:
        return self.removed / self.fixable if self.fixable else 0.0

    @property
    def rate_without_config(self) -> float:
        """The fix rate with the breaks a config traces left out."""
        fixable = self.fixable - self.configurable
        return (self.removed - self.removed_configurable) / fixable if fixable else 0.0


def fixing_rules(python: str) -> frozenset[str]:
    """The codes of the rules that offer a fix, as the checked-out breaklint declares them."""
    code = (
        "from breaklint.rule import all_rules; "
        "print(' '.join(c for c, r in all_rules().items() if r.fix_applicability))"
    )
    out = subprocess.run(
        [python, "-c", code], env=_environment(()), capture_output=True, text=True, check=True
    )
    return frozenset(out.stdout.split())


def unfixable_breaks() -> dict[tuple[str, str, str], str]:
    """The breaks no source rewrite can remove with equal eager outputs, by (target, file,
    statement text): why."""
    listed = json.loads(UNFIXABLE_FILE.read_text(encoding="utf-8"))
    return {(e["target"], e["path"], e["text"]): e["reason"] for e in listed["breaks"]}


def _environment(paths: Sequence[Path]) -> dict[str, str]:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join([str(REPO), *map(str, paths)])
    return environment


def breaklint(
    python: str, work: Path, target: Target, jobs: int, *options: str
) -> subprocess.CompletedProcess[str]:
    probes = str(PurePosixPath(target.probes_folder, "probes.py"))  # `probes.py` in `.`
    command = [python, "-m", "breaklint", "src", "--isolated", "--probes", probes]
    command += ["--no-cache", "--jobs", str(jobs), "--output-format", "json", "--exit-zero"]
    if target.probes_folder != ".":
        command += ["--extend-exclude", target.probes_folder]
    return subprocess.run(
        [*command, *options],
        cwd=work,
        env=_environment([work / "src"]),
        capture_output=True,
        text=True,
        check=False,
    )


def breaks(
    result: subprocess.CompletedProcess[str], work: Path, target: Target
) -> tuple[list[Break], list[str]]:
    """The break statements Dynamo showed on the probes in breaklint's JSON report, and the
    probes that did not run."""
    try:
        report = json.loads(result.stdout)
        findings = report["findings"]
    except (json.JSONDecodeError, KeyError) as error:
        raise SystemExit(f"breaklint gave no report in {work}: {result.stderr[-2000:]}") from error
    failed = [
        f"{probe['probe']}: {probe['status']}"
        for probe in report["probes"]
        if probe["status"] != "ok"
    ]
    unfixable = unfixable_breaks()
    code = (work / "src").resolve()
    probes = (work / target.probes_folder).resolve()
    found: dict[tuple[str, int], Break] = {}
    for finding in findings:
        real = finding["status"] == "confirmed" or finding["origin"] == "dynamic"
        if not real or finding.get("kind") in RECOMPILE_KINDS or finding["code"] == "BL902":
            continue
        where = (finding["path"], finding["line"])
        source = work / finding["path"]
        lines = source.read_text(encoding="utf-8").splitlines() if source.is_file() else []
        text = lines[finding["line"] - 1].strip() if finding["line"] <= len(lines) else ""
        entry = found.setdefault(where, Break(*where, text, [], finding.get("gb_type") or ""))
        entry.codes.append(finding["code"])
        entry.announced |= finding.get("fix") is not None
        entry.config = entry.config or finding.get("config_knob")
        where_is = source.resolve()
        # The probes written into the code's folder (a repository's) are not the code.
        in_probes = probes.is_relative_to(code) and where_is.is_relative_to(probes)
        inside = where_is.is_relative_to(code) and not in_probes
        entry.unfixable = OUTSIDE if not inside else unfixable.get((target.name, *entry.key))
    return list(found.values()), failed


# Run by the target's interpreter: every probe's eager outputs, seeded as breaklint's probes
# are, saved (`save`) or compared with those saved (`compare`, printing how they differ) as
# `--fix` compares them (breaklint.dynamic.outputs: value by value, NaN equal to NaN).
_EAGER_OUTPUTS = """
import importlib.util, json, sys
import torch
from breaklint.dynamic.outputs import difference, flatten
from breaklint.dynamic.probe_call import seed
probes_path, outputs_path, mode = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("fix_rate_probes", probes_path)
probes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(probes)
outputs = {}
for name in sorted(n for n in vars(probes) if n.startswith("probe_")):
    seed()
    function, args, *rest = getattr(probes, name)()
    seed()
    try:
        outputs[name] = flatten(function(*args, **(rest[0] if rest else {})))
    except Exception as error:
        outputs[name] = {"raised": f"{type(error).__name__}: {error}"}
if mode == "save":
    torch.save(outputs, outputs_path)
    raise SystemExit(0)
saved = torch.load(outputs_path, weights_only=False)
differ = {}
for name in sorted(set(saved) | set(outputs)):
    why = difference(outputs.get(name, {}), saved.get(name, {}))
    if why is not None:
        differ[name] = why[:300]
print(json.dumps(differ))
"""
EAGER_FAILED = "*"  # the key of eager_outputs' answer when the probes did not run


def eager_outputs(python: str, work: Path, mode: str, folder: str = ".") -> dict[str, str]:
    """Save the probes' eager outputs (`save`), or compare them with those saved: how each
    probe's differ, by probe name. The probes are `folder/eager_probes.py` in `work`."""
    probes = str(PurePosixPath(folder, "eager_probes.py"))
    done = subprocess.run(
        [python, "-c", _EAGER_OUTPUTS, probes, str(work / "outputs.pt"), mode],
        cwd=work,
        env=_environment([work / "src"]),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return {EAGER_FAILED: f"the probes did not run eagerly: {done.stderr.strip()[-500:]}"}
    if mode != "compare":
        return {}
    # The answer is the last line: the code the probes run may print on its own.
    return json.loads(done.stdout.splitlines()[-1])


def outputs_verdict(unsteady: dict[str, str], differ: dict[str, str], probes: int) -> str:
    """The eager outputs after the fixes, from how each probe's differed on an unfixed rerun
    (`unsteady`) and after the fixes (`differ`), out of `probes`: how those the unfixed code
    reproduces differ, else EQUAL, or NONDETERMINISTIC when it reproduces none."""
    if EAGER_FAILED in unsteady:
        return unsteady[EAGER_FAILED]
    compared = {name: why for name, why in differ.items() if name not in unsteady}
    if compared:
        return "; ".join(f"{name}: {why}" for name, why in compared.items())
    return NONDETERMINISTIC if len(unsteady) == probes else EQUAL


def measure(target: Target, python: str, fixers: frozenset[str], jobs: int) -> Result:
    started = time.perf_counter()
    if "def probe_" not in target.probes:  # no probe broke in the accuracy run
        return Result(target.name, target.half, 0, 0, 0, 0, 0, 0, 0, 0, 0, NOTHING_TO_FIX)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        for source in target.sources:
            if target.packages:
                shutil.copytree(source, work / "src" / source.name, ignore=_COPIED_NOT)
            else:
                shutil.copytree(source, work / "src", dirs_exist_ok=True, ignore=_COPIED_NOT)
        (work / "src" / "probes.py").unlink(missing_ok=True)  # probes are not linted or fixed
        folder = work / target.probes_folder
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "probes.py").write_text(target.probes, encoding="utf-8")
        (folder / "eager_probes.py").write_text(target.eager_probes, encoding="utf-8")
        for name, text in target.beside:
            (folder / name).write_text(text, encoding="utf-8")
        unsaved = eager_outputs(python, work, "save", target.probes_folder)
        # The unfixed code run again: probes whose outputs differ already are not reproducible,
        # and their outputs after the fixes prove nothing.
        unsteady = unsaved or eager_outputs(python, work, "compare", target.probes_folder)
        before, failed = breaks(breaklint(python, work, target, jobs), work, target)
        fixed = breaklint(python, work, target, jobs, "--fix", "--unsafe-fixes")
        after, failed_after = breaks(fixed, work, target)
        differ = unsaved or eager_outputs(python, work, "compare", target.probes_folder)
    remaining = {b.key for b in after}
    flagged = [b for b in before if fixers & set(b.codes)]
    fixable = [b for b in before if b.unfixable is None]
    configurable = [b for b in fixable if b.config is not None]
    undone = [line for line in fixed.stderr.splitlines() if "undone" in line]
    left = {_describe(b): why_left(b, undone) for b in fixable if b.key in remaining}
    known = {b.key for b in before}
    return Result(
        target.name,
        target.half,
        before=len(before),
        flagged=len(flagged),
        announced=sum(b.announced for b in flagged),
        fixable=len(fixable),
        removed=sum(b.key not in remaining for b in fixable),
        configurable=len(configurable),
        removed_configurable=sum(b.key not in remaining for b in configurable),
        after=len(after),
        new=sum(b.key not in known for b in after),
        outputs=outputs_verdict(unsteady, differ, target.eager_probes.count("\ndef probe_")),
        nondeterministic=[] if unsaved else [f"{name}: {why}" for name, why in unsteady.items()],
        undone=undone,
        not_fixable=[f"{_describe(b)}: {b.unfixable}" for b in before if b.unfixable],
        left=[f"{described}: {why}" for described, why in left.items()],
        why_left=dict(Counter(left.values()).most_common()),
        failed=failed,
        failed_after=failed_after,
        wall_s=round(time.perf_counter() - started, 1),
    )


_COPIED_NOT = shutil.ignore_patterns("__pycache__", "*.pyc", ".git")


# Why a fixable break was left, in the order the fixing goes: found, offered, kept, enough.
NO_FINDING = "no static finding (only Dynamo's: a detection miss)"
NO_FIX = "a static finding without a fix"
UNDONE = "a fix made and undone: a probe rejected it"
STAYS = "a fix offered, the break stays (not made, or made and Dynamo still breaks)"
DYNAMIC_CODES = frozenset({"BL900", "BL901"})


def why_left(entry: Break, undone: list[str]) -> str:
    """Why a fixable break is still there after the fixes; `undone`: breaklint's messages about
    the fixes the probes undid (`path: fixes (CODE at line N, ...) undone...`)."""
    if set(entry.codes) <= DYNAMIC_CODES:
        return NO_FINDING
    if not entry.announced:
        return NO_FIX
    named = f"at line {entry.line}"
    for message in undone:
        # The fixes named before "undone" are those undone (those after it were kept).
        if entry.path in message and named in message.partition(" undone")[0]:
            return UNDONE
    return STAYS


def _describe(entry: Break) -> str:
    config = f"; `{entry.config}` traces it" if entry.config else ""
    codes = "/".join(entry.codes)
    return f"{entry.path}:{entry.line} {codes} `{entry.text}` ({entry.reason}{config})"


def local_targets() -> list[Target]:
    return [
        Target(folder, (REPO / folder,), False, probes, probes)
        for folder in LOCAL
        for probes in [(REPO / folder / "probes.py").read_text(encoding="utf-8")]
    ]


def library_target(name: str, python: str, accuracy_run: Path | None) -> Target:
    """A library of the accuracy benchmark as a target: its installed packages, and the
    probes that benchmark writes (seeded; one per builder and mode). With `accuracy_run` (a
    `library_accuracy.py --out` folder), breaklint runs only the probes that broke or skipped
    a frame there; the eager outputs are compared on every probe all the same."""
    library = read_library(name, LIBRARIES[name], module_path(name))
    environment = inspect_environment(library, python, REPO)
    sources = tuple(Path(environment["folders"][package][0]) for package in library.packages)
    targets = probe_targets(library)
    broke = targets
    if accuracy_run is not None:
        results = json.loads((accuracy_run / name / "results.json").read_text())
        names = {r["probe"] for r in results["probe_rows"] if r["breaks"] or r["frames_skipped"]}
        broke = [target for target in targets if target.function in names]
    with tempfile.TemporaryDirectory() as temporary:
        probe_file = Path(temporary) / "probes.py"
        write_probe_file(probe_file, library, broke)
        probes = probe_file.read_text(encoding="utf-8")
        write_probe_file(probe_file, library, targets)
        eager_probes = probe_file.read_text(encoding="utf-8")
        # write_probe_file puts the builders module beside the probes, which import it.
        beside = tuple(
            (path.name, path.read_text(encoding="utf-8"))
            for path in sorted(Path(temporary).glob("*.py"))
            if path != probe_file
        )
    return Target(name, sources, True, probes, eager_probes, library.half, beside)


def repository_target(name: str, checkouts: Path, breaks_run: Path | None) -> Target | None:
    """A research repository of `repository_breaks.py` as a target: its checkout, with its
    probes written where they find it (`src/probes`). With `breaks_run` (a
    `repository_breaks.py --out` folder), breaklint runs only the probes that broke or skipped a
    frame there, and a repository where none did is left out (None)."""
    probes = (REPOSITORY_PROBES / f"{name}.py").read_text(encoding="utf-8")
    broke = probes
    if breaks_run is not None:
        report = json.loads((breaks_run / f"{name}.json").read_text(encoding="utf-8"))
        names = {p["name"] for p in report["probes"] if p["breaks"] or p["frames_skipped"]}
        if not names:
            return None
        broke = only_probes(probes, names)
    return Target(name, (checkouts / name,), False, broke, probes, "repositories", (), "src/probes")


def only_probes(probes: str, names: set[str]) -> str:
    """The probe file `probes` without the probe functions (`probe_*`) not in `names`."""
    lines = probes.splitlines(keepends=True)
    for node in reversed(ast.parse(probes).body):
        dropped = isinstance(node, ast.FunctionDef) and node.name.startswith("probe_")
        if dropped and node.name not in names:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            del lines[first - 1 : node.end_lineno]
    return "".join(lines)


def markdown(results: list[Result], held_out_details: bool = True) -> str:
    """The table of `results`, then each target's breaks left and why (for the held-out half
    only with `held_out_details`: its lines are not read while tuning)."""
    rows = [
        "| target | half | break statements | flagged by a fixing rule | fix announced "
        "| fixable in source | removed | fix rate | a config traces | fix rate without them "
        "| after | new | nondeterministic probes | eager outputs |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        outputs = r.outputs if r.outputs in VERDICTS else "differ"
        rows.append(
            f"| {r.target} | {r.half} | {r.before} | {r.flagged} | {r.announced} | {r.fixable} "
            f"| {r.removed} | {r.rate:.0%} | {r.configurable} | {r.rate_without_config:.0%} "
            f"| {r.after} | {r.new} | {len(r.nondeterministic)} | {outputs} |"
        )
    for half in dict.fromkeys(r.half for r in results):
        rows.append(_total(half, [r for r in results if r.half == half]))
    sections = ["\n".join(rows)]
    for r in results:
        if r.half == "heldout" and not held_out_details:
            continue
        for title, items in (
            ("not fixable in source", r.not_fixable),
            ("fixable but left, why", [f"{n}: {why}" for why, n in r.why_left.items()]),
            ("fixable but left", r.left),
            ("fixes undone by the probes", r.undone),
            ("eager outputs after the fixes", [] if r.outputs in VERDICTS else [r.outputs]),
            ("eager outputs that two unfixed runs do not reproduce", r.nondeterministic),
            ("probes that did not run before fixing", r.failed),
            ("probes that did not run after fixing", r.failed_after),
        ):
            if items:
                sections.append(f"{r.target}, {title}:\n" + "\n".join(f"- {i}" for i in items))
    return "\n\n".join(sections) + "\n"


def _total(half: str, results: list[Result]) -> str:
    fixable = sum(r.fixable for r in results)
    removed = sum(r.removed for r in results)
    rate = f"{removed / fixable:.0%}" if fixable else "-"
    configurable = sum(r.configurable for r in results)
    in_source = fixable - configurable
    removed_in_source = removed - sum(r.removed_configurable for r in results)
    rate_in_source = f"{removed_in_source / in_source:.0%}" if in_source else "-"
    equal = all(r.outputs in VERDICTS for r in results)
    return (
        f"| all | {half} | {sum(r.before for r in results)} | {sum(r.flagged for r in results)} "
        f"| {sum(r.announced for r in results)} | {fixable} | {removed} | {rate} "
        f"| {configurable} | {rate_in_source} "
        f"| {sum(r.after for r in results)} | {sum(r.new for r in results)} "
        f"| {sum(len(r.nondeterministic) for r in results)} | {EQUAL if equal else 'differ'} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--local", action="store_true", help="breaklint's own corpora")
    parser.add_argument(
        "--libraries", nargs="*", default=[], choices=list(LIBRARIES), help="benchmark libraries"
    )
    parser.add_argument(
        "--repositories", nargs="*", default=[], choices=list(REPOSITORIES), help="research code"
    )
    parser.add_argument("--checkouts", type=Path, help="the repositories' checkouts, by name")
    parser.add_argument("--python", default=sys.executable, help="the environment to run in")
    parser.add_argument("--jobs", type=int, default=2, help="breaklint's worker processes")
    parser.add_argument(
        "--breaking-probes",
        type=Path,
        metavar="DIR",
        help=(
            "run breaklint only on the probes that broke in this library_accuracy.py run "
            "(with --repositories, this repository_breaks.py run)"
        ),
    )
    parser.add_argument("--out", type=Path)
    options = parser.parse_args(argv)
    targets = local_targets() if options.local else []
    targets += [
        library_target(name, options.python, options.breaking_probes) for name in options.libraries
    ]
    if options.repositories and options.checkouts is None:
        parser.error("--repositories needs --checkouts")
    for name in options.repositories:
        target = repository_target(name, options.checkouts, options.breaking_probes)
        targets += [] if target is None else [target]
    if not targets:
        parser.error("name --local, --libraries or --repositories (with breaking probes)")
    fixers = fixing_rules(options.python)
    results = []
    for target in targets:
        result = measure(target, options.python, fixers, options.jobs)
        print(f"{target.name}: {result.removed}/{result.fixable} ({result.wall_s}s)", flush=True)
        results.append(result)
        if options.out:  # after each target: a long run keeps what it measured
            write(options.out, results)
    # The terminal shows the held-out half's rows only; their details go to --out's files.
    print(markdown(results, held_out_details=False))
    return 0


def write(out: Path, results: list[Result]) -> None:
    """DIR/fix_rate.md and DIR/fix_rate.json of `results`."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "fix_rate.md").write_text(markdown(results), encoding="utf-8")
    document = [
        {**asdict(r), "rate": r.rate, "rate_without_config": r.rate_without_config} for r in results
    ]
    (out / "fix_rate.json").write_text(json.dumps(document, indent=2) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
