"""The result cache: same findings cold, warm and in parallel; invalidated across files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import breaklint.rules as breaklint_rules

CACHE = ".breaklint_cache"

MODEL = """
    import torch


    class Model{n}(torch.nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                print(x)
            return x * x.max().item()
"""

NOT_A_MODULE = """
    class Base:
        pass
"""

A_MODULE = """
    import torch


    class Base(torch.nn.Module):
        pass
"""

SUBCLASS = """
    from base import Base


    class Net(Base):
        def forward(self, x):
            return x * x.max().item()
"""


def _concise(breaklint, *args: str) -> list[str]:
    result = breaklint("--output-format", "concise", *args, ".")
    assert result.returncode in (0, 1), result.stderr
    return result.stdout.splitlines()


def _entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / CACHE).glob("*/*.json"))


def test_cold_warm_and_parallel_runs_report_the_same(breaklint, write, tmp_path):
    for n in range(10):
        write(f"models/model{n}.py", MODEL.format(n=n))
    serial = _concise(breaklint, "--jobs", "1", "--no-cache")
    assert not (tmp_path / CACHE).exists()
    assert len(serial) == 30
    assert serial[0].startswith("models/model0.py:6:12: BL201 ")
    cold = _concise(breaklint, "--jobs", "2")
    assert _entries(tmp_path)
    warm = _concise(breaklint, "--jobs", "2")
    warm_serial = _concise(breaklint, "--jobs", "1")
    assert cold == warm == warm_serial == serial


def test_cache_folder_ignores_itself(breaklint, write, tmp_path):
    write("model.py", MODEL.format(n=0))
    _concise(breaklint)
    assert (tmp_path / CACHE / ".gitignore").read_text(encoding="utf-8") == "*\n"


def test_a_changed_base_class_relints_its_subclasses(breaklint, write):
    write("base.py", NOT_A_MODULE)
    write("net.py", SUBCLASS)
    assert _concise(breaklint) == []
    write("base.py", A_MODULE)
    assert [line.split(" ")[:2] for line in _concise(breaklint)] == [["net.py:6:20:", "BL101"]]
    write("base.py", NOT_A_MODULE)
    assert _concise(breaklint) == []


def test_a_changed_file_is_relinted(breaklint, write):
    path = write("model.py", MODEL.format(n=0))
    assert len(_concise(breaklint)) == 3
    path.write_text(path.read_text(encoding="utf-8").replace(".item()", ""), encoding="utf-8")
    assert [line.split(" ")[1] for line in _concise(breaklint)] == ["BL201", "BL401"]


def test_corrupted_entries_are_ignored(breaklint, write, tmp_path):
    for n in range(3):
        write(f"model{n}.py", MODEL.format(n=n))
    expected = _concise(breaklint)
    entries = _entries(tmp_path)
    for number, entry in enumerate(entries):
        # Truncated JSON, JSON of the wrong shape, and bytes that are not text at all.
        entry.write_bytes([b'{"path": ', b'{"unexpected": []}', b"\xff\x00"][number % 3])
    assert _concise(breaklint) == expected
    assert _concise(breaklint) == expected


def test_an_entry_nested_too_deeply_is_a_miss(breaklint, write, tmp_path):
    write("model.py", MODEL.format(n=0))
    expected = _concise(breaklint)
    for entry in _entries(tmp_path):
        entry.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    assert _concise(breaklint) == expected


def _retyped(value, key=None):
    """A cache entry with every value of some fields turned into another type."""
    if isinstance(value, dict):
        return {k: _retyped(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_retyped(v) for v in value]
    wrong = {"line": str, "column": bool, "path": lambda v: None, "code": lambda v: 101}
    return wrong[key](value) if key in wrong else value


def test_entries_with_values_of_the_wrong_type_are_misses(breaklint, write, tmp_path):
    for n in range(3):
        write(f"model{n}.py", MODEL.format(n=n))
    expected = _concise(breaklint)
    for entry in _entries(tmp_path):
        data = json.loads(entry.read_text(encoding="utf-8"))
        entry.write_text(json.dumps(_retyped(data)), encoding="utf-8")
    result = breaklint("--output-format", "json", ".")
    findings = json.loads(result.stdout)["findings"]
    assert [(f["path"], f["line"], f["column"]) for f in findings] == [
        (line.split(":")[0], int(line.split(":")[1]), int(line.split(":")[2])) for line in expected
    ]
    assert _concise(breaklint) == expected


def test_editing_breaklint_itself_invalidates_the_cache(tmp_path):
    from breaklint.cache import ResultCache

    rule_file = Path(breaklint_rules.__path__[0]) / "values" / "tensor_item.py"
    before = ResultCache(tmp_path, "salt").key("same")
    stat = rule_file.stat()
    try:
        os.utime(rule_file, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        assert ResultCache(tmp_path, "salt").key("same") != before
    finally:
        os.utime(rule_file, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert ResultCache(tmp_path, "salt").key("same") == before


HELPERS = """
    def scale(x):
        return x * x.max().item()
"""

CALLER = """
    import torch
    from helpers import scale


    class Net(torch.nn.Module):
        def forward(self, x):
            return {body}
"""


def _located(breaklint, *args: str) -> list[tuple[str, int, str, str]]:
    result = breaklint("--output-format", "json", *args, ".")
    assert result.returncode in (0, 1), result.stderr
    return [
        (f["path"], f["line"], f["code"], f["scope"]) for f in json.loads(result.stdout)["findings"]
    ]


def test_a_function_reached_from_another_file_follows_its_callers(breaklint, write):
    # helpers.py compiles nothing of its own: `scale` is checked only because net.py calls it.
    write("helpers.py", HELPERS)
    write("net.py", CALLER.format(body="scale(x)"))
    reached = [("helpers.py", 2, "BL101", "reached from Net.forward")]
    assert _located(breaklint, "--jobs", "1", "--no-cache") == reached
    assert _located(breaklint) == reached  # cold
    assert _located(breaklint) == reached  # warm
    write("net.py", CALLER.format(body="x"))
    assert _located(breaklint) == []  # helpers.py did not change, its scope did
    write("net.py", CALLER.format(body="scale(x)"))
    assert _located(breaklint) == reached


def test_scope_round_trips_by_field_name() -> None:
    from breaklint.cache import file_result_from_json, file_result_to_json
    from breaklint.checker import CheckedFunction, FileResult
    from breaklint.findings import Finding, Range, Severity
    from breaklint.scope import EVERYTHING, Scope, ScopedFunction

    scopes = [Scope("Net.forward"), Scope("Net.forward", reached=True), EVERYTHING]
    checked = [
        CheckedFunction(
            ScopedFunction(f"f{n}", n, scope),
            [
                Finding(
                    "BL101", "n", Severity.ERROR, "m", "a.py", Range(n, 1, n, 2), "u", scope=scope
                )
            ],
        )
        for n, scope in enumerate(scopes, 1)
    ]
    result = FileResult("a.py", None, [], checked, settled=checked[1:2])
    stored = json.loads(json.dumps(file_result_to_json(result)))
    assert stored["checked"]["findings"][1][0]["scope"] == {"root": "Net.forward", "reached": True}
    assert [row[0] for row in stored["settled"]["functions"]["rows"]] == ["f2"]
    assert file_result_from_json(stored, "a.py") == result


def test_a_file_result_sends_its_index_pickled_apart(tmp_path: Path) -> None:
    """Between processes the index travels as bytes, unpickled only when read; the words
    travel beside it."""
    import pickle

    from breaklint.checker import check_file
    from breaklint.scope import ScopeOptions

    path = tmp_path / "net.py"
    path.write_text("import torch\n\n@torch.compile\ndef f(x):\n    return x.item()\n")
    result = check_file(str(path), [], "net", frozenset({"BL101"}), ScopeOptions())
    received = pickle.loads(pickle.dumps(result))
    assert isinstance(received.stored_index, bytes)
    assert received.parsed and received.words == result.words != ""
    assert received.checked == result.checked
    assert received.index == result.index
    assert not isinstance(received.stored_index, bytes)


def _planted(tmp_path: Path, change) -> None:
    """Every cache entry rewritten by `change` (a function of its JSON data)."""
    for entry in _entries(tmp_path):
        data = json.loads(entry.read_text(encoding="utf-8"))
        entry.write_text(json.dumps(change(data)), encoding="utf-8")


def _repointed(value, target: str):
    """An entry whose `path` fields all name `target`."""
    if isinstance(value, dict):
        return {k: target if k == "path" else _repointed(v, target) for k, v in value.items()}
    if isinstance(value, list):
        return [_repointed(v, target) for v in value]
    return value


def test_an_entry_naming_another_file_is_a_miss_and_that_file_is_never_fixed(
    breaklint, write, tmp_path
):
    outside = tmp_path.parent / f"{tmp_path.name}-outside.py"
    original = MODEL.format(n=9)
    outside.write_text(original, encoding="utf-8")
    os.chmod(outside, 0o444)
    write("model.py", MODEL.format(n=0))
    expected = _concise(breaklint)
    _planted(tmp_path, lambda data: _repointed(data, str(outside)))
    assert _concise(breaklint) == expected
    _planted(tmp_path, lambda data: _repointed(data, str(outside)))
    result = breaklint("--fix", "--unsafe-fixes", "--output-format", "concise", ".")
    assert str(outside) not in result.stdout + result.stderr
    assert outside.read_text(encoding="utf-8") == original
    assert "BL101" not in (tmp_path / "model.py").read_text(encoding="utf-8")


def _recoded(value):
    if isinstance(value, dict):
        return {k: "BL999" if k == "code" else _recoded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_recoded(v) for v in value]
    return value


def test_an_entry_with_an_unknown_rule_code_is_a_miss(breaklint, write, tmp_path):
    write("model.py", MODEL.format(n=0))
    expected = _concise(breaklint)
    _planted(tmp_path, _recoded)
    result = breaklint("--output-format", "concise", ".")
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == expected
    assert "internal error" not in result.stderr


def test_special_and_huge_entries_are_misses_never_read(breaklint, write, tmp_path):
    write("model.py", MODEL.format(n=0))
    expected = _concise(breaklint)
    entries = _entries(tmp_path)
    assert entries
    for number, entry in enumerate(entries):
        entry.unlink()
        if number % 3 == 0:
            os.mkfifo(entry)  # a read would block forever
        elif number % 3 == 1:
            entry.symlink_to("/dev/zero")  # a read would never end
        else:
            with open(entry, "wb") as handle:  # over the bound: sparse, costs no disk
                handle.truncate(200 * 2**20)
    result = breaklint("--output-format", "concise", ".")
    assert result.stdout.splitlines() == expected
    assert result.returncode == 1, result.stderr


def test_a_cache_folder_that_is_a_symlink_is_refused(breaklint, write, tmp_path):
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    elsewhere.mkdir()
    write("model.py", MODEL.format(n=0))
    (tmp_path / CACHE).symlink_to(elsewhere)
    result = breaklint("--output-format", "concise", ".")
    assert result.returncode == 1
    assert len(result.stdout.splitlines()) == 3
    assert f"breaklint: warning: cache not used: '{CACHE}' is a symlink" in result.stderr
    assert list(elsewhere.iterdir()) == []


def test_a_dangling_gitignore_symlink_is_never_written_through(breaklint, write, tmp_path):
    target = tmp_path.parent / f"{tmp_path.name}-planted"
    write("model.py", MODEL.format(n=0))
    (tmp_path / CACHE).mkdir()
    (tmp_path / CACHE / ".gitignore").symlink_to(target)
    result = breaklint("--output-format", "concise", ".")
    assert result.returncode == 1
    assert len(result.stdout.splitlines()) == 3
    assert f"'{CACHE}/.gitignore' is a symlink" in result.stderr
    assert not target.exists()
    assert _entries(tmp_path) == []


def test_a_package_and_one_of_its_files_alone_each_keep_their_findings(breaklint, write):
    # In its package, a module is linked to the package's `__init__` by its path: its worker
    # only indexes it, and its functions are checked against the project's scope. Alone, it
    # is checked in full. Neither run takes the other's entry for that file.
    write("models/__init__.py", "")
    for n in range(3):
        write(f"models/model{n}.py", MODEL.format(n=n))

    def concise(*args: str) -> list[str]:
        result = breaklint("--output-format", "concise", *args)
        assert result.returncode in (0, 1), result.stderr
        return result.stdout.splitlines()

    package = concise("--no-cache", "models")
    alone = concise("--no-cache", "models/model1.py")
    assert len(package) == 9
    assert alone == [line for line in package if line.startswith("models/model1.py:")]
    assert len(alone) == 3
    assert concise("models") == package  # cold, with the cache
    assert concise("models/model1.py") == alone  # the package's entries do not answer it
    assert concise("models") == package  # warm
