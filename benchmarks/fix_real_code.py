"""Run the fix engine over real code it was not written for, on a copy: `--diff`, then `--fix`,
then `--fix` again, and check what a user would (every changed file compiles, the second run
changes nothing, what the diff announced is what was written).

    python benchmarks/fix_real_code.py PACKAGE_DIR [PACKAGE_DIR ...] [--scope all]

Each PACKAGE_DIR (an unpacked wheel's package, or transformers/models) is copied to a
temporary folder first: the originals are never written. Prints one line per package and the
fixes applied per rule.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import py_compile
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path


def breaklint(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "breaklint", ".", "--no-cache", *options]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)


def fixable_by_rule(folder: Path, scope: str) -> Counter[str]:
    result = breaklint(folder, "--scope", scope, "--output-format", "json", "--exit-zero")
    findings = json.loads(result.stdout)["findings"]
    return Counter(f["code"] for f in findings if f["fix"] is not None)


def changed_files(before: Path, after: Path) -> list[Path]:
    changed = []
    for path in sorted(after.rglob("*.py")):
        original = before / path.relative_to(after)
        if not filecmp.cmp(original, path, shallow=False):
            changed.append(path)
    return changed


def check(package: Path, scope: str) -> Counter[str]:
    with tempfile.TemporaryDirectory() as temporary:
        pristine = Path(temporary) / "pristine"
        work = Path(temporary) / "work"
        shutil.copytree(package, pristine)
        shutil.copytree(package, work)
        announced = fixable_by_rule(work, scope)
        started = time.perf_counter()
        diff = breaklint(work, "--scope", scope, "--diff", "--unsafe-fixes")
        diff_s = time.perf_counter() - started
        started = time.perf_counter()
        fixed = breaklint(work, "--scope", scope, "--fix", "--unsafe-fixes", "-q")
        fix_s = time.perf_counter() - started
        changed = changed_files(pristine, work)
        broken = []
        for path in changed:
            try:
                py_compile.compile(str(path), doraise=True, cfile=str(Path(temporary) / "c.pyc"))
            except py_compile.PyCompileError as error:
                broken.append(f"{path.relative_to(work)}: {error.msg}")
        snapshot = Path(temporary) / "snapshot"
        shutil.copytree(work, snapshot)
        again = breaklint(work, "--scope", scope, "--fix", "--unsafe-fixes", "-q")
        moved = changed_files(snapshot, work)
        left = fixable_by_rule(work, scope)
    diffed = sum(1 for line in diff.stdout.splitlines() if line.startswith("+++ "))
    print(
        f"{package.name}: {sum(announced.values())} fixes announced in "
        f"{diffed} files (--diff {diff_s:.1f} s, exit {diff.returncode}); --fix changed "
        f"{len(changed)} files ({fix_s:.1f} s, exit {fixed.returncode}); "
        f"{len(broken)} do not compile; second --fix changed {len(moved)} files "
        f"(exit {again.returncode}); fixes still announced after: {sum(left.values())}"
    )
    for line in broken:
        print(f"  does not compile: {line}")
    for line in (diff.stderr + fixed.stderr).splitlines():
        if line.startswith("breaklint: error"):
            print(f"  {line}")
    return announced


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="+", type=Path)
    parser.add_argument("--scope", default="compiled", choices=("compiled", "all"))
    args = parser.parse_args()
    total: Counter[str] = Counter()
    for package in args.packages:
        total += check(package, args.scope)
    print("fixes announced per rule: " + ", ".join(f"{c} {n}" for c, n in sorted(total.items())))


if __name__ == "__main__":
    main()
