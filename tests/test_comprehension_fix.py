"""BL203's fixes: a comprehension after a graph break, assigned to a name, written as a `for`
statement only where that changes nothing but the frame Dynamo compiles; otherwise iterating
a tuple of its first iterable where that is certainly a list or a dict."""

from __future__ import annotations

from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.fixer import plan_fixes

CASES = [
    (
        "out = [y for k in keys.keys() if k]",
        "out = []\n    for k in keys.keys():\n        if k:\n            out.append(y)",
    ),
    (
        "out = {k: (y, j) for k in sorted(keys) for j in list(keys)}",
        "out = {}\n    for k in sorted(keys):\n        for j in list(keys):\n"
        "            out[k] = (y, j)",
    ),
    # No `for` statement: a tuple of the list or dict instead.
    (  # `k` is read or bound elsewhere
        "out = {k: y for k in sorted(keys)}\n    k = 1",
        "out = {k: y for k in tuple(sorted(keys))}\n    k = 1",
    ),
    (  # the name is used in the comprehension
        "out = [y for out in list(keys)]",
        "out = [y for out in tuple(list(keys))]",
    ),
    (  # neither key nor value a name
        "out = {k.upper(): (y, 1) for k in sorted(keys)}",
        "out = {k.upper(): (y, 1) for k in tuple(sorted(keys))}",
    ),
    ("out = {y for k in sorted(keys)}", "out = {y for k in tuple(sorted(keys))}"),  # a set
    (  # not the whole value of `name = ...`
        "other, out = 1, [y for k in list(keys)]",
        "other, out = 1, [y for k in tuple(list(keys))]",
    ),
    ("out = [y for out in keys]", None),  # `keys` may be a generator: no fix
]


def _fixed(tmp_path: Path, body: str) -> tuple[bool, str | None]:
    """Whether the BL203 finding in `f` carries a fix, and the function body it writes."""
    source = (
        "import torch\n\n\ndef f(x, keys):\n    y = x * 2\n    print(keys)\n"
        f"    {body}\n    return out\n\n\ncompiled = torch.compile(f)\n"
    )
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    (finding,) = [f for f in findings if f.code == "BL203"]
    plan = plan_fixes([finding] if finding.fix else [], unsafe=False)
    if not plan.files:
        return finding.fix is not None, None
    fixed = plan.files[0].fixed
    return True, fixed.split("    print(keys)\n    ")[1].split("\n    return out")[0]


@pytest.mark.parametrize(("body", "loop"), CASES)
def test_a_comprehension_is_rewritten_only_where_nothing_else_changes(
    tmp_path: Path, body: str, loop: str | None
) -> None:
    announced, written = _fixed(tmp_path, body)
    assert announced is (loop is not None)
    assert written == loop
