"""The fix rate: how many of the graph breaks Dynamo takes in a model's own code
`--fix --unsafe-fixes` removes, with the model's eager outputs unchanged.

    python benchmarks/fix_rate.py --local [--out DIR]
    python benchmarks/fix_rate.py --libraries vit_pytorch x_transformers \\
        --python /work/bench-venv/bin/python [--library-folder benchmarks/libraries] [--out DIR]

A target is code plus probes. `--local` measures breaklint's own corpora with their probes:
tests/corpus, tests/fixes and examples. `--libraries` takes library builder modules (the
format of benchmarks/libraries/: `PACKAGES`, `MODES` and `build_<model>()` or
`build_<model>(mode)` returning `(callable, args)` or `(callable, args, kwargs)`) and measures
the installed packages of `--python`, copied, with one probe per builder and mode.

For each target, on a copy (the originals are never written): breaklint with the probes
collects the truth (the statements where Dynamo broke or skipped a frame: confirmed static
findings and BL900/BL901), `--fix --unsafe-fixes` with the same probes fixes the copy (with
probes a file keeps its fixes only when every probe gives equal eager outputs and breaks no
more; see the README), and the truth is collected again. A break statement is matched before
and after by its file and its text (fixes insert lines, so line numbers move).

- fixable in source: break statements a rule that offers a fix flags (BL900/BL901 and breaks
  of rules without a fix are listed apart, with Dynamo's reason); "fix announced" counts those
  whose finding carried a fix before fixing (a later round can fix more: `if` under `if`);
- fix rate = fixable break statements gone after the fixes / fixable break statements.

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
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LOCAL = ("tests/corpus", "tests/fixes", "examples")  # each a folder with a probes.py
RECOMPILE_KINDS = frozenset({"recompiles"})


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    sources: tuple[Path, ...]  # folders copied under src/ (a package keeps its name)
    packages: bool  # copy each source as a package folder, rather than its files
    probes: str  # the probes file's text
    imports: tuple[Path, ...] = ()  # folders the probes import from besides the copy


@dataclass(slots=True)
class Break:
    path: str
    line: int
    text: str  # the statement's first line, stripped
    codes: list[str]
    reason: str  # Dynamo's gb_type
    announced: bool = False  # a finding on it carried a fix

    @property
    def key(self) -> tuple[str, str]:
        return (self.path, self.text)


@dataclass(slots=True)
class Result:
    target: str
    before: int
    fixable: int
    announced: int  # fixable break statements whose finding carried a fix before fixing
    removed: int
    after: int
    new: int
    undone: list[str] = field(default_factory=list)  # breaklint's messages about undone fixes
    not_fixable: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)  # fixable breaks still there
    failed: list[str] = field(default_factory=list)  # probes that did not run, before fixing
    failed_after: list[str] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def rate(self) -> float:
        return self.removed / self.fixable if self.fixable else 0.0


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


def _environment(paths: Sequence[Path]) -> dict[str, str]:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join([str(REPO), *map(str, paths)])
    return environment


def breaklint(
    python: str, work: Path, imports: Sequence[Path], *options: str
) -> subprocess.CompletedProcess[str]:
    command = [python, "-m", "breaklint", "src", "--probes", "probes.py", "--no-cache", *options]
    return subprocess.run(
        command,
        cwd=work,
        env=_environment([work / "src", *imports]),
        capture_output=True,
        text=True,
        check=False,
    )


def breaks(python: str, work: Path, imports: Sequence[Path]) -> tuple[list[Break], list[str]]:
    """The break statements Dynamo showed on the probes, and the probes that did not run."""
    result = breaklint(python, work, imports, "--output-format", "json", "--exit-zero")
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
    found: dict[tuple[str, int], Break] = {}
    for finding in findings:
        real = finding["status"] == "confirmed" or finding["origin"] == "dynamic"
        if not real or finding.get("kind") in RECOMPILE_KINDS or finding["code"] == "BL902":
            continue
        where = (finding["path"], finding["line"])
        lines = (work / finding["path"]).read_text(encoding="utf-8").splitlines()
        text = lines[finding["line"] - 1].strip() if finding["line"] <= len(lines) else ""
        entry = found.setdefault(where, Break(*where, text, [], finding.get("gb_type") or ""))
        entry.codes.append(finding["code"])
        entry.announced |= finding.get("fix") is not None
    return list(found.values()), failed


def measure(target: Target, python: str, fixers: frozenset[str]) -> Result:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        for source in target.sources:
            if target.packages:
                shutil.copytree(source, work / "src" / source.name)
            else:
                shutil.copytree(source, work / "src", dirs_exist_ok=True)
        (work / "src" / "probes.py").unlink(missing_ok=True)  # probes are not linted or fixed
        (work / "probes.py").write_text(target.probes, encoding="utf-8")
        before, failed = breaks(python, work, target.imports)
        fixed = breaklint(python, work, target.imports, "--fix", "--unsafe-fixes")
        after, failed_after = breaks(python, work, target.imports)
    remaining = {b.key for b in after}
    fixable = [b for b in before if fixers & set(b.codes)]
    removed = [b for b in fixable if b.key not in remaining]
    known = {b.key for b in before}
    return Result(
        target.name,
        before=len(before),
        fixable=len(fixable),
        announced=sum(b.announced for b in fixable),
        removed=len(removed),
        after=len(after),
        new=sum(b.key not in known for b in after),
        undone=[line for line in fixed.stderr.splitlines() if "undone" in line],
        not_fixable=[_describe(b) for b in before if not fixers & set(b.codes)],
        left=[_describe(b) for b in fixable if b.key in remaining],
        failed=failed,
        failed_after=failed_after,
        wall_s=round(time.perf_counter() - started, 1),
    )


def _describe(entry: Break) -> str:
    return f"{entry.path}:{entry.line} {'/'.join(entry.codes)} `{entry.text}` ({entry.reason})"


def local_targets() -> list[Target]:
    return [
        Target(
            folder,
            (REPO / folder,),
            packages=False,
            probes=(REPO / folder / "probes.py").read_text(encoding="utf-8"),
        )
        for folder in LOCAL
    ]


def library_target(module: Path, python: str) -> Target:
    """A library builder module as a target: its installed packages and a probe per builder
    and mode (read with `ast`; the module is imported only by the probes)."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    declared = {
        target.id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id in ("PACKAGES", "MODES")
    }
    # Loaded by path: a builder module may share its name with the package it builds from.
    lines = [
        "import importlib.util",
        "",
        "import torch",
        "",
        f"_spec = importlib.util.spec_from_file_location('library_builders', {str(module)!r})",
        "library = importlib.util.module_from_spec(_spec)",
        "_spec.loader.exec_module(library)",
        "",
    ]
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("build_"):
            takes_mode = [a.arg for a in node.args.args] == ["mode"]
            for mode in declared["MODES"]:
                call = f"library.{node.name}({mode!r})" if takes_mode else f"library.{node.name}()"
                lines += [
                    f"def probe_{node.name.removeprefix('build_')}_{mode}():",
                    f"    built = {call}",
                    "    if isinstance(built[0], torch.nn.Module):",
                    f"        built[0].train({mode == 'train'})",
                    "    return built",
                    "",
                ]
    locate = (
        "import importlib.util, sys; "
        "print(importlib.util.find_spec(sys.argv[1]).submodule_search_locations[0])"
    )
    sources = tuple(
        Path(
            subprocess.run(
                [python, "-c", locate, package], capture_output=True, text=True, check=True
            ).stdout.strip()
        )
        for package in declared["PACKAGES"]
    )
    probes = "\n".join(lines)
    return Target(module.stem, sources, packages=True, probes=probes)


def markdown(results: list[Result]) -> str:
    rows = [
        "| target | break statements | fixable in source | fix announced | removed | fix rate "
        "| after | new |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        rows.append(
            f"| {r.target} | {r.before} | {r.fixable} | {r.announced} | {r.removed} "
            f"| {r.rate:.0%} | {r.after} | {r.new} |"
        )
    fixable = sum(r.fixable for r in results)
    removed = sum(r.removed for r in results)
    rate = f"{removed / fixable:.0%}" if fixable else "-"
    rows.append(
        f"| all | {sum(r.before for r in results)} | {fixable} "
        f"| {sum(r.announced for r in results)} | {removed} | {rate} "
        f"| {sum(r.after for r in results)} | {sum(r.new for r in results)} |"
    )
    sections = ["\n".join(rows)]
    for r in results:
        for title, items in (
            ("not fixable in source (no rule offers a rewrite for it)", r.not_fixable),
            ("fixable but left", r.left),
            ("fixes undone by the probes", r.undone),
            ("probes that did not run before fixing", r.failed),
            ("probes that did not run after fixing", r.failed_after),
        ):
            if items:
                sections.append(f"{r.target}, {title}:\n" + "\n".join(f"- {i}" for i in items))
    return "\n\n".join(sections) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--local", action="store_true", help="breaklint's own corpora")
    parser.add_argument("--libraries", nargs="*", default=[], help="library builder modules")
    parser.add_argument("--library-folder", type=Path, default=REPO / "benchmarks" / "libraries")
    parser.add_argument("--python", default=sys.executable, help="the environment to run in")
    parser.add_argument("--out", type=Path)
    options = parser.parse_args(argv)
    targets = local_targets() if options.local else []
    for name in options.libraries:
        module = options.library_folder / f"{name.replace('-', '_')}.py"
        if not module.is_file():
            parser.error(f"no library builder module {module}")
        targets.append(library_target(module, options.python))
    if not targets:
        parser.error("name --local or --libraries")
    fixers = fixing_rules(options.python)
    results = []
    for target in targets:
        result = measure(target, options.python, fixers)
        print(f"{target.name}: {result.removed}/{result.fixable} ({result.wall_s}s)", flush=True)
        results.append(result)
    report = markdown(results)
    print(report)
    if options.out:
        options.out.mkdir(parents=True, exist_ok=True)
        (options.out / "fix_rate.md").write_text(report, encoding="utf-8")
        document = [{**asdict(r), "rate": r.rate} for r in results]
        (options.out / "fix_rate.json").write_text(json.dumps(document, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
