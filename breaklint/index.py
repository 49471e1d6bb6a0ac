"""The fast pass: one `ast.parse` per file gives what compile scope needs.

Only plain data leaves this module: classes with their bases, functions with their line spans,
decorators and callees, and the import-alias table that turns local names into dotted ones.
Phase 2 (`checker`) later parses only the functions that scope selects.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from breaklint.syntax import SCALARS, child_fields, dotted

_LEAVES = set(SCALARS)  # types of children that hold nothing to index
COMPILE_CALLS = ("torch.compile", "torch._dynamo.optimize")
HOOK_METHODS = frozenset(
    {
        "register_forward_hook",
        "register_forward_pre_hook",
        "register_full_backward_hook",
        "register_full_backward_pre_hook",
        "register_backward_hook",
        "register_hook",
    }
)


@dataclass(frozen=True, slots=True)
class FunctionInfo:
    qualname: str  # "helper", "Encoder.forward"
    class_name: str | None
    start_line: int  # first decorator line
    end_line: int
    indented: bool
    decorators: tuple[str, ...]  # dotted, aliases resolved; calls written as "torch.compile()"
    callees: tuple[str, ...]  # dotted callee expressions as written: "self.norm", "F.silu"


@dataclass(frozen=True, slots=True)
class HookRegistration:
    method: str  # e.g. "register_forward_hook"
    target: str  # the hook as written: "log_shapes", "self._hook"
    line: int
    offset: int  # where the call starts in its line: a 0-based UTF-8 byte offset, as in `ast`
    end_line: int
    end_offset: int
    in_function: str | None
    class_name: str | None


@dataclass(frozen=True, slots=True)
class ClassInfo:
    name: str
    bases: tuple[str, ...]  # dotted, aliases resolved
    methods: tuple[str, ...]


@dataclass(slots=True)
class ModuleIndex:
    path: str
    imports: dict[str, str] = field(default_factory=dict)  # alias -> dotted target
    imports_torch: bool = False
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    compiled_names: set[str] = field(default_factory=set)  # passed to torch.compile(...)
    hooks: list[HookRegistration] = field(default_factory=list)

    def resolve(self, dotted: str) -> str:
        """Expand the first component through the import table: `nn.Module` -> `torch.nn.Module`."""
        head, _, rest = dotted.partition(".")
        target = self.imports.get(head)
        if target is None:
            return dotted
        return f"{target}.{rest}" if rest else target


def dotted_name(node: ast.expr) -> str | None:
    """`a.b.c` for a chain of attributes on a name, `a.b()` for a call of one, else None."""
    if isinstance(node, ast.Call):
        name = dotted(node.func)
        return None if name is None else f"{name}()"
    return dotted(node)


def _relative_module(package_parts: list[str], level: int, module: str | None) -> str:
    base = package_parts[: len(package_parts) - (level - 1)] if level > 1 else package_parts
    return ".".join([*base, module] if module else base)


class _Indexer:
    """One pass over a module: imports, classes, top-level functions and what they call."""

    def __init__(
        self,
        index: ModuleIndex,
        package_parts: list[str],
        nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
    ) -> None:
        self.index = index
        self.package_parts = package_parts
        self.nodes = nodes
        self.class_stack: list[str] = []
        self.function: tuple[str, list[str]] | None = None  # (qualname, callees)

    def scan(self, node: ast.AST) -> None:
        """Index the children of `node` (a hand-rolled `generic_visit`: the hot loop)."""
        for name in child_fields(type(node)):
            value = getattr(node, name, None)
            if type(value) is list:
                for child in value:
                    if type(child) not in _LEAVES:
                        self.visit(child)
            elif type(value) not in _LEAVES:
                self.visit(value)

    def visit(self, node: ast.AST) -> None:
        kind = type(node)
        if kind is ast.Call:
            self.visit_Call(node)
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            self.visit_function(node)
        elif kind is ast.ClassDef:
            self.visit_ClassDef(node)
        elif kind is ast.Import:
            self.visit_Import(node)
        elif kind is ast.ImportFrom:
            self.visit_ImportFrom(node)
        elif child_fields(kind):
            self.scan(node)
        else:
            _LEAVES.add(kind)  # `Name`, `Constant`, `Pass`: not worth a call next time

    # Imports (anywhere in the file: aliases inside functions are rare and harmless here).
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.index.imports[alias.asname] = alias.name
            else:
                head = alias.name.partition(".")[0]
                self.index.imports[head] = head
            if alias.name.partition(".")[0] == "torch":
                self.index.imports_torch = True

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            module = _relative_module(self.package_parts, node.level, node.module)
        if module.partition(".")[0] == "torch":
            self.index.imports_torch = True
        for alias in node.names:
            if alias.name != "*":
                target = f"{module}.{alias.name}" if module else alias.name
                self.index.imports[alias.asname or alias.name] = target

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if self.function is not None:
            self.scan(node)  # a class local to a function is analysed as part of it
            return
        name = ".".join([*self.class_stack, node.name])
        bases = tuple(
            self.index.resolve(base) for base in map(dotted_name, node.bases) if base is not None
        )
        methods = tuple(
            item.name
            for item in node.body
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
        )
        self.index.classes[name] = ClassInfo(name, bases, methods)
        self.class_stack.append(node.name)
        self.scan(node)
        self.class_stack.pop()

    def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self.function is not None:
            # A nested function is part of its parent's snippet; its calls are the parent's.
            self.scan(node)
            return
        class_name = ".".join(self.class_stack) or None
        qualname = f"{class_name}.{node.name}" if class_name else node.name
        decorators = tuple(
            self.index.resolve(d) for d in map(dotted_name, node.decorator_list) if d is not None
        )
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        callees: list[str] = []
        self.function = (qualname, callees)
        self.scan(node)
        self.function = None
        self.nodes[qualname] = node
        self.index.functions[qualname] = FunctionInfo(
            qualname=qualname,
            class_name=class_name,
            start_line=start,
            end_line=node.end_lineno or node.lineno,
            indented=node.col_offset > 0,
            decorators=decorators,
            callees=tuple(dict.fromkeys(callees)),
        )

    def visit_Call(self, node: ast.Call) -> None:
        callee = dotted_name(node.func)
        if callee is not None:
            if self.function is not None:
                self.function[1].append(callee)
            self._note_compile_or_hook(node, callee)
        self.scan(node)

    def _note_compile_or_hook(self, node: ast.Call, callee: str) -> None:
        method = callee.rpartition(".")[2]
        if method in HOOK_METHODS and node.args:
            target = dotted_name(node.args[0])
            if target is not None:
                self.index.hooks.append(
                    HookRegistration(
                        method=method,
                        target=target,
                        line=node.lineno,
                        offset=node.col_offset,
                        end_line=node.end_lineno or node.lineno,
                        end_offset=node.end_col_offset or node.col_offset,
                        in_function=self.function[0] if self.function else None,
                        class_name=".".join(self.class_stack) or None,
                    )
                )
        elif self.index.resolve(callee) in COMPILE_CALLS and node.args:
            target = dotted_name(node.args[0])
            if target is not None:
                self.index.compiled_names.add(target)


def build_index(
    path: str,
    tree: ast.Module,
    package_parts: list[str],
    nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] | None = None,
) -> ModuleIndex:
    """Index one parsed file. `package_parts` is the file's package, for relative imports;
    `nodes`, when given, receives each indexed function's node by qualified name."""
    index = ModuleIndex(path)
    _Indexer(index, package_parts, {} if nodes is None else nodes).scan(tree)
    return index
