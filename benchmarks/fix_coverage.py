"""Fix coverage, without running Dynamo: of the break statements a rule that offers a fix
flags, those whose finding carries a fix, read from breaklint JSON reports already made.

    python benchmarks/fix_coverage.py --accuracy DIR [--libraries a b] [--repositories DIR
        --checkouts CHECKOUTS] [--names a b] [--out FILE]

`--accuracy DIR` is a `library_accuracy.py --out` folder (each DIR/<library>/breaklint.json, its
run.json naming the root its paths are relative to; with `--static-only --truth` the run takes
seconds). `--repositories DIR` is a `repository_breaks.py --out` folder (DIR/<name>.json), its
paths relative to CHECKOUTS/<name>: its break statements are that run's, and whether a fix is
offered is read from it too, unless `--relint`: then this checkout's breaklint lints each
checkout again (`--scope all`, no probes, no Dynamo: minutes) and a statement's fix is that of
a finding on its line. Only the tuning half is read: the held-out libraries and repositories
are skipped by name.

A break statement is as `fix_rate.py` counts one: a line with a confirmed static finding or a
dynamic one (BL900/BL901), recompiles and BL902 left out. For each rule that offers a fix the
table gives the break statements it flags and those where a finding carried a fix ("announced");
then the statements flagged without a fix counted by rule and form (an assignment, a `return`,
an `assert`, a call statement, `if: assigns` / `returns` / `raises` / `stops a loop` / `other
statements`, `inside ...` for a line within a statement: the forms the fixers decline); then
each of them, by rule, with its form and source, to read what made the fixer decline.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from library_accuracy import LIBRARIES
from repository_breaks import REPOSITORIES

REPO = Path(__file__).resolve().parent.parent
HELD_OUT_REPOSITORIES = frozenset(
    {
        "conformer",
        "pytorch_gan",
        "dgcnn",
        "ppo_pytorch",
        "diffwave",
        "mprnet",
        "k_diffusion",
        "flamingo_pytorch",
    }
)


def fixing_rules(python: str) -> frozenset[str]:
    code = (
        "from breaklint.rule import all_rules; "
        "print(' '.join(c for c, r in all_rules().items() if r.fix_applicability))"
    )
    environment = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run(
        [python, "-c", code], env=environment, capture_output=True, text=True, check=True
    )
    return frozenset(out.stdout.split())


def statement(path: Path, line: int) -> tuple[str, str]:
    """The source of the innermost statement starting on `line` of `path` (its first 6 lines),
    or the line itself; and the statement's form (`form`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return "?", "?"
    lines = text.splitlines()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        tree = None
    best = around = None
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.stmt) and node.lineno == line:
            best = node
        elif isinstance(node, ast.stmt) and node.lineno < line <= (node.end_lineno or 0):
            around = node  # the innermost statement the line is inside of, walked last
    if best is None:
        source = lines[line - 1].strip() if line <= len(lines) else "?"
        return source, "?" if around is None else "inside " + form(around)
    end = min(best.end_lineno or line, line + 5)
    return "\n".join(lines[line - 1 : end]), form(best)


def form(node: ast.stmt) -> str:
    """What a statement is, in the words a fixer decides by: an assignment, a `return`, an
    `assert`, a call statement, a loop, or a branch and what its blocks do (`if: assigns`,
    `if: returns`, `if: raises`, `if: stops a loop`, `if: other statements`)."""
    if isinstance(node, ast.If):
        blocks = [node.body] + ([node.orelse] if node.orelse else [])
        last = [block[-1] for block in blocks]
        if all(isinstance(s, ast.Raise) for s in last):
            return "if: raises"
        if all(isinstance(s, ast.Return) for s in last):
            return "if: returns"
        if all(isinstance(s, ast.Break | ast.Continue) for s in last):
            return "if: stops a loop"
        plain = (ast.Assign, ast.AugAssign, ast.AnnAssign)
        if all(isinstance(s, plain) for block in blocks for s in block):
            return "if: assigns"
        return "if: other statements"
    names = {
        ast.Assign: "assignment",
        ast.AugAssign: "assignment",
        ast.AnnAssign: "assignment",
        ast.Return: "return",
        ast.Assert: "assert",
        ast.For: "loop",
        ast.While: "loop",
        ast.With: "with",
    }
    if isinstance(node, ast.Expr):
        return "call statement" if isinstance(node.value, ast.Call) else "expression"
    return names.get(type(node), type(node).__name__)


_WHY = re.compile(r"no automatic fix: `[^`]*`(?: \(computed from `[^`]*`\))? is (.+?) on line")


def why_not(hint: str) -> str:
    """What a fixer said it declined for (`no automatic fix: `n` is passed to `torch.arange()`
    on line 9, ...` -> `name passed to a call`), or ''."""
    found = _WHY.search(hint)
    if found is None:
        return ""
    use = re.sub(r"passed to `[^`]*`", "passed to a call", found.group(1))
    return "name " + use.replace("`", "")


def breaks(report: dict, root: Path, target: str, fixers: frozenset[str]) -> list[dict]:
    found: dict[tuple[str, int], dict] = {}
    for finding in report["findings"]:
        real = finding["status"] == "confirmed" or finding["origin"] == "dynamic"
        if not real or finding.get("kind") == "recompiles" or finding["code"] == "BL902":
            continue
        key = (finding["path"], finding["line"])
        entry = found.setdefault(
            key,
            {
                "target": target,
                "path": finding["path"],
                "line": finding["line"],
                "codes": [],
                "fixed": [],
                "reason": finding.get("gb_type") or "",
                "why": "",
            },
        )
        entry["codes"].append(finding["code"])
        if finding.get("fix") is not None:
            entry["fixed"].append(finding["code"])
        else:
            entry["why"] = entry["why"] or why_not(finding.get("hint") or "")
    out = []
    for entry in found.values():
        if fixers & set(entry["codes"]):
            entry["source"], entry["form"] = statement(root / entry["path"], entry["line"])
            if entry["why"] and not entry["fixed"]:
                entry["form"] += f": {entry['why']}"
            out.append(entry)
    return out


def relinted(python: str, checkout: Path) -> dict[tuple[str, int], list[str]]:
    """The codes of the findings with a fix on each line of `checkout`, linted by this
    checkout's breaklint with every function in scope (no probes)."""
    command = [python, "-m", "breaklint", ".", "--scope", "all", "--isolated", "--no-cache"]
    command += ["--output-format", "json", "--exit-zero", "--jobs", "1"]
    environment = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(
        command, cwd=checkout, env=environment, capture_output=True, text=True, check=False
    )
    fixed: dict[tuple[str, int], list[str]] = defaultdict(list)
    for finding in json.loads(done.stdout)["findings"]:
        if finding.get("fix") is not None:
            fixed[(finding["path"], finding["line"])].append(finding["code"])
    return fixed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--accuracy", type=Path)
    parser.add_argument("--libraries", nargs="*")
    parser.add_argument("--repositories", type=Path)
    parser.add_argument("--checkouts", type=Path)
    parser.add_argument("--names", nargs="*")
    parser.add_argument("--relint", action="store_true", help="lint the checkouts again")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--out", type=Path)
    options = parser.parse_args(argv)
    fixers = fixing_rules(options.python)
    flagged: list[dict] = []
    if options.accuracy:
        tuning = [n for n, half in LIBRARIES.items() if half == "tuning"]
        for name in options.libraries or tuning:
            if LIBRARIES.get(name) != "tuning":
                continue
            folder = options.accuracy / name
            if not (folder / "breaklint.json").is_file():
                continue
            root = Path(json.loads((folder / "run.json").read_text())["root"])
            report = json.loads((folder / "breaklint.json").read_text())
            flagged += breaks(report, root, name, fixers)
    if options.repositories:
        for name in options.names or sorted(REPOSITORIES):
            report_file = options.repositories / f"{name}.json"
            if name in HELD_OUT_REPOSITORIES or not report_file.is_file():
                continue
            report = json.loads(report_file.read_text())
            found = breaks(report, options.checkouts / name, name, fixers)
            if options.relint and found:
                fixed = relinted(options.python, options.checkouts / name)
                for entry in found:
                    on_line = fixed.get((entry["path"], entry["line"]), [])
                    entry["fixed"] = sorted(set(on_line) & set(entry["codes"]))
            flagged += found
    by_rule: dict[str, list[dict]] = defaultdict(list)
    for entry in flagged:
        for code in sorted(fixers & set(entry["codes"])):
            by_rule[code].append(entry)
    lines = ["| rule | flagged | fix announced |", "| --- | --- | --- |"]
    for code in sorted(by_rule):
        entries = by_rule[code]
        lines.append(f"| {code} | {len(entries)} | {sum(bool(e['fixed']) for e in entries)} |")
    total = sum(bool(e["fixed"]) for e in flagged)
    lines.append(f"| all statements | {len(flagged)} | {total} |")
    lines.append("")
    # The statements flagged without a fix, by rule and form: where the fixers decline.
    forms: dict[tuple[str, str], int] = defaultdict(int)
    for code in sorted(by_rule):
        for e in by_rule[code]:
            if not e["fixed"]:
                forms[(code, e["form"])] += 1
    lines += ["| rule | form of a statement flagged without a fix | statements |"]
    lines += ["| --- | --- | --- |"]
    for (code, shape), count in sorted(forms.items(), key=lambda item: (item[0][0], -item[1])):
        lines.append(f"| {code} | {shape} | {count} |")
    lines.append("")
    for code in sorted(by_rule):
        missing = [e for e in by_rule[code] if not e["fixed"]]
        if not missing:
            continue
        lines.append(f"## {code}: flagged without a fix ({len(missing)})")
        for e in missing:
            codes = "/".join(e["codes"])
            where = f"{e['target']} {e['path']}:{e['line']}"
            lines.append(f"- {where} {codes} [{e['form']}] ({e['reason']})")
            lines += [f"      {s}" for s in e["source"].splitlines()]
        lines.append("")
    text = "\n".join(lines) + "\n"
    if options.out:
        options.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
