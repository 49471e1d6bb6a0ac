"""The fast pass: one `ast.parse` per file gives what compile scope needs.

Only plain data leaves this module: classes with their bases, functions with their line spans,
decorators and callees, and the import-alias table that turns local names into dotted ones.
Phase 2 (`checker`) later visits only the functions that scope selects.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from breaklint.syntax import SCALARS, child_fields, dotted, expand_import

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
class ImportAlias:
    """`import a.b as name`, `from a import b as name`: a local name for a dotted one."""

    name: str
    target: str


@dataclass(frozen=True, slots=True)
class FunctionInfo:
    qualname: str  # "helper", "Encoder.forward"
    class_name: str | None
    start_line: int  # first decorator line
    decorators: tuple[str, ...]  # dotted, aliases resolved; calls written as "torch.compile()"
    # Dotted callee expressions as written ("self.norm", "F.silu"), and `self.x` reads, which
    # reach a property's getter.
    callees: tuple[str, ...]
    nested: tuple[str, ...] = ()  # functions defined inside it, at any depth
    # What it assigns to a `forward` attribute (`cls.forward = wrapper`), as written: the
    # function Dynamo then traces when the module is called.
    installs_forward: tuple[str, ...] = ()
    # Calls as written whose truth makes every value it returns true (`return
    # torch.compiler.is_compiling() or is_jit_tracing()`): it is true whenever one of them is.
    true_when: tuple[str, ...] = ()
    returns_tensor: bool = False  # by its return annotation
    # Imports inside it (nested functions included): they bind its local names, and shadow
    # the module's imports there only.
    imports: tuple[ImportAlias, ...] = ()

    def import_table(self, module_imports: dict[str, str]) -> dict[str, str]:
        """The names bound by imports in this function's body: the module's and its own."""
        if not self.imports:
            return module_imports
        return {**module_imports, **{alias.name: alias.target for alias in self.imports}}


@dataclass(frozen=True, slots=True)
class HookRegistration:
    method: str  # e.g. "register_forward_hook"
    target: str  # the hook as written: "log_shapes", "self._hook"
    line: int
    offset: int  # where the call starts in its line: a 0-based UTF-8 byte offset, as in `ast`
    end_line: int
    end_offset: int
    in_function: str | None


@dataclass(frozen=True, slots=True)
class ClassInfo:
    name: str
    bases: tuple[str, ...]  # dotted, aliases resolved
    methods: tuple[str, ...]
    forward_alias: str | None = None  # `forward = _shared_forward` in the class body
    dataclass: bool = (
        False  # decorated `@dataclass`: its generated `__init__` calls `__post_init__`
    )


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
        return expand_import(dotted, self.imports)


REDEFINED = "@"  # joins a redefined class's or function's name and the line of its definition


def label(qualname: str) -> str:
    """A qualified name as findings show it: `Q.forward` for the `Q` defined again on line 12
    too (`Q@12.forward`), `f` for the `f` defined again on line 30 (`f@30`)."""
    if REDEFINED not in qualname:
        return qualname
    return ".".join(part.partition(REDEFINED)[0] for part in qualname.split("."))


def dotted_name(node: ast.expr) -> str | None:
    """`a.b.c` for a chain of attributes on a name, `a.b()` for a call of one, else None."""
    if isinstance(node, ast.Call):
        name = dotted(node.func)
        return None if name is None else f"{name}()"
    return dotted(node)


def _relative_module(package_parts: list[str], level: int, module: str | None) -> str:
    base = package_parts[: len(package_parts) - (level - 1)] if level > 1 else package_parts
    return ".".join([*base, module] if module else base)


@dataclass(slots=True)
class _FunctionScan:
    """What the scan of one top-level or method function gathers while it passes."""

    qualname: str
    callees: list[str] = field(default_factory=list)
    nested: list[str] = field(default_factory=list)
    installs_forward: list[str] = field(default_factory=list)
    returns: list[ast.expr | None] = field(default_factory=list)  # outside `except` handlers
    assigned: dict[str, list[ast.expr]] = field(default_factory=dict)  # by `name = value`
    # Names updated in a way that may turn a true value false (`n += 1`; `n |= x` cannot).
    may_turn_false: set[str] = field(default_factory=set)
    imports: dict[str, str] = field(default_factory=dict)  # bound by imports in its body
    nesting: int = 0  # inside a function defined in this one
    handlers: int = 0  # inside an `except` handler


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
        self.function: _FunctionScan | None = None

    def scan(self, node: ast.AST) -> None:
        """Index the children of `node` (a hand-rolled `generic_visit`: the hot loop)."""
        for name in child_fields(type(node)):
            value: Any = getattr(node, name, None)
            if type(value) is list:
                for child in value:
                    if type(child) not in _LEAVES:
                        self.visit(child)
            elif type(value) not in _LEAVES:
                self.visit(value)

    def visit(self, node: ast.AST) -> None:
        kind = type(node)
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, node)
        elif child_fields(kind):
            self.scan(node)
        else:
            _LEAVES.add(kind)  # `Name`, `Constant`, `Pass`: not worth a call next time

    def _bind(self, name: str, target: str) -> None:
        # A function's imports bind names in that function only.
        table = self.index.imports if self.function is None else self.function.imports
        table[name] = target

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self._bind(alias.asname, alias.name)
            else:
                head = alias.name.partition(".")[0]
                self._bind(head, head)
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
                self._bind(alias.asname or alias.name, target)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if self.function is not None:
            self.scan(node)  # a class local to a function is analysed as part of it
            return
        name = ".".join([*self.class_stack, node.name])
        if name in self.index.classes:
            # Defined again (`if ...: class Q ... else: class Q ...`): both are analysed, the
            # later one under a key of its own, which labels show as the name alone.
            name = f"{name}{REDEFINED}{node.lineno}"
        bases = tuple(
            self.index.resolve(base) for base in map(dotted_name, node.bases) if base is not None
        )
        methods = tuple(
            item.name
            for item in node.body
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
        )
        alias = None
        for item in node.body:
            if isinstance(item, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "forward" for t in item.targets
            ):
                alias = dotted(item.value)
        decorators = (d.func if isinstance(d, ast.Call) else d for d in node.decorator_list)
        is_dataclass = any(
            self.index.resolve(dotted(d) or "") == "dataclasses.dataclass" for d in decorators
        )
        self.index.classes[name] = ClassInfo(name, bases, methods, alias, is_dataclass)
        self.class_stack.append(name.rpartition(".")[2])
        self.scan(node)
        self.class_stack.pop()

    def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        scan = self.function
        if scan is not None:
            # A nested function is analysed with its parent; its calls are the parent's.
            scan.nested.append(node.name)
            scan.nesting += 1
            self.scan(node)
            scan.nesting -= 1
            return
        class_name = ".".join(self.class_stack) or None
        qualname = f"{class_name}.{node.name}" if class_name else node.name
        decorators = tuple(
            self.index.resolve(d) for d in map(dotted_name, node.decorator_list) if d is not None
        )
        if qualname in self.index.functions:
            # `@x.setter` redefines `x`: keep the getter under its name, the accessor beside it.
            accessor = next(
                (d.rpartition(".")[2] for d in decorators if d.endswith(_ACCESSORS)), None
            )
            if accessor is not None:
                qualname = f"{qualname}.{accessor}"
            else:
                # Defined again (`if ...: def f ... else: def f ...`, `@overload` stubs): each
                # definition is analysed, the later ones under keys of their own.
                qualname = f"{qualname}{REDEFINED}{node.lineno}"
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        scan = self.function = _FunctionScan(qualname)
        self.scan(node)
        self.function = None
        self.nodes[qualname] = node
        self.index.functions[qualname] = FunctionInfo(
            qualname=qualname,
            class_name=class_name,
            start_line=start,
            decorators=decorators,
            callees=tuple(dict.fromkeys(scan.callees)),
            nested=tuple(scan.nested),
            installs_forward=tuple(scan.installs_forward),
            true_when=_true_when(scan),
            returns_tensor=_annotated_tensor(node.returns),
            imports=tuple(ImportAlias(name, target) for name, target in scan.imports.items()),
        )

    def visit_Call(self, node: ast.Call) -> None:
        callee = dotted_name(node.func)
        if callee is not None:
            if self.function is not None:
                self.function.callees.append(callee)
                if callee == "setattr" and len(node.args) == 3:
                    name, value = node.args[1], dotted(node.args[2])
                    if isinstance(name, ast.Constant) and name.value == "forward" and value:
                        self.function.installs_forward.append(value)
            self._note_compile_or_hook(node, callee)
        self.scan(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        scan = self.function
        value = node.value
        if scan is not None and type(value) is ast.Name and value.id == "self":
            scan.callees.append(f"self.{node.attr}")  # a property's getter runs on a read
        self.scan(node)

    def visit_flow(self, node: ast.Return | ast.Assign | ast.AugAssign) -> None:
        scan = self.function
        if scan is not None and not scan.nesting:
            if type(node) is ast.Return:
                if not scan.handlers:
                    scan.returns.append(node.value)
            elif type(node) is ast.Assign:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        scan.assigned.setdefault(target.id, []).append(node.value)
                    elif isinstance(target, ast.Attribute) and target.attr == "forward":
                        installed = dotted(node.value)
                        if installed is not None:
                            scan.installs_forward.append(installed)
            elif (
                type(node) is ast.AugAssign
                and isinstance(node.target, ast.Name)
                and not isinstance(node.op, ast.BitOr)
            ):
                scan.may_turn_false.add(node.target.id)
        self.scan(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        scan = self.function
        if scan is not None:
            scan.handlers += 1
        self.scan(node)
        if scan is not None:
            scan.handlers -= 1

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
                        in_function=self.function.qualname if self.function else None,
                    )
                )
        elif self.index.resolve(callee) in COMPILE_CALLS and node.args:
            target = dotted_name(node.args[0])
            if target is not None:
                self.index.compiled_names.add(target)


_ACCESSORS = (".setter", ".deleter")


def _annotated_tensor(annotation: ast.expr | None) -> bool:
    """`-> torch.Tensor`, `-> Tensor | None`; not a container that also holds other values
    (`-> tuple[bool, torch.Tensor]`), whose parts unpack to different kinds."""
    if annotation is None:
        return False
    container = annotation.value if isinstance(annotation, ast.Subscript) else None
    name = dotted(container) if container is not None else None
    if name is not None and name.rpartition(".")[2].lower() in _CONTAINERS:
        return False
    text = ast.unparse(annotation)
    return "Tensor" in text and "Callable" not in text


_CONTAINERS = frozenset({"tuple", "list", "dict", "sequence", "iterable", "iterator", "mapping"})


def _true_when(scan: _FunctionScan) -> tuple[str, ...]:
    """The calls, as written, that make every value the function returns true; () when its
    result can be false although one of them is true."""
    terms: list[str] = []
    for value in scan.returns:
        found = _truth_terms(value, scan, set())
        if not found:
            return ()
        terms.extend(found)
    return tuple(dict.fromkeys(terms))


def _truth_terms(value: ast.expr | None, scan: _FunctionScan, seen: set[str]) -> list[str]:
    if isinstance(value, ast.Call):
        callee = dotted(value.func)
        return [callee] if callee is not None else []
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
        return [term for operand in value.values for term in _truth_terms(operand, scan, seen)]
    if isinstance(value, ast.Name) and value.id not in seen:
        seen.add(value.id)
        if value.id in scan.may_turn_false:
            return []
        terms = []
        for bound in scan.assigned.get(value.id, []):
            found = _truth_terms(bound, scan, seen)
            if not found:
                return []
            terms.extend(found)
        return terms
    return []


# The node types the indexer handles itself, by exact type (a dict lookup is the hot path's
# cheapest dispatch); any other node is scanned for its children.
_HANDLERS: dict[type[ast.AST], Callable[[_Indexer, Any], None]] = {
    ast.Call: _Indexer.visit_Call,
    ast.Attribute: _Indexer.visit_Attribute,
    ast.FunctionDef: _Indexer.visit_function,
    ast.AsyncFunctionDef: _Indexer.visit_function,
    ast.ClassDef: _Indexer.visit_ClassDef,
    ast.Import: _Indexer.visit_Import,
    ast.ImportFrom: _Indexer.visit_ImportFrom,
    ast.Return: _Indexer.visit_flow,
    ast.Assign: _Indexer.visit_flow,
    ast.AugAssign: _Indexer.visit_flow,
    ast.ExceptHandler: _Indexer.visit_ExceptHandler,
}


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
