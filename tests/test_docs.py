"""The documentation site: rule pages generated from the registry, built by MkDocs, and every
link a finding carries names a page the build produced."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from breaklint import DOCS_URL
from breaklint.pages import pages, stale
from breaklint.rule import all_rules
from conftest import REPO, run_breaklint

DOCS = REPO / "docs"


def test_rule_pages_are_generated_from_the_registry():
    assert stale(DOCS) == [], "run: python -m breaklint.pages docs"


def test_site_url_is_the_root_of_every_finding_url():
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    assert f"site_url: {DOCS_URL}" in config
    assert all(rule.url().startswith(f"{DOCS_URL}rules/") for rule in all_rules().values())


def _run_pages(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "breaklint.pages", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_check_names_stale_pages_and_writing_fixes_them(tmp_path: Path):
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    page = docs / "rules" / "BL101-tensor-item.md"
    page.write_text("edited by hand\n", encoding="utf-8")
    (docs / "rules" / "BL999-gone.md").write_text("a rule that no longer exists\n")
    checked = _run_pages(str(docs), "--check")
    assert checked.returncode == 1
    assert f"{page} is out of date" in checked.stderr
    assert page.read_text(encoding="utf-8") == "edited by hand\n"
    assert _run_pages(str(docs)).returncode == 0
    assert page.read_text(encoding="utf-8") == pages()["rules/BL101-tensor-item.md"]
    assert not (docs / "rules" / "BL999-gone.md").exists()
    assert _run_pages(str(docs), "--check").returncode == 0


def _built_page(site: Path, url: str) -> Path:
    return site / url.removeprefix(DOCS_URL) / "index.html"


@pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None, reason="building the site needs mkdocs"
)
def test_strict_build_has_a_page_for_every_url_findings_carry(tmp_path: Path):
    site = tmp_path / "site"
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    built = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    for rule in all_rules().values():
        assert _built_page(site, rule.url()).is_file(), rule.url()
    corpus = run_breaklint(
        "tests/corpus", "--output-format", "json", "--isolated", "--no-cache", cwd=REPO
    )
    urls = {finding["url"] for finding in json.loads(corpus.stdout)["findings"]}
    assert len(urls) > 5
    assert [url for url in urls if not _built_page(site, url).is_file()] == []
