"""The result cache: per-file index and findings, keyed by content hash, stored as JSON.

JSON and never pickle: a cache inside a repository must not be able to run code when loaded.
A file's entry (its index and its findings against its own scope) is keyed by its path,
content and the enabled codes; a re-check also by exactly what the project's scope handed to
the file (functions, roots, labels) and its imports, so a change in another file re-checks the
functions it affects. Every key includes the numpy knowledge and breaklint's own code.
A whole run is one more entry, keyed by all of its files, so an unchanged tree costs one read.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import hashlib
import json
import os
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from breaklint import __version__
from breaklint.findings import Finding
from breaklint.index import ClassInfo, FunctionInfo, HookRegistration, ImportAlias, ModuleIndex
from breaklint.scope import Scope, ScopedFunction

if TYPE_CHECKING:
    from breaklint.checker import FileResult

CACHE_DIR = ".breaklint_cache"


def file_digest(path: str) -> str | None:
    """The SHA-256 of a file's bytes, or None when it cannot be read (then nothing is cached)."""
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def code_fingerprint() -> str:
    """Size and mtime of breaklint's own sources: an edited rule (editable install, a local
    patch) invalidates the cache even though the version string did not change."""
    import breaklint
    import breaklint.rules

    stats = []
    for package in (breaklint, breaklint.rules):
        for folder in package.__path__:
            for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                if entry.name.endswith(".py"):
                    info = entry.stat()
                    stats.append(f"{entry.path}:{info.st_size}:{info.st_mtime_ns}")
    return hashlib.sha256("\n".join(stats).encode()).hexdigest()[:16]


class ResultCache:
    """Entries under `<root>/.breaklint_cache/`, which ignores itself for git."""

    def __init__(self, root: Path, salt: str) -> None:
        self.folder = root / CACHE_DIR
        self.salt = f"{__version__}|{code_fingerprint()}|{salt}"

    def key(self, inputs: object) -> str:
        """The entry's name: a hash of what its value depends on (JSON data)."""
        text = f"{self.salt}|{json.dumps(inputs, separators=(',', ':'))}"
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def load(self, key: str) -> Any:
        """The stored value, or None when absent or unreadable (a corrupt entry is a miss)."""
        try:
            with open(self.folder / key[:2] / f"{key}.json", encoding="utf-8") as handle:
                return json.load(handle)
        except (OSError, ValueError, RecursionError):  # json recurses once per nesting level
            return None

    def store(self, key: str, value: Any) -> None:
        """Write atomically (a temporary file renamed into place); a cache that cannot be
        written is no error. Creating a file is what costs (up to a millisecond on virtual
        disks), so folders are made only when the first write finds them missing."""
        folder = self.folder / key[:2]
        temporary = folder / f"{key}.{os.getpid()}.tmp"
        text = json.dumps(value, separators=(",", ":"))
        try:
            try:
                _write_new(temporary, text)
            except FileNotFoundError:
                self._make_folder(folder)
                _write_new(temporary, text)
            os.replace(temporary, folder / f"{key}.json")
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temporary)  # ours: the name holds this process's id

    def _make_folder(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        ignore = self.folder / ".gitignore"
        if not ignore.is_file():
            ignore.write_text("*\n", encoding="utf-8")


def _write_new(path: Path, text: str) -> None:
    with open(path, "x", encoding="utf-8") as handle:  # never someone else's file
        handle.write(text)


def _table(
    kind: type, items: Iterable[Any], nested: Mapping[str, type] = {}, one: Mapping[str, type] = {}
) -> dict[str, Any]:
    """Dataclass instances as a table: field names once, then one row of values per item;
    the `nested` fields hold tuples of another dataclass, stored as tables in turn, and the
    `one` fields one dataclass instance, stored by field name."""
    names = [f.name for f in fields(kind)]

    def cell(item: Any, name: str) -> Any:
        value = getattr(item, name)
        if name in one:
            return asdict(value)
        return _table(nested[name], value) if name in nested else value

    return {"fields": names, "rows": [[cell(item, name) for name in names] for item in items]}


def _from_table(kind: type, table: dict[str, Any], nested: Mapping[str, type] = {}) -> list[Any]:
    """The items of a table, read by field name and checked against the fields' types (a table
    of other fields or types raises TypeError or ValueError)."""
    hints = _hints(kind)

    def value(name: str, stored: Any) -> Any:
        if name in nested:
            return tuple(_from_table(nested[name], stored))
        return as_type(hints[name], stored)

    names = table["fields"]
    if not isinstance(names, list) or not isinstance(table["rows"], list):
        raise TypeError("a table holds lists")
    return [
        kind(**{name: value(name, stored) for name, stored in zip(names, row, strict=True)})
        for row in table["rows"]
    ]


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


def as_type(hint: Any, stored: Any) -> Any:
    """JSON data as the type `hint` says (a dataclass from its fields by name, an enum from its
    value, a tuple or set from a list), or TypeError/ValueError: a cache entry is checked, never
    trusted, and one of another shape is a miss."""
    return _converter(hint)(stored)


@functools.cache
def _converter(hint: Any) -> Callable[[Any], Any]:
    """The check and conversion for one type, built once: a warm run reads every finding."""
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        options = [_converter(option) for option in arguments]

        def union(stored: Any) -> Any:
            for option in options:
                try:
                    return option(stored)
                except (TypeError, ValueError):
                    continue
            raise TypeError(f"{stored!r:.40} is not {hint}")

        return union
    if origin in (tuple, list, frozenset, set):
        item, collection = _converter(arguments[0]), list if origin is list else origin
        return lambda stored: collection(item(value) for value in _checked(list, stored))
    if origin is dict:
        key, item = (_converter(argument) for argument in arguments)
        return lambda stored: {key(k): item(v) for k, v in _checked(dict, stored).items()}
    if hint is type(None):
        return lambda stored: _checked(type(None), stored)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        fields = {name: _converter(field) for name, field in _hints(hint).items()}
        return lambda stored: hint(
            **{name: fields[name](value) for name, value in _checked(dict, stored).items()}
        )
    return lambda stored: _checked(hint, stored)


def _checked(kind: type, stored: Any) -> Any:
    # Exactly the type: bool is an int to Python, not to a cache entry.
    if type(stored) is not kind:
        raise TypeError(f"{stored!r:.40} is not {kind.__name__}")
    return stored


_FUNCTION_NESTED = {"imports": ImportAlias}


def index_to_json(index: ModuleIndex) -> dict[str, Any]:
    return {
        "path": index.path,
        "imports": index.imports,
        "imports_torch": index.imports_torch,
        "classes": _table(ClassInfo, index.classes.values()),
        "functions": _table(FunctionInfo, index.functions.values(), _FUNCTION_NESTED),
        "compiled_names": sorted(index.compiled_names),
        "hooks": _table(HookRegistration, index.hooks),
        "type_aliases": index.type_aliases,
    }


def index_from_json(data: dict[str, Any]) -> ModuleIndex:
    classes = _from_table(ClassInfo, data["classes"])
    functions = _from_table(FunctionInfo, data["functions"], _FUNCTION_NESTED)
    hints = _hints(ModuleIndex)
    return ModuleIndex(
        path=as_type(hints["path"], data["path"]),
        imports=as_type(hints["imports"], data["imports"]),
        imports_torch=as_type(hints["imports_torch"], data["imports_torch"]),
        classes={c.name: c for c in classes},
        functions={f.qualname: f for f in functions},
        compiled_names=as_type(hints["compiled_names"], data["compiled_names"]),
        hooks=_from_table(HookRegistration, data["hooks"]),
        type_aliases=as_type(hints["type_aliases"], data["type_aliases"]),
    )


def findings_to_json(findings: list[Finding]) -> list[dict[str, Any]]:
    return [asdict(finding) for finding in findings]


def findings_from_json(data: list[dict[str, Any]]) -> list[Finding]:
    findings: list[Finding] = as_type(list[Finding], data)
    return findings


_SCOPED_NESTED = {"registrations": HookRegistration}
_SCOPED_ONE = {"scope": Scope}


def scoped_to_json(functions: Sequence[ScopedFunction]) -> dict[str, Any]:
    return _table(ScopedFunction, functions, _SCOPED_NESTED, _SCOPED_ONE)


def file_result_to_json(result: FileResult) -> dict[str, Any]:
    index = result.index
    return {
        "path": result.path,
        "index": None if index is None else index_to_json(index),
        "problems": findings_to_json(result.problems),
        "checked": {
            "functions": scoped_to_json([c.function for c in result.checked]),
            "findings": [findings_to_json(c.findings) for c in result.checked],
        },
    }


def file_result_from_json(data: dict[str, Any]) -> FileResult:
    from breaklint.checker import CheckedFunction, FileResult

    index, checked = data["index"], data["checked"]
    path = as_type(str, data["path"])
    functions = _from_table(ScopedFunction, checked["functions"], _SCOPED_NESTED)
    return FileResult(
        path,
        None if index is None else index_from_json(index),
        findings_from_json(data["problems"]),
        [
            CheckedFunction(function, findings_from_json(findings))
            for function, findings in zip(
                functions, as_type(list, checked["findings"]), strict=True
            )
        ],
    )
