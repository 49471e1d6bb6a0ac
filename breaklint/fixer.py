"""Applying fixes: edits grouped by file, applied bottom-up, checked to parse, written atomically.

Nothing is written unless asked (`--fix`); `--diff` shows the same changes without writing.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import os
import stat
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from breaklint.findings import Edit, Finding
from breaklint.source import decode_source, source_lines


@dataclass(slots=True)
class FileFix:
    path: str
    encoding: str
    original: str
    fixed: str
    applied: int  # fixes applied to this file


@dataclass(slots=True)
class FixPlan:
    files: list[FileFix] = field(default_factory=list)  # files whose text changes
    left: int = 0  # fixes that overlap an applied one: another run applies them
    problems: dict[str, str] = field(default_factory=dict)  # files left alone, and why

    @property
    def applied(self) -> int:
        return sum(f.applied for f in self.files)


def applicable(finding: Finding, unsafe: bool) -> bool:
    fix = finding.fix
    return fix is not None and bool(fix.edits) and (fix.applicability == "safe" or unsafe)


def plan_fixes(findings: Iterable[Finding], *, unsafe: bool) -> FixPlan:
    """The new text of every file that applicable fixes change (nothing is written)."""
    by_path: dict[str, list[tuple[Edit, ...]]] = defaultdict(list)
    for finding in findings:
        if applicable(finding, unsafe):
            by_path[finding.path].append(finding.fix.edits)  # type: ignore[union-attr]
    plan = FixPlan()
    for path, fixes in sorted(by_path.items()):
        try:
            with open(path, "rb") as handle:
                original, encoding = decode_source(handle.read())
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError) as error:
            plan.problems[path] = f"cannot read it again to fix it ({error})"
            continue
        fixed, applied, left = _apply(original, fixes)
        try:
            ast.parse(fixed)
        except (SyntaxError, ValueError) as error:  # a bug in a fix: never write broken code
            plan.problems[path] = f"the fixes would not parse ({error}); left unchanged"
            continue
        plan.left += left
        if fixed != original:
            plan.files.append(FileFix(path, encoding, original, fixed, applied))
    return plan


def _apply(text: str, fixes: list[tuple[Edit, ...]]) -> tuple[str, int, int]:
    """Apply whole fixes from the bottom up; a fix overlapping one already applied waits."""
    lines = source_lines(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column - 1

    spans = sorted(
        {tuple((offset(e.line, e.column), offset(e.end_line, e.end_column), e.content)
               for e in edits) for edits in fixes},
        key=lambda fix: min(start for start, _, _ in fix),
        reverse=True,
    )  # fmt: skip
    applied = left = 0
    limit = len(text) + 1
    for fix in spans:
        if max(end for _, end, _ in fix) > limit:
            left += 1
            continue
        for start, end, content in sorted(fix, reverse=True):
            text = text[:start] + content + text[end:]
        limit = min(start for start, _, _ in fix)
        applied += 1
    return text, applied, left


def write_fixes(plan: FixPlan) -> dict[str, str]:
    """Write each fixed file atomically; why each file that could not be written was not."""
    problems = {}
    for file in plan.files:
        try:
            _replace(file.path, file.fixed.encode(file.encoding))
        except (OSError, UnicodeEncodeError) as error:
            problems[file.path] = f"cannot write the fixes ({error}); left unchanged"
    return problems


def _replace(path: str, data: bytes) -> None:
    """Write through a temporary file in the same folder and rename it over the original, so
    the file is either the old or the new text, never half of each; keep its permissions."""
    target = os.path.realpath(path)  # a symlink keeps pointing at the fixed file
    mode = stat.S_IMODE(os.stat(target).st_mode)
    handle, temporary = tempfile.mkstemp(
        dir=os.path.dirname(target), prefix=".breaklint-", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def unified_diff(file: FileFix) -> str:
    return "".join(
        difflib.unified_diff(
            source_lines(file.original),
            source_lines(file.fixed),
            fromfile=f"a/{file.path}",
            tofile=f"b/{file.path}",
        )
    )
