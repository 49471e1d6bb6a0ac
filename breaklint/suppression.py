"""Suppression comments: `# noqa[: CODES]`, own-line `# breaklint: ignore[CODES]`, skip-file."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from collections.abc import Iterable, Sequence

from breaklint.findings import Finding, Origin
from breaklint.source import LINE_START, parse_python
from breaklint.syntax import iter_nodes

_SKIP_FILE = re.compile(LINE_START + r"[ \t]*#[ \t]*breaklint:[ \t]*skip-file\b")
_NOQA = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
_IGNORE = re.compile(r"^\s*#\s*breaklint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?\s*$")
_CODE = re.compile(r"[A-Z]+[0-9]+")
EVERY_CODE = frozenset({"*"})  # what a bare comment suppresses
NOTHING: frozenset[str] = frozenset()


def is_skipped(text: str) -> bool:
    """Whether a `# breaklint: skip-file` comment (a real comment, not string text) is present."""
    # The substring test first: the pattern's look-behind at every character costs more.
    if "skip-file" not in text or _SKIP_FILE.search(text) is None:
        return False
    try:
        # Universal newlines: a lone CR ends a line for Python, and 3.12's tokenizer reads one
        # inside a line as an operator, swallowing the comment after it.
        tokens = tokenize.generate_tokens(io.StringIO(text, newline=None).readline)
        return any(t.type == tokenize.COMMENT and _SKIP_FILE.match(t.string) for t in tokens)
    except (tokenize.TokenError, SyntaxError):
        return True  # unparsable anyway; the comment's intent is clear


def _codes(raw: str | None) -> frozenset[str]:
    return EVERY_CODE if raw is None else frozenset(_CODE.findall(raw.upper()))


def noqa_codes(line: str) -> frozenset[str]:
    """Codes a `# noqa` comment on the line suppresses (EVERY_CODE for a bare one)."""
    match = _NOQA.search(line) if "#" in line else None
    return NOTHING if match is None else _codes(match.group("codes"))


def noqa_codes_end(line: str) -> int | None:
    """Where the codes of the line's `# noqa: CODES` comment end (to add one more), or None
    when it has none (no comment, or a bare `# noqa`)."""
    match = _NOQA.search(line) if "#" in line else None
    return None if match is None or match.group("codes") is None else match.end("codes")


def _suppressed_by(codes: frozenset[str], finding: Finding) -> bool:
    if codes is EVERY_CODE or finding.code in codes:
        return True
    # A break Dynamo took on a line whose static finding the user silenced (a BL101 noqa)
    # is that same break: the suppression covers it too.
    return finding.origin is Origin.DYNAMIC and any(c.startswith("BL") for c in codes)


def _header_owners(tree: ast.Module, line_count: int) -> list[int]:
    """For each 1-based line, the first line (decorators included) of the innermost statement
    whose header holds it (a simple statement whole, a compound one up to its colon), or 0.
    One pass over the statements: looking the statement up per finding was quadratic."""
    spans = []
    for node in iter_nodes(tree):
        if isinstance(node, ast.stmt):
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
            body = getattr(node, "body", None)
            header_end = body[0].lineno - 1 if body else node.end_lineno or node.lineno
            spans.append((first, max(header_end, node.lineno)))
    owners = [0] * (line_count + 2)
    # Nested headers start later: written last, the innermost wins.
    for first, last in sorted(spans):
        owners[first : last + 1] = [first] * (last + 1 - first)
    return owners


def _ignore_codes_above(lines: Sequence[str], first_line: int) -> frozenset[str]:
    """Codes named by the block of own-line comments right above 1-based `first_line`."""
    found: set[str] = set()
    number = first_line - 1
    while number >= 1 and lines[number - 1].lstrip().startswith("#"):
        match = _IGNORE.match(lines[number - 1])
        if match:
            codes = _codes(match.group("codes"))
            if codes is EVERY_CODE:
                return EVERY_CODE
            found |= codes
        number -= 1
    return frozenset(found)


class Suppressions:
    """The suppression comments of one file, applied to any of its findings."""

    def __init__(self, text: str, lines: Sequence[str], tree: ast.Module | None = None) -> None:
        self.text = text
        self.lines = lines
        self._tree = tree  # the file's parse, when the caller has it
        self._owners: list[int] | None = None
        self._above: dict[int, frozenset[str]] = {}  # codes ignored above a statement's line

    @functools.cached_property
    def _has_own_line_comments(self) -> bool:
        return "breaklint:" in self.text  # once per file, not per function checked

    def apply(self, findings: Iterable[Finding]) -> list[Finding]:
        """Drop the findings that a suppression comment covers."""
        lines = self.lines
        kept = [f for f in findings if not _suppressed_by(noqa_codes(lines[f.line - 1]), f)]
        if not kept or not self._has_own_line_comments:
            return kept
        if self._owners is None:
            try:
                tree = self._tree or parse_python(self.text, "<suppressions>")
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return kept  # a file that does not compile has no statement findings to suppress
            self._owners = _header_owners(tree, len(lines))
        result = []
        for finding in kept:
            first = self._owners[finding.line] if finding.line < len(self._owners) else 0
            if first:
                if first not in self._above:
                    self._above[first] = _ignore_codes_above(lines, first)
                if _suppressed_by(self._above[first], finding):
                    continue
            result.append(finding)
        return result
