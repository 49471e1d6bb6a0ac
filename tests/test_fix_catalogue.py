"""Every fix a rule offers, proven on its page's examples: the fix writes the page's "after"
text, which parses, keeps every comment, changes nothing when fixed again, breaks the graph
less often under Dynamo (recording backend) and gives the same eager outputs."""

from __future__ import annotations

import ast
import io
import os
import tokenize
from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.findings import Applicability, Finding
from breaklint.fixer import plan_fixes
from breaklint.rule import FixExample, Phase, Rule, all_rules, rule_page
from conftest import REPO

FIXES = [
    pytest.param(rule, example, id=f"{rule.code}-{index}")
    for rule in all_rules().values()
    for index, example in enumerate(rule.fix_examples, 1)
]


def _lint(tmp_path: Path, source: str) -> list[Finding]:
    path = tmp_path / "example.py"
    path.write_text(source.strip() + "\n", encoding="utf-8")
    return lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings


def _fixed(tmp_path: Path, source: str, code: str) -> str | None:
    fixable = [f for f in _lint(tmp_path, source) if f.code == code and f.fix]
    plan = plan_fixes(fixable, unsafe=True)
    assert plan.problems == {}
    return plan.files[0].fixed if plan.files else None


def _comments(source: str) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [token.string for token in tokens if token.type == tokenize.COMMENT]


def test_at_least_eight_rules_offer_a_fix() -> None:
    offering = [rule.code for rule in all_rules().values() if rule.fix_examples]
    assert len(offering) >= 8, offering


@pytest.mark.parametrize(("rule", "example"), FIXES)
def test_fix_writes_the_after_text_once(rule: type[Rule], example: FixExample, tmp_path: Path):
    fixed = _fixed(tmp_path, example.before, rule.code)
    assert fixed == example.after.strip() + "\n"
    ast.parse(fixed)
    removed = {"BL404", "BL504"}  # these delete a statement, with the comment after it
    kept = [c for c in _comments(example.before) if c in _comments(fixed)]
    assert kept == _comments(example.before) or rule.code in removed
    assert _fixed(tmp_path, fixed, rule.code) is None  # fixing again changes nothing


@pytest.mark.parametrize(("rule", "example"), FIXES)
def test_fix_is_on_the_page_with_its_safety(rule: type[Rule], example: FixExample) -> None:
    page = rule_page(rule)
    assert example.after.strip() in page
    assert rule.fix_safety.lstrip().startswith(("Unsafe fix:", "Safe fix:"))


@pytest.mark.parametrize(("rule", "example"), FIXES)
def test_fix_is_announced_with_the_safety_its_page_states(
    rule: type[Rule], example: FixExample, tmp_path: Path
) -> None:
    fixes = [f.fix for f in _lint(tmp_path, example.before) if f.code == rule.code and f.fix]
    safe = rule.fix_safety.lstrip().startswith("Safe fix:")
    expected = Applicability.SAFE if safe else Applicability.UNSAFE
    if example.applicability is not None:  # a form of its own, which the page names
        expected = example.applicability
        assert f"{expected.value.capitalize()} fix" in rule.fix_safety
    assert fixes
    assert all(fix.applicability is expected for fix in fixes)


def _run(source: str, probe: str, seed: int = 0) -> tuple[object, tuple[int, int, int]]:
    """Eager outputs and (graphs, breaks, frames skipped) under Dynamo of the probed callable
    in `source`."""
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    from breaklint.dynamic import torch_shim

    namespace: dict = {}
    exec(compile(source, "<fix example>", "exec", dont_inherit=True), namespace)
    torch.manual_seed(seed)
    function, args = eval(probe, {"torch": torch, **namespace})
    eager = function(*args)
    captured = torch_shim.capture(lambda compiled: compiled(*args), function)
    return eager, (len(captured.ops_per_graph), len(captured.breaks), captured.frames_skipped)


@pytest.mark.parametrize(("rule", "example"), FIXES)
def test_fix_breaks_less_and_keeps_eager_outputs(
    rule: type[Rule], example: FixExample, monkeypatch: pytest.MonkeyPatch
) -> None:
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    monkeypatch.setenv("PYTHONBREAKPOINT", "0")  # `breakpoint()` in a "before" returns at once
    before, counts_before = _run(example.before, example.probe)
    after, counts_after = _run(example.after, example.probe)
    assert counts_after == (*example.counts, example.frames_skipped)
    assert counts_before != counts_after
    torch.testing.assert_close(after, before, rtol=example.tolerance, atol=example.tolerance)


def test_every_fix_announced_on_the_corpora_is_made(tmp_path: Path) -> None:
    """What reports announce is what `--fix` does: over every corpus file of the suite."""
    corpora = [
        path
        for folder in ("tests/accuracy", "tests/corpus", "examples")
        for path in sorted((REPO / folder).rglob("*.py"))
    ]
    findings = lint_paths([str(p) for p in corpora], Settings(root=REPO), jobs=1).findings
    announced = [f for f in findings if f.fix is not None]
    plan = plan_fixes(announced, unsafe=True)
    assert plan.problems == {}
    assert plan.applied + plan.left == len(announced)
    assert len({f.code for f in announced}) >= 3


def test_every_rule_without_a_fix_says_on_its_page_why_none_exists() -> None:
    """A rule whose break can be removed in source offers a fix; every other rule's page says
    why no rewrite of the source removes its break and keeps the eager outputs."""
    for rule in all_rules().values():
        if rule.fix_applicability is None:
            assert rule.fix_safety is not Rule.fix_safety, rule.code  # its own reason
            assert rule.fix_safety.lstrip().startswith("No automatic fix: "), rule.code
            assert f"## Fix safety\n{rule.fix_safety.strip()}" in rule_page(rule)


def test_static_rules_without_fix_examples_offer_no_fix(tmp_path: Path) -> None:
    for rule in all_rules().values():
        if rule.phase is Phase.STATIC and not rule.fix_examples:
            assert "no automatic fix" in rule.fix_safety.lower(), rule.code
            findings = _lint(tmp_path, rule.example)
            assert all(f.fix is None for f in findings if f.code == rule.code), rule.code
    os.remove(tmp_path / "example.py")


HINTED = """
import torch


def pick(x, mask):
    total = x.sum().item()
    if (x > total).any():
        x = x.relu()
    while x.norm() > 1:
        x = x / 2
    keep = x > 0
    return x[keep], float(x.mean()), total
compiled = torch.compile(pick)
"""


def test_without_a_fix_the_hint_names_the_users_code(tmp_path: Path) -> None:
    findings = _lint(tmp_path, HINTED)
    hints = {(f.code, f.line): f.hint for f in findings if f.fix is None}
    # `x` is a parameter that may hold anything: `x = torch.where(..., x)` is not offered; the
    # loop after it only halves `x`, a tensor once `x.norm()` is read: `torch.while_loop`.
    assert [(f.code, f.line) for f in findings if f.fix] == [("BL201", 8)]
    assert hints == {
        ("BL101", 5): "no automatic fix: `total` is returned on line 11, which needs the number; "
        "use `x.sum()` itself where `x.sum().item()` is used: tensor arithmetic "
        "and `torch.where` take the tensor; or set torch._dynamo.config.capture_scalar_outputs "
        "= True",
        ("BL201", 6): "keep the choice in the graph: `torch.where((x > total).any(), a, b)` for "
        "values, `torch.cond((x > total).any(), true_fn, false_fn)` for branches; or decide on "
        "shapes or flags",
        ("BL302", 11): "keep a fixed shape: compute on `torch.where(keep, x, 0)` (or weight `x` "
        "by the mask) instead of `x[keep]`, or set "
        "torch._dynamo.config.capture_dynamic_output_shape_ops = True",
        ("BL102", 11): "use `x.mean()` itself where `float(x.mean())` is used: tensor "
        "arithmetic and `torch.where` take the tensor; or set "
        "torch._dynamo.config.capture_scalar_outputs = True",
    }
