"""Settings from `[tool.breaklint]` in the nearest pyproject.toml; the command line wins."""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from breaklint.knowledge.curated import COMPREHENSION_FRAME_RULES, comprehension_frames

DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints",
    ".mypy_cache", ".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache",
    ".svn", ".tox", ".venv", ".vscode", "__pycache__", "__pypackages__", "_build", "buck-out",
    "build", "dist", "node_modules", "site-packages", "venv", ".breaklint_cache",
)  # fmt: skip
SCOPES = ("compiled", "all")


class ConfigError(Exception):
    """A problem in the configuration or the command line: breaklint exits 2."""


@dataclass(frozen=True, slots=True)
class Settings:
    select: tuple[str, ...] = ("ALL",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool = False
    scope: str = "compiled"
    # Patterns of the compile roots to keep (`Encoder.forward`, `pkg.models.*`); empty: all.
    roots: tuple[str, ...] = ()
    root: Path = field(default_factory=Path.cwd)  # patterns are relative to it
    source: str = "defaults"  # the file the settings came from, for messages
    probes: tuple[str, ...] = ()  # probe files or folders for --dynamic, relative to root
    # Follow calls into installed libraries (`breaklint.dependencies`): their breaks are
    # reported at the linted calls that reach them (BL516). On by default; where no library
    # is installed (pre-commit's isolated environment) nothing is followed.
    dependencies: bool = True
    # Top-level packages never followed (a library too large to read each run, or one whose
    # breaks are not the user's concern).
    dependencies_exclude: tuple[str, ...] = ()
    # The Python the linted code runs on, (3, 11) from `target-version = "py311"`; None: the
    # one breaklint runs on. Some breaks exist only on some versions (a comprehension's own
    # frame before 3.12): their rules are off where the target has none.
    target_version: tuple[int, int] | None = None

    def check_selectors(self, codes: list[str]) -> None:
        """Every selector of the configuration file must name at least one known rule."""
        for key, selectors in (
            ("select", self.select),
            ("extend-select", self.extend_select),
            ("ignore", self.ignore),
            *((f"per-file-ignores.{p}", s) for p, s in self.per_file_ignores),
        ):
            check_selectors(selectors, codes, f"{self.source}: '{key}'")

    def selection(self, codes: list[str]) -> Selection:
        """Of the known `codes`, those select/ignore (codes, prefixes, ALL) leave enabled."""
        chosen = {c for c in codes if _matches_any(c, self.select + self.extend_select)}
        if not comprehension_frames(self.target_version):
            chosen -= COMPREHENSION_FRAME_RULES
        return Selection(self, frozenset(c for c in chosen if not _matches_any(c, self.ignore)))

    def ignored_for(self, path: str) -> tuple[str, ...]:
        """Selectors that per-file-ignores applies to `path`."""
        relative = _relative_posix(path, self.root)
        selected: list[str] = []
        for pattern, selectors in self.per_file_ignores:
            if _matcher((pattern,))(relative):
                selected.extend(selectors)
        return tuple(selected)

    def is_excluded(self, path: str, *, ancestors: bool = True) -> bool:
        """Whether `path` (or, with `ancestors`, one of its parent folders) matches an exclude.

        The walk checks each entry once, without ancestors, so that a folder named explicitly
        is linted even when it lies inside an excluded one (e.g. site-packages).
        """
        relative = _relative_posix(path, self.root)
        matches = _matcher(self.exclude + self.extend_exclude)
        if not ancestors:
            return matches(relative)
        parts = relative.split("/")
        return any(matches("/".join(parts[:depth])) for depth in range(1, len(parts) + 1))


def _matches_any(code: str, selectors: tuple[str, ...]) -> bool:
    """Whether a selector (a code, a prefix or ALL, in any case) names `code`."""
    return any(s.upper() == "ALL" or code.startswith(s.upper()) for s in selectors)


@dataclass(frozen=True, slots=True)
class Selection:
    """The rules a run reports: select and ignore applied once, per-file-ignores per path."""

    settings: Settings
    enabled: frozenset[str]

    def codes_for(self, path: str) -> frozenset[str]:
        settings = self.settings
        if not settings.per_file_ignores:
            return self.enabled  # without resolving the path against the root for nothing
        ignored = settings.ignored_for(path)
        if not ignored:
            return self.enabled
        return frozenset(c for c in self.enabled if not _matches_any(c, ignored))

    def allows(self, code: str, path: str) -> bool:
        return code in self.codes_for(path)


def check_selectors(selectors: tuple[str, ...], codes: list[str], origin: str) -> None:
    for selector in selectors:
        if not any(_matches_any(code, (selector,)) for code in codes):
            raise ConfigError(f"{origin}: unknown rule selector '{selector}'")


@functools.cache
def _resolved(root: Path) -> str:
    return str(root.resolve())


def _relative_posix(path: str, root: Path) -> str:
    """`path` relative to `root` with `/` separators, or absolute when outside it (string
    work: resolving the root for each of thousands of paths was most of the walk)."""
    absolute = os.path.abspath(path)
    base = _resolved(root)
    if absolute == base:
        return "."
    base = base.rstrip(os.sep) + os.sep
    relative = absolute[len(base) :] if absolute.startswith(base) else absolute
    return relative.replace(os.sep, "/")


@functools.cache
def _matcher(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a relative path, or its last component, matches one of the glob patterns."""
    globs = [p.removeprefix("./").rstrip("/") for p in patterns]
    match = re.compile("|".join(fnmatch.translate(g) for g in globs) or "(?!)").match
    return lambda relative: bool(match(relative) or match(relative.rpartition("/")[2]))


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that configures breaklint, in any TOML
    spelling (`[tool.breaklint]`, `[tool]` with `breaklint.ignore = ...`, an inline table)."""
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if not candidate.is_file():
            continue
        text = _read(candidate)
        # Only a file that names breaklint can configure it: others are not even parsed.
        if "breaklint" in text and _breaklint_table(_parse(candidate, text)) is not None:
            return candidate
    return None


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None


def _parse(path: Path, text: str) -> dict[str, Any]:
    import tomllib  # here: a run with no pyproject.toml to read never needs it

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    except RecursionError:  # tomllib recurses once per level of nested arrays and tables
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None


def _breaklint_table(document: dict[str, Any]) -> Any:
    tool = document.get("tool")
    return tool.get("breaklint") if isinstance(tool, dict) else None


def _string_list(value: Any, key: str, origin: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{origin}: '{key}' must be a list of strings")
    return tuple(value)


def load_pyproject(path: Path) -> Settings:
    """Settings from `[tool.breaklint]` of one pyproject.toml."""
    origin = str(path)
    table = _breaklint_table(_parse(path, _read(path)))
    if table is None:
        table = {}
    if not isinstance(table, dict):
        raise ConfigError(f"{origin}: [tool.breaklint] must be a table")
    settings = Settings(root=path.parent.resolve(), source=origin)
    changes: dict[str, Any] = {}
    for key, value in table.items():
        match key:
            case "select" | "extend-select" | "ignore" | "exclude" | "extend-exclude" | "roots":
                changes[key.replace("-", "_")] = _string_list(value, key, origin)
            case "per-file-ignores":
                if not isinstance(value, dict):
                    raise ConfigError(f"{origin}: 'per-file-ignores' must be a table")
                changes["per_file_ignores"] = tuple(
                    (pattern, _string_list(codes, f"per-file-ignores.{pattern}", origin))
                    for pattern, codes in value.items()
                )
            case "probes":
                probes = _string_list(value, key, origin)
                changes["probes"] = tuple(str(path.parent.resolve() / p) for p in probes)
            case "force-exclude":
                if not isinstance(value, bool):
                    raise ConfigError(f"{origin}: 'force-exclude' must be true or false")
                changes["force_exclude"] = value
            case "dependencies":
                if not isinstance(value, bool):
                    raise ConfigError(f"{origin}: 'dependencies' must be true or false")
                changes["dependencies"] = value
            case "dependencies-exclude":
                changes["dependencies_exclude"] = tuple(_string_list(value, key, origin))
            case "target-version":
                changes["target_version"] = _python_version(value, origin)
            case "scope":
                if value not in SCOPES:
                    raise ConfigError(f"{origin}: 'scope' must be one of {', '.join(SCOPES)}")
                changes["scope"] = value
            case _:
                raise ConfigError(f"{origin}: unknown option '{key}' in [tool.breaklint]")
    return replace(settings, **changes)


def _python_version(value: Any, origin: str) -> tuple[int, int]:
    """`"py311"` (ruff's spelling) as (3, 11)."""
    match = re.fullmatch(r"py3(\d{1,2})", value) if isinstance(value, str) else None
    if match is None:
        raise ConfigError(f"{origin}: 'target-version' must be a Python version such as 'py311'")
    return 3, int(match.group(1))


def parse_per_file_ignore(text: str) -> tuple[str, tuple[str, ...]]:
    """`PATTERN:CODE[,CODE...]` from the command line."""
    pattern, sep, codes = text.rpartition(":")
    if not sep or not pattern or not codes:
        raise ConfigError(f"--per-file-ignores expects PATTERN:CODES, got '{text}'")
    return pattern, tuple(c.strip() for c in codes.split(",") if c.strip())
