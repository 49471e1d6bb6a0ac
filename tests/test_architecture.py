"""The layer contract, read from every module's imports with `ast`: each layer imports only the
layers it builds on, nothing outside the rule catalogue imports a rule module by name, and no
import circle joins breaklint's modules (imports under `TYPE_CHECKING` and inside functions
count: they tie the modules all the same)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "breaklint"

# Each layer, from the ground up, and the modules it holds: a name holds the module and, when
# it is a package, everything under it (the longest name that holds a module places it).
LAYERS: dict[str, tuple[str, ...]] = {
    # Plain data and helpers any layer may use, and the facts about torch versions.
    "base": (
        "breaklint",
        "breaklint.calls",
        "breaklint.compile_stage",
        "breaklint.config",
        "breaklint.knowledge",
        "breaklint.progress",
        "breaklint.source",
        "breaklint.syntax",
    ),
    # Reading the code: discovery, the index, compile scope, tensor-ness; the findings.
    "analysis": (
        "breaklint.analysis",
        "breaklint.annotations",
        "breaklint.call_breaks",
        "breaklint.class_attributes",
        "breaklint.dependencies",
        "breaklint.discovery",
        "breaklint.findings",
        "breaklint.index",
        "breaklint.kinds",
        "breaklint.modules",
        "breaklint.probe_roots",
        "breaklint.scope",
        "breaklint.suppression",
        "breaklint.tensor_text",
        "breaklint.tensorness",
    ),
    # What a rule is and offers; the registry finds the catalogue by its package, not by name.
    "rule API": (
        "breaklint.codes",
        "breaklint.fixes",
        "breaklint.rewrites",
        "breaklint.rule",
        "breaklint.rules.__init__",
    ),
    "rules": ("breaklint.rules",),
    # The static phase: files in, findings out, rules reached through the registry only.
    "checking": ("breaklint.cache", "breaklint.checker", "breaklint.engine", "breaklint.jobs"),
    # Running Dynamo on probes, and the join that turns what it did into findings.
    "dynamic": ("breaklint.dynamic",),
    # Reporters see findings only.
    "reporting": ("breaklint.render", "breaklint.report"),
    "fixing": ("breaklint.fixer",),
    # The commands, and what they drive.
    "application": (
        "breaklint.__main__",
        "breaklint.cli",
        "breaklint.commands",
        "breaklint.console",
        "breaklint.fix_verify",
        "breaklint.graph_command",
        "breaklint.graph_view",
        "breaklint.hf",
        "breaklint.hf_config",
        "breaklint.hf_models",
        "breaklint.lsp",
        "breaklint.merge",
        "breaklint.pages",
        "breaklint.pipeline",
        "breaklint.pytest_plugin",
        "breaklint.testing",
    ),
}
_BELOW_RULES = ("base", "analysis", "rule API")
# What each layer may import besides itself.
MAY_IMPORT: dict[str, tuple[str, ...]] = {
    "base": (),
    "analysis": ("base",),
    "rule API": ("base", "analysis"),
    "rules": _BELOW_RULES,
    "checking": _BELOW_RULES,
    "dynamic": _BELOW_RULES,
    "reporting": ("base", "analysis"),
    "fixing": _BELOW_RULES,
    "application": tuple(layer for layer in LAYERS if layer != "application"),
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported_modules(source: str, known: set[str] | dict[str, Path]) -> set[str]:
    """The `known` modules that `source` imports, wherever its import statements stand
    (`from breaklint.rule import Rule` imports `breaklint.rule`; `from breaklint.dynamic import
    torch_shim`, `breaklint.dynamic.torch_shim`)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                names.add(submodule if submodule in known else node.module)
    return {name for name in names if name in known}


@cache
def imports() -> dict[str, set[str]]:
    """Every breaklint module each module imports."""
    known = modules()
    return {
        module: imported_modules(path.read_text(encoding="utf-8"), known) - {module}
        for module, path in known.items()
    }


def layer_of(module: str) -> str:
    """The layer whose longest name holds `module` (a package's own `__init__` is named
    `<package>.__init__` in the table, apart from the modules under it)."""
    best, length = None, -1
    for layer, names in LAYERS.items():
        for name in names:
            own_init = name.endswith(".__init__") and module == name.removesuffix(".__init__")
            holds = own_init or module == name or module.startswith(name + ".")
            if holds and len(name) > length:
                best, length = layer, len(name)
    assert best is not None, f"{module} is in no layer: add it to LAYERS"
    return best


def test_every_module_is_in_a_layer() -> None:
    for module in modules():
        layer_of(module)


def test_each_layer_imports_only_the_layers_it_builds_on() -> None:
    wrong = sorted(
        f"{module} ({layer_of(module)}) imports {imported} ({layer_of(imported)})"
        for module, imported_modules in imports().items()
        for imported in imported_modules
        if layer_of(imported) not in (layer_of(module), *MAY_IMPORT[layer_of(module)])
    )
    assert wrong == []


def test_no_module_outside_the_catalogue_imports_a_rule_module() -> None:
    wrong = sorted(
        f"{module} imports {imported}"
        for module, imported_modules in imports().items()
        for imported in imported_modules
        if imported.startswith("breaklint.rules.") and not module.startswith("breaklint.rules.")
    )
    assert wrong == []


def test_rules_import_nothing_of_the_dynamic_phase() -> None:
    wrong = sorted(
        f"{module} imports {imported}"
        for module, imported_modules in imports().items()
        if module.startswith("breaklint.rules.")
        for imported in imported_modules
        if layer_of(imported) == "dynamic"
    )
    assert wrong == []


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of `graph` (module -> the modules it imports), if it has one."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph.get(module, ())):
            if state.get(imported) == 1:
                return [*path[path.index(imported) :], imported]
            if imported not in state and (found := visit(imported)):
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_no_import_circle() -> None:
    assert cycle(imports()) is None


KNOWN = {"breaklint.dynamic", "breaklint.dynamic.torch_shim", "breaklint.rule", "breaklint.rules"}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from breaklint.dynamic import torch_shim", {"breaklint.dynamic.torch_shim"}),
        ("def f():\n    from breaklint.rule import Rule", {"breaklint.rule"}),
        ("if TYPE_CHECKING:\n    import breaklint.rules", {"breaklint.rules"}),
        ("import os\nfrom breaklint.rule import all_rules", {"breaklint.rule"}),
    ],
)
def test_imports_are_read_wherever_they_stand(source: str, expected: set[str]) -> None:
    """The reading itself: a contract that read no import would hold for any code."""
    assert imported_modules(source, KNOWN) == expected


def test_a_circle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycle(graph) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_each_rule_lives_in_its_family_folder() -> None:
    from breaklint.codes import family
    from breaklint.rule import all_rules

    wrong = []
    for code, rule in all_rules().items():
        found = family(code)
        if found is None or rule.__module__.split(".")[2] != found.folder:
            wrong.append(f"{code} in {rule.__module__}")
    assert wrong == []
