"""What breaklint says on the terminal besides the report: errors and warnings on stderr, the
line for a crash, what `--fix` fixed and the fixes left to ask for; and the exit statuses."""

from __future__ import annotations

import os
import sys
import traceback
from collections import Counter
from collections.abc import Iterable

from breaklint.findings import Finding

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

DEBUG_VARIABLE = "BREAKLINT_DEBUG"


def error(message: str) -> None:
    sys.stderr.write(f"breaklint: error: {message}\n")


def warning(message: str) -> None:
    sys.stderr.write(f"breaklint: warning: {message}\n")


def warnings(messages: Iterable[str]) -> None:
    for message in messages:
        warning(message)


def report_crash(crash: Exception) -> None:
    """One line on stderr for an unexpected exception; its traceback goes to a log file, or to
    stderr too when BREAKLINT_DEBUG is set."""
    detail = traceback.format_exception(crash)
    summary = f"{type(crash).__name__}: {_message(crash)}".splitlines()[0]
    if os.environ.get(DEBUG_VARIABLE):
        sys.stderr.write("".join(detail))
        error(f"internal error: {summary}")
        return
    import tempfile  # here, with shutil and random it imports: only a crash needs them

    try:
        handle, log = tempfile.mkstemp(prefix="breaklint-crash-", suffix=".log")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write("".join(detail))
        where = f"traceback in {log}"
    except OSError:
        where = f"set {DEBUG_VARIABLE}=1 for the traceback"
    error(f"internal error: {summary} (a bug in breaklint; {where})")


def _message(crash: Exception) -> str:
    try:
        return str(crash)
    except Exception:  # e.g. a KeyError whose key's repr recurses too deep
        return "(its message cannot be shown)"


def fixed_summary(fixed: Counter[str]) -> str:
    """How many findings `--fix` fixed, then how many of each rule, as ruff's statistics."""
    from breaklint.rule import all_rules

    count = sum(fixed.values())
    rules = all_rules()
    lines = [f"Fixed {count} finding{'s' if count != 1 else ''}."]
    lines += [f"  {n:>4}  {code} {rules[code].name}" for code, n in sorted(fixed.items())]
    return "\n".join(lines) + "\n"


def fix_hint(findings: list[Finding], unsafe: bool) -> str | None:
    """Point at the fixes the options given leave out."""
    fixes = [f.fix for f in findings if f.fix is not None]
    hidden = sum(1 for fix in fixes if not fix.applies(unsafe))
    available = len(fixes) - hidden
    lines = []
    if available:
        lines.append(f"{available} fix{'es' if available != 1 else ''} available with `--fix`.")
    if hidden:
        more = "more " if available else ""
        lines.append(
            f"{hidden} {more}unsafe fix{'es' if hidden != 1 else ''} available with "
            "`--fix --unsafe-fixes` (`--diff --unsafe-fixes` shows them; each rule's page says "
            "what they change)."
        )
    return "\n".join(lines) or None
