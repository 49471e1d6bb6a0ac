"""Find the Python files under the given paths."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field

from breaklint.config import Settings
from breaklint.source import kind_of


@dataclass(slots=True)
class Discovery:
    files: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # paths that do not exist
    empty: list[str] = field(default_factory=list)  # folders holding no Python file
    unreadable: list[Unreadable] = field(default_factory=list)  # folders the walk could not list
    special: list[Skipped] = field(default_factory=list)  # FIFOs, devices...: never read


@dataclass(frozen=True, slots=True)
class Unreadable:
    folder: str
    reason: str  # e.g. "Permission denied"


@dataclass(frozen=True, slots=True)
class Skipped:
    path: str
    reason: str  # e.g. "not a regular file (a FIFO)"


def _is_virtualenv(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, "pyvenv.cfg"))


def discover(paths: list[str], settings: Settings) -> Discovery:
    """Walk folders (pruning excluded ones); explicit files are kept unless --force-exclude."""
    result = Discovery()
    seen: set[str] = set()

    def add(path: str) -> None:
        key = os.path.realpath(path)
        if key in seen:
            return
        seen.add(key)
        try:
            mode = os.stat(path).st_mode
        except OSError:
            mode = stat.S_IFREG  # a dangling link: reading it says why (BL001)
        if stat.S_ISREG(mode):
            result.files.append(path)
        else:  # a FIFO would block the run, a device never end: skipped, and said so
            result.special.append(Skipped(path, f"not a regular file ({kind_of(mode)})"))

    def unreadable(error: OSError) -> None:
        # Skipped, but never silently: its files would be missing from the run.
        reason = error.strerror or str(error)
        result.unreadable.append(Unreadable(os.path.normpath(str(error.filename)), reason))

    for raw in paths:
        path = os.path.normpath(raw)
        if not os.path.exists(path):
            result.missing.append(raw)
        elif not os.path.isdir(path):
            if not (settings.force_exclude and settings.is_excluded(path)):
                add(path)
        else:
            before = len(result.files)
            if not (settings.force_exclude and settings.is_excluded(path)):
                for folder, subfolders, names in os.walk(path, onerror=unreadable):
                    subfolders[:] = sorted(
                        d
                        for d in subfolders
                        if not settings.is_excluded(os.path.join(folder, d), ancestors=False)
                        and not _is_virtualenv(os.path.join(folder, d))
                    )
                    for name in sorted(names):
                        full = os.path.normpath(os.path.join(folder, name))
                        if name.endswith(".py") and not settings.is_excluded(full, ancestors=False):
                            add(full)
            if len(result.files) == before:
                result.empty.append(raw)
    result.files.sort()
    return result


def linted_trees(paths: list[str]) -> tuple[str, ...]:
    """The real paths of the folders a run lints: each folder given, and the folder holding
    each file given (as named: a symlink's own folder, not its target's)."""
    return tuple(
        os.path.realpath(path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path)))
        for path in paths
    )


def package_parts(path: str, cache: dict[str, list[str]]) -> list[str]:
    """The dotted package a file belongs to, following `__init__.py` files upwards."""
    return _folder_package(os.path.dirname(os.path.realpath(path)), cache)


def _folder_package(folder: str, cache: dict[str, list[str]]) -> list[str]:
    # Plain string work on an already resolved folder: resolving each parent again was most
    # of a run answered from the cache.
    if folder not in cache:
        parent = os.path.dirname(folder)
        if os.path.isfile(os.path.join(folder, "__init__.py")) and parent != folder:
            cache[folder] = [*_folder_package(parent, cache), os.path.basename(folder)]
        else:
            cache[folder] = []
    return cache[folder]
