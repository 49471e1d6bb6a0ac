"""Find the Python files under the given paths."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from breaklint.config import Settings


@dataclass(slots=True)
class Discovery:
    files: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # paths that do not exist
    empty: list[str] = field(default_factory=list)  # folders holding no Python file
    unreadable: list[Unreadable] = field(default_factory=list)  # folders the walk could not list


@dataclass(frozen=True, slots=True)
class Unreadable:
    folder: str
    reason: str  # e.g. "Permission denied"


def _is_virtualenv(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, "pyvenv.cfg"))


def discover(paths: list[str], settings: Settings) -> Discovery:
    """Walk folders (pruning excluded ones); explicit files are kept unless --force-exclude."""
    result = Discovery()
    seen: set[str] = set()

    def add(path: str) -> None:
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            result.files.append(path)

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
