"""Module identity and import resolution in a linted tree (docs/analysis.md, "Modules").

A module is keyed by its file: by its dotted name (from its package chain) where no other
linted file has that name, by its absolute path where several do (`train/utils.py` and
`infer/utils.py`, both `utils`): no file overwrites another. A name an import uses is
resolved as Python would resolve it for the importing file when run: from the importer's
source root (its own folder for a script outside any package, the parent of its top package
otherwise: `sys.path[0]`), then the folders above it (a repository run from its root), then
the source roots of the other files; a name several files could answer from none of these
is ambiguous and resolves to nothing. The folders the probes put on `sys.path`
(`probe_roots.probe_search_folders`) are searched after the importer's: a module in one of
them is found by its bare name (`decoder` for src/model/decoder.py with src/model there),
also where its folder is a package.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence

_MAX_PATH_NAME = 6  # parts of a path-derived name (`module.commons`), at most


class ModuleTable:
    """The modules of a project by key, and what a dotted module name means from each."""

    def __init__(
        self, names_by_path: Mapping[str, str], search_folders: Sequence[str] = ()
    ) -> None:
        self._search_folders = tuple(search_folders)
        counts = Counter(names_by_path.values())
        self.key_of = {
            path: name if counts[name] == 1 else os.path.abspath(path)
            for path, name in names_by_path.items()
        }
        self.names = {self.key_of[path]: name for path, name in names_by_path.items()}
        # A dotted name -> the modules it may name and the folder each is found from: the
        # module's own name from its source root, and the dotted path of its file under
        # each folder above (`module.commons` for module/commons.py).
        self._candidates: dict[str, list[tuple[str, str]]] = {}
        self._roots: dict[str, str] = {}  # a module's source root
        for path, name in names_by_path.items():
            key = self.key_of[path]
            parts = os.path.splitext(os.path.abspath(path))[0].split(os.sep)
            if parts[-1] == "__init__":
                parts.pop()
            size = name.count(".") + 1
            self._roots[key] = os.sep.join(parts[:-size]) or os.sep
            self._candidates.setdefault(name, []).append((key, self._roots[key]))
            # Its bare name only from a folder on `sys.path`: from any other, a name of one
            # part is the module's own (a script's) or none.
            first = 1 if os.sep.join(parts[:-1]) in self._search_folders else 2
            for size in range(first, min(len(parts), _MAX_PATH_NAME) + 1):
                dotted = ".".join(parts[-size:])
                if dotted != name:
                    base = os.sep.join(parts[:-size]) or os.sep
                    self._candidates.setdefault(dotted, []).append((key, base))
        self._ranks: dict[str, dict[str, int]] = {}  # a source root -> folders searched, in order

    def root(self, key: str) -> str:
        """The folder the module's imports are searched from first (`sys.path[0]`)."""
        return self._roots[key]

    def find(
        self, dotted: str, importer: str | None, searched_from: str | None = None
    ) -> str | None:
        """The key of the module `dotted` names when imported from the module `importer`
        (None: from outside the tree, as a probe's compile root, whose search starts at the
        folder `searched_from` when known), or None: none, or several that Python's search
        does not tell apart."""
        candidates = self._candidates.get(dotted)
        if not candidates:
            return None
        if len(candidates) == 1:
            return candidates[0][0]
        start = self._roots[importer] if importer is not None else searched_from
        if start is not None:
            ranks = self._search(start)
            ranked = sorted((ranks[base], key) for key, base in candidates if base in ranks)
            if ranked and (len(ranked) == 1 or ranked[0][0] < ranked[1][0]):
                return ranked[0][1]
        # Not found from the importer: a module that has this name from its own source root,
        # if only one does.
        own = [key for key, base in candidates if base == self._roots[key]]
        return own[0] if len(own) == 1 else None

    def _search(self, root: str) -> dict[str, int]:
        if root not in self._ranks:
            folders = [root]
            while os.path.dirname(folders[-1]) != folders[-1]:
                folders.append(os.path.dirname(folders[-1]))
            folders += [folder for folder in self._search_folders if folder not in folders]
            self._ranks[root] = {folder: rank for rank, folder in enumerate(folders)}
        return self._ranks[root]
