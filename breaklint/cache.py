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
import stat
import types
import typing
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from breaklint import __version__
from breaklint.codes import known_codes
from breaklint.findings import Finding
from breaklint.index import ClassInfo, FunctionInfo, HookRegistration, ImportAlias, ModuleIndex
from breaklint.scope import Scope, ScopedFunction
from breaklint.source import MAX_FILE_BYTES, display_path, read_regular

if TYPE_CHECKING:
    from breaklint.checker import CheckedFunction, FileResult

R = typing.TypeVar("R")

CACHE_DIR = ".breaklint_cache"


def file_digest(path: str) -> str | None:
    """The SHA-256 of a file's bytes, or None when it cannot be read (then nothing is cached)."""
    try:
        return hashlib.sha256(read_regular(path)).hexdigest()
    except OSError:
        return None


def text_digest(text: str) -> str:
    """The digest of a text that is not (yet) a file's: an editor's unsaved buffer."""
    return "text:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def code_fingerprint() -> str:
    """Size and mtime of breaklint's own sources: an edited rule or fact about torch (editable
    install, a local patch) invalidates the cache even though the version string did not
    change."""
    import breaklint

    stats = []
    for folder in breaklint.__path__:
        for parent, folders, files in os.walk(folder):
            folders.sort()
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(parent, name)
                    info = os.stat(path)
                    stats.append(f"{path}:{info.st_size}:{info.st_mtime_ns}")
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

    def refused(self) -> str | None:
        """Why this cache folder must not be used, if it must not: a symlink (the cache or its
        .gitignore) would have breaklint write where it points, outside the project."""
        for path in (self.folder, self.folder / ".gitignore"):
            try:
                mode = os.lstat(path).st_mode
            except FileNotFoundError:
                return None
            except OSError as error:
                return f"'{display_path(str(path))}' cannot be read ({error.strerror or error})"
            if stat.S_ISLNK(mode):
                return f"'{display_path(str(path))}' is a symlink"
            if path == self.folder and not stat.S_ISDIR(mode):
                return f"'{display_path(str(path))}' is not a folder"
        return None

    def load(self, key: str) -> Any:
        """The stored value, or None when absent or unreadable (a corrupt entry, a symlink, a
        FIFO or device, an entry over the size bound: a miss, never a blocked or endless read)."""
        try:
            data = read_regular(self.folder / key[:2] / f"{key}.json", follow=False)
            return json.loads(data.decode("utf-8"))
        except (OSError, ValueError, RecursionError):  # json recurses once per nesting level
            return None

    def load_result(self, key: str, decode: Callable[[Any], R]) -> R | None:
        """The stored value as `decode` makes it a result; None when absent, unreadable or of
        another shape (`decode` raises KeyError, TypeError or ValueError): a miss."""
        stored = self.load(key)
        try:
            return None if stored is None else decode(stored)
        except (KeyError, TypeError, ValueError):
            return None

    def store(self, key: str, value: Any) -> None:
        """Write atomically (a temporary file renamed into place); a cache that cannot be
        written is no error. Creating a file is what costs (up to a millisecond on virtual
        disks), so folders are made only when the first write finds them missing."""
        folder = self.folder / key[:2]
        temporary = folder / f"{key}.{os.getpid()}.tmp"
        text = json.dumps(value, separators=(",", ":"))
        if len(text) > MAX_FILE_BYTES:
            return  # `load` would not read it back
        try:
            if os.path.islink(folder):
                return  # a link planted in the cache would take the write out of it
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
        # Never through a symlink, dangling or not: O_EXCL creates a new file or fails.
        with contextlib.suppress(FileExistsError):
            _write_new(self.folder / ".gitignore", "*\n")


class MemoryCache(ResultCache):
    """Entries kept in this process (a language server's), the least recently used dropped
    past `limit`. A miss reads the project's folder, which it never writes: an editor's
    unsaved text is no file's, and a keystroke must not cost a file. Entries are kept as JSON
    text (readers take the data they are given apart), and each result once decoded: decoding
    every other file's index again on each keystroke would cost more than checking the one
    that changed. Results are never changed once made, so one object serves every run."""

    def __init__(self, root: Path, salt: str, limit: int = 20_000) -> None:
        super().__init__(root, salt)
        self.root = root
        self.limit = limit
        self._entries: OrderedDict[str, str] = OrderedDict()
        self._decoded: OrderedDict[str, Any] = OrderedDict()

    def load_result(self, key: str, decode: Callable[[Any], R]) -> R | None:
        if key in self._decoded:
            self._decoded.move_to_end(key)
            return typing.cast(R, self._decoded[key])
        result = super().load_result(key, decode)
        if result is not None:
            self._decoded[key] = result
            while len(self._decoded) > self.limit:
                self._decoded.popitem(last=False)
        return result

    def load(self, key: str) -> Any:
        if key in self._entries:
            self._entries.move_to_end(key)
            return json.loads(self._entries[key])
        value = super().load(key)
        if value is not None:
            self.store(key, value)
        return value

    def store(self, key: str, value: Any) -> None:
        self._entries[key] = json.dumps(value, separators=(",", ":"))
        self._entries.move_to_end(key)
        while len(self._entries) > self.limit:
            self._entries.popitem(last=False)


def _write_new(path: Path, text: str) -> None:
    """Create `path` (never someone else's file, never through a symlink) holding `text`."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(path, flags, 0o666), "w", encoding="utf-8") as handle:
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
    if origin is tuple and arguments[-1:] != (Ellipsis,):  # fixed length: `tuple[str, int]`
        items = [_converter(argument) for argument in arguments]

        def fixed(stored: Any) -> Any:
            values = _checked(list, stored)
            if len(values) != len(items):
                raise ValueError(f"{stored!r:.40} is not {hint}")
            return tuple(item(value) for item, value in zip(items, values, strict=True))

        return fixed
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
        "instances": index.instances,
        "containers": index.containers,
        "words": index.words,
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
        instances=as_type(hints["instances"], data["instances"]),
        containers=as_type(hints["containers"], data["containers"]),
        words=as_type(hints["words"], data["words"]),
    )


def findings_to_json(findings: list[Finding]) -> list[dict[str, Any]]:
    return [asdict(finding) for finding in findings]


def findings_from_json(data: list[dict[str, Any]], paths: Collection[str]) -> list[Finding]:
    """Stored findings, each of a known rule and in one of `paths` (the files the entry is
    about): ValueError otherwise, as an entry planted to point the report or --fix at another
    file, or naming a rule this breaklint lacks, is a miss."""
    findings: list[Finding] = as_type(list[Finding], data)
    codes = known_codes()
    for finding in findings:
        if finding.path not in paths or finding.code not in codes:
            raise ValueError(f"a stored finding of {finding.code} in {finding.path!r:.80}")
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
        "checked": _checked_to_json(result.checked),
        "settled": _checked_to_json(result.settled),
    }


def _checked_to_json(checked: Sequence[CheckedFunction]) -> dict[str, Any]:
    return {
        "functions": scoped_to_json([c.function for c in checked]),
        "findings": [findings_to_json(c.findings) for c in checked],
    }


def _checked_from_json(data: dict[str, Any], path: str) -> list[CheckedFunction]:
    from breaklint.checker import CheckedFunction

    functions = _from_table(ScopedFunction, data["functions"], _SCOPED_NESTED)
    return [
        CheckedFunction(function, findings_from_json(findings, (path,)))
        for function, findings in zip(functions, as_type(list, data["findings"]), strict=True)
    ]


def file_result_from_json(data: dict[str, Any], path: str) -> FileResult:
    """The stored result of checking `path`; ValueError when it is another file's."""
    from breaklint.checker import FileResult

    index = data["index"]
    if as_type(str, data["path"]) != path:
        raise ValueError(f"a stored result for {data['path']!r:.80}")
    module = None if index is None else index_from_json(index)
    if module is not None and module.path != path:
        raise ValueError(f"a stored index of {module.path!r:.80}")
    return FileResult(
        path,
        module,
        findings_from_json(data["problems"], (path,)),
        _checked_from_json(data["checked"], path),
        _checked_from_json(data["settled"], path),
        "" if module is None else module.words,
    )
