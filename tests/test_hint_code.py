"""No hint suggests code that breaks: every piece of code a hint proposes with a tensor
choice (`torch.where`, `torch.cond`, `torch.logical_*`, `.clone()`), read from the findings
on each rule's examples and on conditions joined by `not`, `and` and `or`, compiles under
Dynamo (recording backend) to one graph without a break."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.rule import all_rules

# Conditions as users write them, each flagged with a hint that names it: their bodies append
# to a list the caller passes, which no fix rewrites (a body that only assigns tensors takes
# BL201's `where` fixes, and a finding with a fix shows the generic hint).
CONDITIONS = """
import torch


def choose(x, y, seen):
    if not torch.isfinite(x).all():
        seen.append(x)
    if x.dtype == torch.float32 and not torch.isfinite(y).all():
        seen.append(y)
    if (x > 0).any() and y.sum() < 3 or not (y < 9).all():
        seen.append(x + y)
    while x.norm() > 1 and not (x < 0).all():
        x = x / 2
    return x, y


compiled = torch.compile(choose)
"""
PROPOSED = re.compile(r"torch\.(where|cond|logical_\w+)\(|\.clone\(\)")
FUNCTIONS = ("true_fn", "false_fn")
MASKS = ("cond", "mask")  # elementwise choices; `pred` is one truth value


def _hinted_code(tmp_path: Path) -> set[str]:
    sources = [CONDITIONS]
    for rule in all_rules().values():
        sources += [rule.example, *(fix.before for fix in rule.fix_examples)]
    paths = []
    for index, source in enumerate(s for s in sources if s.strip()):
        path = tmp_path / f"example_{index}.py"
        path.write_text(source.strip() + "\n", encoding="utf-8")
        paths.append(str(path))
    findings = lint_paths(paths, Settings(root=tmp_path), jobs=1, use_cache=False).findings
    spans = {span for f in findings for span in re.findall(r"`([^`]+)`", f.hint or "")}
    return {span for span in spans if PROPOSED.search(span)}


def _probe_source(code: str) -> tuple[str, list[str]]:
    """A function computing `code`, its free names as parameters (`true_fn` and `false_fn`
    are made inside, as closures over the first tensor)."""
    names = sorted(
        {n.id for n in ast.walk(ast.parse(code, mode="eval")) if isinstance(n, ast.Name)}
        - {"torch", *FUNCTIONS}
    )
    body = [f"    {name} = lambda: {names[0]} * {i + 2}" for i, name in enumerate(FUNCTIONS)]
    parameters = ", ".join(names)
    return f"def probe({parameters}):\n" + "\n".join(body) + f"\n    return {code}\n", names


def test_every_hinted_tensor_choice_compiles_to_one_graph(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="compiling hints needs torch")
    from breaklint.dynamic import torch_shim

    hinted = _hinted_code(tmp_path)
    # `not t` is proposed as `torch.logical_not(t)`.
    assert any("torch.logical_not(torch.isfinite(" in code for code in hinted), hinted
    # Seven distinct pieces: the rule examples' own conditions are no longer hinted where a fix
    # writes the choice (BL201's example takes its `where-return-early` fix, proven on its page).
    assert len(hinted) >= 7, hinted
    for code in sorted(hinted):
        source, names = _probe_source(code)
        namespace: dict = {"torch": torch}
        exec(compile(source, "<hint>", "exec", dont_inherit=True), namespace)
        torch.manual_seed(0)
        # `torch.cond` takes one truth value: the `if` its hint names decided on one value
        # (`elif total < -1:`), so its names are numbers there, vectors elsewhere.
        shape = () if code.startswith("torch.cond(") else (8,)
        arguments = [
            torch.randn(8) > 0
            if name in MASKS
            else torch.tensor(True)
            if name == "pred"
            else torch.randn(shape).abs() + 0.5
            for name in names
        ]
        captured = torch_shim.capture(
            lambda compiled, arguments=arguments: compiled(*arguments), namespace["probe"]
        )
        assert (len(captured.ops_per_graph), len(captured.breaks)) == (1, 0), code
