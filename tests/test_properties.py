"""Properties of the static phase on arbitrary input (hypothesis; hypothesmith for programs):
it never raises and never reports BL002, reports BL001 exactly when `compile()` fails, keeps
every position inside the file, and gives the same findings with one worker or two.

Sized for CI by the `ci` profile; `tests/fuzz/long_run.py` runs the same properties longer
(BREAKLINT_FUZZ_PROFILE=long)."""

from __future__ import annotations

import importlib.util
import os
import tempfile
import textwrap
import warnings
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from breaklint.config import Settings  # noqa: E402
from breaklint.engine import lint_paths  # noqa: E402
from breaklint.findings import Finding  # noqa: E402
from breaklint.source import decode_source, source_lines  # noqa: E402

_SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
# Examples per property are its CI count times the profile's scale; no example database is
# written into the project.
PROFILES = {"ci": 1, "long": 25}
PROFILE = os.environ.get("BREAKLINT_FUZZ_PROFILE", "ci")
for _name in PROFILES:
    settings.register_profile(_name, deadline=None, database=None, suppress_health_check=_SLOW)
settings.load_profile(PROFILE)


def _scaled(ci_examples: int) -> settings:
    """The settings of a property that runs `ci_examples` examples in CI."""
    return settings(max_examples=ci_examples * PROFILES[PROFILE])


# What every generated program is wrapped in: a module's forward, with graph breaks in it.
WRAPPER = """\
import torch


class Fuzzed(torch.nn.Module):
    def forward(self, x):
        value = x.item()
        print(value)
        indices = x.nonzero()
{body}
        return x
"""


def _lint(paths: list[Path], jobs: int = 1) -> list[Finding]:
    root = paths[0].parent
    return lint_paths([str(p) for p in paths], Settings(root=root), jobs, use_cache=False).findings


def _compiles(data: bytes) -> bool:
    """Whether Python would run a file of these bytes. Decoded as `import` decodes a source
    file: `compile()` of the bytes themselves lets invalid UTF-8 in a comment through, which
    `python file.py` refuses."""
    try:
        with warnings.catch_warnings():  # about the fuzzed code, not the test's
            warnings.simplefilter("ignore")
            compile(importlib.util.decode_source(data), "<fuzzed>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError, UnicodeError, LookupError):
        return False
    return True


def _check(data: bytes) -> list[Finding]:
    """Lint one file of these bytes and check every property that holds for a single file."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.py"
        path.write_bytes(data)
        findings = _lint([path])
    codes = [f.code for f in findings]
    assert "BL002" not in codes, findings
    assert ("BL001" in codes) == (not _compiles(data)), findings
    try:
        lines = source_lines(decode_source(data)[0])
    except (SyntaxError, UnicodeError, LookupError):  # undecodable: its lines, byte for byte
        lines = source_lines(data.decode("latin-1"))
    for finding in findings:
        assert 1 <= finding.line <= finding.end_line <= len(lines), finding
        assert 1 <= finding.column <= len(lines[finding.line - 1]) + 1, finding
        assert 1 <= finding.end_column <= len(lines[finding.end_line - 1]) + 1, finding
    return findings


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _wrapped(program: str) -> str:
    return WRAPPER.format(body=textwrap.indent(program, " " * 8) or "        pass")


try:
    import hypothesmith
except ImportError:  # hypothesmith is optional: the other properties still run
    hypothesmith = None
needs_hypothesmith = pytest.mark.skipif(hypothesmith is None, reason="pip install hypothesmith")
GRAMMAR = hypothesmith.from_grammar() if hypothesmith else st.nothing()
NODES = hypothesmith.from_node() if hypothesmith else st.nothing()


@needs_hypothesmith
@_scaled(150)
@given(GRAMMAR)
def test_programs_wrapped_in_a_forward(program: str) -> None:
    _check(_utf8(_wrapped(program)))


@needs_hypothesmith
@_scaled(40)
@given(NODES)
def test_a_forward_that_compiles_keeps_its_findings(program: str) -> None:
    data = _utf8(_wrapped(program))
    codes = {f.code for f in _check(data)}
    if _compiles(data):
        assert {"BL101", "BL301", "BL401"} <= codes, codes


@_scaled(300)
@given(st.binary(max_size=400))
def test_arbitrary_bytes(data: bytes) -> None:
    _check(data)


SNIPPETS = [
    "import torch",
    "class M(torch.nn.Module):",
    "    def forward(self, x):",
    "        return x.item()",
    "        print(x)  # noqa: BL401",
    "        # breaklint: ignore",
    "        y = x.nonzero()",
    '        s = """a',
    'b"""',
    "        if x.sum() > 0:",
    "            x = x + 1",
    "\tpass",
    "x = (1,",
    "     2)",
    "\x0c",
    "# caf\xe9 \u2028",
]


@_scaled(300)
@given(
    st.lists(
        st.tuples(st.sampled_from(SNIPPETS), st.sampled_from(["\n", "\r\n", "\r"])), max_size=14
    ),
    st.sampled_from(["utf-8", "utf-8-sig", "latin-1"]),
)
def test_line_endings_and_encodings(lines: list[tuple[str, str]], encoding: str) -> None:
    text = "".join(line + ending for line, ending in lines)
    header = "# -*- coding: latin-1 -*-\n" if encoding == "latin-1" else ""
    _check((header + text).encode(encoding, "replace"))


@_scaled(25)
@given(
    st.lists(st.binary(max_size=200) | GRAMMAR.map(_wrapped).map(_utf8), min_size=8, max_size=10)
)
def test_one_worker_or_two_give_the_same_findings(files: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for number, data in enumerate(files):
            path = Path(folder) / f"m{number}.py"
            path.write_bytes(data)
            paths.append(path)
        assert _lint(paths, jobs=1) == _lint(paths, jobs=2)


# Statements inside a compiled forward that rules offer fixes for, and some they do not.
FIX_SNIPPETS = [
    "print(x)  # trace",
    "breakpoint()",
    "torch._dynamo.graph_break()",
    "y = x * x.sum().item()",
    "y = x + float(x.mean())",
    "if x.sum() > 0:\n    y = x + 1\nelse:\n    y = x - 1",
    "if (x < -100).any():\n    raise ValueError('too small')",
    "z = copy.deepcopy(x)",
    "s = x[x > 0].sum()",
    "# a comment of the user's",
    "w = x + 1  # keep",
    "q = x if x.max() > 1 else x * 2",
]
FIX_HEADER = (
    "import copy\n\nimport torch\n\n\nclass Fixed(torch.nn.Module):\n    def forward(self, x):\n"
)


def _fix_once(path: Path) -> tuple[str, list[Finding]]:
    """The file's text with every fix breaklint announces applied, and those findings."""
    from breaklint.fixer import plan_fixes

    announced = [f for f in _lint([path]) if f.fix is not None]
    plan = plan_fixes(announced, unsafe=True)
    assert plan.problems == {}, plan.problems  # what is announced is made
    return (plan.files[0].fixed if plan.files else decode_source(path.read_bytes())[0]), announced


def _check_fix(text: str) -> None:
    """`--fix` output parses, changes only the lines of the statements it fixes, and a second
    fix changes nothing."""
    from breaklint.fixer import line_edits

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.py"
        path.write_bytes(text.encode("utf-8"))
        fixed, announced = _fix_once(path)
        compile(fixed, "<fixed>", "exec", dont_inherit=True)
        original = decode_source(path.read_bytes())[0]
        targets = [f.fix.target for f in announced if f.fix is not None]
        for change in line_edits(original, fixed):
            last = max(change.end_line - 1, change.line)
            assert any(t.line <= last and change.line <= t.end_line for t in targets), change
        path.write_bytes(fixed.encode("utf-8"))
        again, _ = _fix_once(path)
        assert again == fixed


@_scaled(40)
@given(
    st.lists(st.sampled_from(FIX_SNIPPETS), min_size=1, max_size=8),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_fix_output_parses_stays_in_its_statements_and_is_stable(
    statements: list[str], ending: str
) -> None:
    body = "".join(textwrap.indent(s, " " * 8) + "\n" for s in statements) + "        return x\n"
    _check_fix((FIX_HEADER + body).replace("\n", ending))


@needs_hypothesmith
@_scaled(40)
@given(GRAMMAR)
def test_fix_on_generated_programs_parses_and_is_stable(program: str) -> None:
    _check_fix(_wrapped(program))
