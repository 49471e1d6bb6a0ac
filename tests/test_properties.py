"""Properties of the static phase on arbitrary input (hypothesis; hypothesmith for programs):
it never raises and never reports BL002, reports BL001 exactly when `compile()` fails, keeps
every position inside the file, and gives the same findings with one worker or two.

Sized for CI by the `ci` profile; `tests/fuzz/long_run.py` runs the same properties longer
(BREAKLINT_FUZZ_PROFILE=long)."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import socket
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
from breaklint.source import MAX_FILE_BYTES, decode_source, source_lines  # noqa: E402

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


# Files that are not regular ones, among the regular: discovery skips them (never reads them),
# a dangling link is a BL001, and the run ends with the regular files' findings.
SPECIAL_KINDS = ["file", "fifo", "dev-null", "dev-zero", "dangling", "folder", "socket"]
REGULAR = ("file", "dangling", "folder")  # a dangling link is listed: reading it is a BL001


def _make(path: Path, kind: str, data: bytes) -> None:
    if kind == "file":
        path.write_bytes(data)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind in ("dev-null", "dev-zero"):
        path.symlink_to(f"/dev/{kind[4:]}")
    elif kind == "dangling":
        path.symlink_to(path.with_suffix(".missing"))
    elif kind == "folder":
        path.mkdir()
        (path / "inner.py").write_bytes(data)
    else:
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(str(path))


@_scaled(30)
@given(st.lists(st.tuples(st.sampled_from(SPECIAL_KINDS), st.binary(max_size=80)), max_size=8))
def test_special_files_are_skipped_never_read(entries: list[tuple[str, bytes]]) -> None:
    from breaklint.discovery import discover

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for number, (kind, data) in enumerate(entries):
            _make(root / f"m{number}.py", kind, data)
        found = discover([folder], Settings(root=root))
        made = {root / f"m{n}.py": kind for n, (kind, _) in enumerate(entries)}
        special = {os.path.realpath(p) for p, kind in made.items() if kind not in REGULAR}
        assert {os.path.realpath(s.path) for s in found.special} == special
        listed = {p for p, kind in made.items() if kind in ("file", "dangling")}
        listed |= {p / "inner.py" for p, kind in made.items() if kind == "folder"}
        assert {Path(p) for p in found.files} == listed
        findings = _lint([Path(p) for p in found.files]) if found.files else []
        assert "BL002" not in {f.code for f in findings}
        for n, (kind, _) in enumerate(entries):
            if kind == "dangling":
                assert any(f.path.endswith(f"m{n}.py") and f.code == "BL001" for f in findings)


# A cache planted in the project: every entry replaced by JSON with hostile values (other
# files' paths, unknown or lowercase codes, values of other types) or by a FIFO, a device, a
# symlink or a huge file. Every such entry is a miss: the findings are those of a run
# without the cache, in the linted files only, and --fix plans touch only them.
HOSTILE_STRINGS = ["/etc/passwd", "../elsewhere.py", "BL999", "bl101", "BL1", "ALL", ""]
HOSTILE_VALUES = st.sampled_from([*HOSTILE_STRINGS, -1, 0, 2**40, None, True, 1.5, [], {}])
CACHED_MODEL = FIX_HEADER + "        print(x)\n        return x * x.max().item()\n"


def _planted(value: object, rng: random.Random, hostile: list[object]) -> object:
    if isinstance(value, dict):
        return {k: _planted(v, rng, hostile) for k, v in value.items()}
    if isinstance(value, list):
        return [_planted(v, rng, hostile) for v in value]
    return rng.choice(hostile) if rng.random() < 0.2 else value


@_scaled(30)
@given(
    st.lists(st.sampled_from(["json", "paths", "fifo", "dev-zero", "huge", "link"]), min_size=1),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.lists(HOSTILE_VALUES, min_size=1, max_size=5),
)
def test_hostile_cache_entries_are_misses(
    kinds: list[str], seed: int, hostile: list[object]
) -> None:
    from breaklint.fixer import plan_fixes

    # A seed, not hypothesis's randoms: how many values are planted depends on the entries,
    # whose order follows hashes of the temporary folder's path, so a draw per value would
    # differ between runs of one example (hypothesis: FlakyStrategyDefinition).
    rng = random.Random(seed)

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        files = [root / "a.py", root / "b.py"]
        for path in files:
            path.write_text(CACHED_MODEL, encoding="utf-8")
        settings = Settings(root=root)
        names = [str(p) for p in files]
        expected = lint_paths(names, settings, 1, use_cache=False).findings
        assert lint_paths(names, settings, 1, use_cache=True).findings == expected
        entries = sorted((root / ".breaklint_cache").glob("*/*.json"))
        for number, entry in enumerate(entries):
            kind = kinds[number % len(kinds)]
            data = json.loads(entry.read_text(encoding="utf-8"))
            entry.unlink()
            if kind == "json":
                entry.write_text(json.dumps(_planted(data, rng, hostile)), encoding="utf-8")
            elif kind == "paths":  # every path another file's
                text = json.dumps(data).replace(json.dumps(names[0])[1:-1], "/etc/passwd")
                entry.write_text(text.replace(json.dumps(names[1])[1:-1], names[0]))
            elif kind == "fifo":
                os.mkfifo(entry)
            elif kind == "dev-zero":
                entry.symlink_to("/dev/zero")
            elif kind == "huge":
                with open(entry, "wb") as handle:
                    handle.truncate(MAX_FILE_BYTES + 1)
            else:
                outside = root.parent / f"{root.name}-outside.json"
                outside.write_text(json.dumps(data), encoding="utf-8")
                entry.symlink_to(outside)
        found = lint_paths(names, settings, 1, use_cache=True).findings
        assert found == expected
        plan = plan_fixes(found, unsafe=True)
        assert {file.path for file in plan.files} <= set(names)
        for outside in root.parent.glob(f"{root.name}-outside.json"):
            outside.unlink()
