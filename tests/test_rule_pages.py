"""Every rule page proves itself: its example is flagged and really breaks under Dynamo, its
alternative is clean and compiles to one graph, and a rule's fix turns the one into the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.rule import Phase, Rule, all_rules, rule_page, why_title
from conftest import compile_and_count, compile_over_calls

# Rules about files breaklint could not check have no examples; dynamic ones come from probes.


RULES = [rule for rule in all_rules().values() if rule.phase is Phase.STATIC]
PROBED = [rule for rule in RULES if rule.probe and not rule.recompiles]
RECOMPILING = [rule for rule in RULES if rule.probe and rule.recompiles]
# A rule's example may call an installed library (`Rule.example_library`): installed first.
pytestmark = pytest.mark.usefixtures("installed_library")


def codes_found(tmp_path: Path, source: str) -> list[str]:
    path = tmp_path / "page_example.py"
    path.write_text(source.strip() + "\n", encoding="utf-8")
    # Calls into installed libraries followed: an example may call one (`Rule.example_library`).
    result = lint_paths([str(path)], Settings(root=tmp_path, dependencies=True), jobs=1)
    return [finding.code for finding in result.findings]


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_example_is_flagged_and_alternative_is_clean(rule: type[Rule], tmp_path: Path) -> None:
    assert rule.code in codes_found(tmp_path, rule.example)
    assert codes_found(tmp_path, rule.use_instead) == []


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_page_has_every_section(rule: type[Rule]) -> None:
    page = rule_page(rule)
    assert page.startswith(f"# {rule.code} {rule.name} ({rule.severity})\n")
    for section in ("What it does", why_title(rule), "Example", "Use instead"):
        assert f"\n## {section}\n" in page
    assert rule.probe, "every rule page needs a probe so that Dynamo checks its examples"


@pytest.mark.parametrize("rule", PROBED, ids=lambda rule: rule.code)
def test_example_breaks_under_dynamo(rule: type[Rule]) -> None:
    graphs, breaks = compile_and_count(rule.example, rule.probe)
    # A skipped frame records no graph; a break records several graphs or counts a break.
    assert graphs != 1 or breaks > 0, f"{rule.code} example compiled to one clean graph"


@pytest.mark.parametrize("rule", PROBED, ids=lambda rule: rule.code)
def test_alternative_compiles_to_one_graph(rule: type[Rule]) -> None:
    assert compile_and_count(rule.use_instead, rule.probe) == (1, 0)


@pytest.mark.parametrize("rule", RECOMPILING, ids=lambda rule: rule.code)
def test_example_compiles_again_on_every_call(rule: type[Rule]) -> None:
    assert rule.probe is not None
    counted = compile_over_calls(rule.example, rule.probe)
    assert counted.calls >= 4
    assert counted.compiles == counted.calls, f"{rule.code} example: {counted}"


@pytest.mark.parametrize("rule", RECOMPILING, ids=lambda rule: rule.code)
def test_alternative_stops_compiling(rule: type[Rule]) -> None:
    # At most the first call and one graph general in the value (automatic dynamic).
    assert rule.probe is not None
    assert compile_over_calls(rule.use_instead, rule.probe).compiles <= 2


def test_readme_lists_every_rule_of_the_registry() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    table = readme.split("| code | name | severity | what it flags |")[1].split("\n\n")[0]
    rows = [line.split(" | ")[:3] for line in table.splitlines() if line.startswith("| BL")]
    expected = [[f"| {r.code}", f"`{r.name}`", r.severity.value] for r in all_rules().values()]
    assert rows == expected
