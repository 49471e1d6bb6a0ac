"""The rule catalogue's modules and codes, read from their sources without importing them.

Validating a selector or answering an unchanged run from the cache needs only the codes:
parsing the declarations costs less than importing the catalogue (or parsing whole modules,
a tenth of a cached run). The import registry (`breaklint.rule.all_rules`) imports the same
modules, and a test checks that both give the same codes.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from functools import cache

# An indented statement that starts with `code`: a class attribute, however it is written.
_CANDIDATE = re.compile(r"^[ \t]+code\b", re.MULTILINE)
_LONGEST_STATEMENT = 5  # lines: `code = (` and its string on the next lines


@dataclass(frozen=True, slots=True)
class Family:
    """What the rules of one code family are about, and the folder of `breaklint/rules/` that
    holds them."""

    folder: str
    about: str


# The code families, by the first digit of a code's number: the registry refuses a code outside
# them, the catalogue keeps each family's rules in its folder, and the documentation names them
# from here.
FAMILIES = {
    "BL0": Family("files", "files breaklint could not check"),
    "BL1": Family("values", "tensor values read as Python values"),
    "BL2": Family("control_flow", "control flow that depends on tensor values"),
    "BL3": Family("shapes", "shapes that depend on tensor values"),
    "BL4": Family("side_effects", "side effects: printing, logging, warnings, debuggers"),
    "BL5": Family("runtime", "runtime calls and state Dynamo does not trace"),
    "BL6": Family("numpy_calls", "numpy in compiled code"),
    "BL7": Family("hooks", "module hooks"),
    "BL8": Family("compiling", "compile roots and recompiles"),
    "BL9": Family("dynamo", "found only by running Dynamo on probes"),
}


def family(code: str) -> Family | None:
    """The family of a rule code (`BL101`: values), None when it is in none."""
    if len(code) == 5 and code.startswith("BL") and code[2:].isdigit():
        return FAMILIES.get(code[:3])
    return None


# Findings breaklint makes about its own work rather than from a rule's matcher: the engine
# reports a file it cannot parse and its own failures, the join layer what Dynamo did on the
# probes. Their rule modules hold only the pages; the engine and the join layer name them by
# these codes and take everything else (name, message, hint, page) from the registry.
PARSE_ERROR = "BL001"
INTERNAL_ERROR = "BL002"
DYNAMO_GRAPH_BREAK = "BL900"
DYNAMO_FRAME_SKIPPED = "BL901"
PROBE_FAILED = "BL902"
DYNAMO_RECOMPILES = "BL910"
CUDAGRAPHS_SKIPPED = "BL920"


@cache
def _catalogue_files() -> dict[str, str]:
    """Module name -> path of every rule module, in the catalogue's folders and their family
    packages; helpers shared by rules start with `_`."""
    import breaklint.rules as package  # its __init__ imports nothing

    files: dict[str, str] = {}
    for folder in package.__path__:
        _scan(folder, package.__name__, files)
    return files


def _scan(folder: str, package: str, files: dict[str, str]) -> None:
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        stem, suffix = os.path.splitext(entry.name)
        if stem.startswith("_") or not stem.isidentifier():
            continue
        if entry.is_dir() and os.path.isfile(os.path.join(entry.path, "__init__.py")):
            _scan(entry.path, f"{package}.{stem}", files)
        elif suffix == ".py":
            files.setdefault(f"{package}.{stem}", entry.path)


def catalogue_modules() -> list[str]:
    """The modules that declare rules, one rule each."""
    return list(_catalogue_files())


@cache
def _declarations() -> dict[str, list[str]]:
    """Module name -> the codes its classes declare: the `code = "BL..."` statements, however
    they are written."""
    declared: dict[str, list[str]] = {}
    for module, path in _catalogue_files().items():
        with open(path, encoding="utf-8") as source:
            text = source.read()
        lines = text.splitlines()
        found = (
            _declared_code(lines[text.count("\n", 0, match.start()) :])
            for match in _CANDIDATE.finditer(text)
        )
        declared[module] = [code for code in found if code]
    return declared


@cache
def known_codes() -> list[str]:
    """Every declared rule code, sorted."""
    return sorted(code for codes in _declarations().values() for code in codes)


def _declared_code(lines: list[str]) -> str | None:
    """The string assigned to `code` by the statement that starts `lines`, if it is one."""
    for length in range(1, _LONGEST_STATEMENT + 1):
        try:
            statement = ast.parse("\n".join(lines[:length]).strip()).body[0]
        except SyntaxError:
            continue
        return _assigned_code(statement)
    return None


def _assigned_code(statement: ast.stmt) -> str | None:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        target, value = statement.target, statement.value
    else:
        return None
    if (
        isinstance(target, ast.Name)
        and target.id == "code"
        and isinstance(value, ast.Constant)
        and isinstance(value.value, str)
    ):
        return value.value
    return None
