"""The documentation site's pages, generated from the rule registry.

`python -m breaklint.pages docs` writes `docs/rules/<page>.md` for every rule and the rules
index beside them; `--check` writes nothing and exits 1 when a page on disk differs from what
the registry gives (the test suite runs it). MkDocs builds the site from `docs/` (`mkdocs.yml`),
so every finding's `url` (`Rule.url()`: `DOCS_URL` + the page's path) names a page of it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from breaklint import DOCS_URL
from breaklint.rule import Rule, all_rules, rule_page

RULES_FOLDER = "rules"


def page_path(rule: type[Rule]) -> str:
    """The page's file under the docs folder: the build serves it at `Rule.url()`."""
    relative = rule.url().removeprefix(DOCS_URL).strip("/")
    return f"{relative}.md"


def _summary(rule: type[Rule]) -> str:
    """The first sentence of what the rule does, on one line, for the index table."""
    what = " ".join(rule.what.split())
    return what.split(". ")[0].rstrip(".").replace("|", "\\|")


def _index(rules: list[type[Rule]]) -> str:
    rows = [
        f"| [{r.code}]({Path(page_path(r)).name}) | `{r.name}` | {r.severity.value} "
        f"| {_summary(r)} |"
        for r in rules
    ]
    header = [
        "# Rules",
        "",
        "| code | name | severity | what it flags |",
        "| --- | --- | --- | --- |",
    ]
    return "\n".join([*header, *rows]) + "\n"


def pages() -> dict[str, str]:
    """Path under the docs folder -> content, for every generated page."""
    rules = list(all_rules().values())
    generated = {page_path(rule): rule_page(rule) for rule in rules}
    generated[f"{RULES_FOLDER}/index.md"] = _index(rules)
    return generated


def stale(docs: Path) -> list[str]:
    """The generated pages that are missing from `docs` or differ from the registry, and the
    rule pages on disk that no rule generates any more."""
    wanted = pages()
    on_disk = {path.relative_to(docs).as_posix() for path in (docs / RULES_FOLDER).glob("*.md")}
    differing = [
        name
        for name, text in wanted.items()
        if not (docs / name).is_file() or (docs / name).read_text(encoding="utf-8") != text
    ]
    return sorted([*differing, *(on_disk - set(wanted))])


def write(docs: Path) -> None:
    wanted = pages()
    for name in stale(docs):
        target = docs / name
        text = wanted.get(name)
        if text is None:
            target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m breaklint.pages", description=__doc__)
    parser.add_argument("docs", type=Path, help="the docs folder (docs/ of the repository)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    outdated = stale(args.docs)
    if args.check:
        for name in outdated:
            sys.stderr.write(f"{args.docs / name} is out of date: run python -m breaklint.pages\n")
        return 1 if outdated else 0
    write(args.docs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
