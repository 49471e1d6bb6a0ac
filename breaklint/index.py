"""The fast pass: one `ast.parse` per file gives what compile scope needs.

Only plain data leaves this module: classes with their bases, functions with their line spans,
decorators and callees, and the import-alias table that turns local names into dotted ones.
Phase 2 (`checker`) later visits only the functions that scope selects.
"""

from __future__ import annotations

import ast
import functools
import re
import string
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from breaklint.annotations import (
    Reading,
    admits_only_scalars,
    alias_text,
    declares_optional_keys,
    optional_member,
    read_annotation,
)
from breaklint.compile_stage import CompileStage, Scope
from breaklint.knowledge.answers import TENSOR_METHOD_NAMES
from breaklint.knowledge.curated import (
    COMPILING_CHECKS,
    FALSE_WHILE_COMPILING,
    MODULE_RETURNS_SELF,
)
from breaklint.knowledge.tensor_facts import TENSOR_FACTORIES
from breaklint.syntax import (
    FIELDS,
    SCALARS,
    child_fields,
    dotted,
    expand_import,
    makes_generator,
)

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
    # Functions nested in it that it compiles (`@torch.compile` on one, `torch.compile(step)`):
    # Dynamo traces each alone, as a compile root.
    compiles_nested: tuple[str, ...] = ()
    # Callees as written called in a loop, a `try` body or a generator expression: where a
    # break inside the callee skips this function's frame (`breaklint.call_breaks`).
    blocked_callees: tuple[str, ...] = ()
    # Callees as written called on the function's straight-line path (under no `if`, loop,
    # `try`, conditional expression or short-circuit operand, nor in a nested scope): each
    # call of the function makes them, unless it returns or raises first.
    sure_callees: tuple[str, ...] = ()
    # Calls as written whose truth makes every value it returns true (`return
    # torch.compiler.is_compiling() or is_jit_tracing()`): it is true whenever one of them is.
    true_when: tuple[str, ...] = ()
    # What each value it returns is, as a test of calls with no arguments (`_test_formula`):
    # `return torch._C._get_tracing_state()` is "ctorch._C._get_tracing_state;", `return not
    # is_tracing()` "!cis_tracing;"; () when a value is anything else. The project decides
    # from them what a call of it answers while Dynamo traces (`Project.compiling_answer`).
    returns_tests: tuple[str, ...] = ()
    # "callee\tguard\t..." for each call of a callee it makes only in branches whose tests
    # only the project decides, with the guards of the branches around it (`_FunctionScan.
    # guards`): the project drops a callee every call of which is dead (`Project.__init__`).
    guarded_callees: tuple[str, ...] = ()
    returns_tensor: bool = False  # by its return annotation
    # The classes its return annotation names, as written (`-> Backend`, `-> "Backend"`, a
    # generic's `-> Handler[P, T]`, each of a union's), joined by `|`, where each is a plain
    # name or attribute chain and no tensor: what a call of it returns.
    returns_class: str = ""
    # A method only subclasses implement: `@abstractmethod`, or a body that only raises
    # `NotImplementedError` (or is `pass`, `...`): a call of it runs an override.
    abstract: bool = False
    # Imports inside it (nested functions included): they bind its local names, and shadow
    # the module's imports there only.
    imports: tuple[ImportAlias, ...] = ()
    # Summaries for the project-wide analysis (`breaklint.analysis`), each an expression in
    # the summary language of `summarise`: its parameters ("name=" role, reading, default),
    # its calls ("callee arg ... keyword=arg"), what its local names are bound to, what it
    # returns, and what its body assigns to `self.<attribute>`.
    parameters: tuple[str, ...] = ()
    # The names of its `*args` and `**kwargs` parameters ("" where it has none): they hold
    # what its calls pass beyond the parameters `parameters` names.
    star_args: str = ""
    star_kwargs: str = ""
    calls: tuple[str, ...] = ()
    bindings: tuple[str, ...] = ()
    returns: str = ""
    attributes: tuple[str, ...] = ()

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
    # Its body declares a key a TypedDict makes optional (`total=False`, `NotRequired[...]`).
    optional_keys: bool = False
    metaclass: str | None = None  # `metaclass=` in its header: dotted, aliases resolved


@dataclass(slots=True)
class ModuleIndex:
    path: str
    imports: dict[str, str] = field(default_factory=dict)  # alias -> dotted target
    imports_torch: bool = False
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    compiled_names: set[str] = field(default_factory=set)  # passed to torch.compile(...)
    hooks: list[HookRegistration] = field(default_factory=list)
    type_aliases: dict[str, str] = field(default_factory=dict)  # `Cache = dict[str, Tensor]`
    # `collector = Collector("outputs")` at module level: the name and the callee as written,
    # so that `collector.get()` in any function reaches `Collector.get`.
    instances: dict[str, str] = field(default_factory=dict)
    # `SOLVERS = {"euler": Euler}` at module level: the summary of a literal container, so
    # that `SOLVERS[name](...)` in any function reaches what it holds.
    containers: dict[str, str] = field(default_factory=dict)
    # `_debug = False` at module level, the module's only binding of the name, which no
    # `global` statement rebinds: its truth, which Dynamo reads as a constant while tracing.
    flags: dict[str, bool] = field(default_factory=dict)
    # The words of its code (`code_words`): a module it can name, import or reach is one whose
    # name's last part is among them.
    words: str = ""

    def resolve(self, dotted: str) -> str:
        """Expand the first component through the import table: `nn.Module` -> `torch.nn.Module`."""
        return expand_import(dotted, self.imports)


# The head of a module's imports entry for `from module import *` (a key no name can be),
# through which a name the module does not define may be re-exported.
STAR = "*"

REDEFINED = "@"  # joins a redefined class's or function's name and the line of its definition
VERSION = "#"  # joins a local name and the number of its binding (`x#2`), see `_FunctionScan`


# Bytes that can be part of an identifier: ASCII letters, digits, `_`, and every byte of a
# non-ASCII character (UTF-8 never uses an ASCII byte inside one).
_WORD_BYTES = bytes(
    b if b >= 128 or chr(b).isalnum() or b == ord("_") else ord(" ") for b in range(256)
)
# A line that is only a comment: its words name nothing (`# Copied from pkg.other.Layer`).
# Matched from the line end before it (`code_words` adds one before the first line): a
# pattern that starts with a character is searched for fast.
_COMMENT_LINE = re.compile(rb"\n[ \t\f]*#[^\r\n]*")


def code_words(text: str) -> str:
    """The distinct words of a file's code outside comment-only lines (identifiers, and also
    keywords, numbers and the words of strings, which costs nothing to keep), joined by
    spaces in no particular order. Any name the index resolves is among them: the engine
    asks which modules of the project a file can reach without reading the file again."""
    data = _COMMENT_LINE.sub(b"\n", b"\n" + text.encode("utf-8", "surrogatepass"))
    return " ".join(_words(data))


def word_set(text: str) -> set[str]:
    """The distinct words of a text, comments included (as `code_words`): one pass of C-level
    byte translation and split."""
    return _words(text.encode("utf-8", "surrogatepass"))


def _words(data: bytes) -> set[str]:
    words = set(data.translate(_WORD_BYTES).decode("utf-8", "surrogatepass").split())
    # Python reads identifiers in NFKC form (a fullwidth `m` is `m`): a word with a non-ASCII
    # character counts in both forms (none where every byte is ASCII: most code, one test).
    if not data.isascii():
        words.update([unicodedata.normalize("NFKC", w) for w in words if not w.isascii()])
    return words


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


# The scopes whose `yield` is the function's own (not a lambda's, a class's or a header's).
_OWN_SCOPES = frozenset((Scope.FUNCTION, Scope.ASYNC_FUNCTION))


@dataclass(slots=True)
class _FunctionScan:
    """What the scan of one top-level or method function gathers while it passes."""

    qualname: str
    callees: list[str] = field(default_factory=list)
    nested: list[str] = field(default_factory=list)
    installs_forward: list[str] = field(default_factory=list)
    compiles_nested: list[str] = field(default_factory=list)
    returns: list[ast.expr | None] = field(default_factory=list)  # outside `except` handlers
    assigned: dict[str, list[ast.expr]] = field(default_factory=dict)  # by `name = value`
    # Names updated in a way that may turn a true value false (`n += 1`; `n |= x` cannot).
    may_turn_false: set[str] = field(default_factory=set)
    imports: dict[str, str] = field(default_factory=dict)  # bound by imports in its body
    calls: list[str] = field(default_factory=list)  # with their arguments summarised
    # binding key -> summaries: a name's key is the name, or `name#k` for the k-th binding
    # in straight-line code, which the binding before it no longer reaches
    bindings: dict[str, list[str]] = field(default_factory=dict)
    reaching: dict[str, str] = field(default_factory=dict)  # name -> key of its live binding
    parameters: frozenset[str] = frozenset()
    return_summaries: list[str] = field(default_factory=list)
    attributes: dict[str, list[str]] = field(default_factory=dict)  # `self.<name> = ...`
    nesting: int = 0  # inside a function defined in this one
    # The binding keys of the innermost nested function's locals are `name#<tag>`: its own,
    # which the enclosing function's names do not see (`output_token` in a decorator's wrapper).
    nested_tag: str = ""
    handlers: int = 0  # inside an `except` handler
    branching: int = 0  # inside a statement that runs its body conditionally or repeatedly
    # Inside a loop, a `try` body or a generator expression. Calls there, and of a method of
    # an object the call itself makes, are `blocked_callees`: a break in the callee skips the
    # caller's frame.
    blocked: int = 0
    blocked_callees: list[str] = field(default_factory=list)
    # Inside a conditional expression's branch or a short-circuit operand after the first.
    unsure: int = 0
    sure_callees: list[str] = field(default_factory=list)  # see `FunctionInfo.sure_callees`
    yields: bool = False  # a `yield` of its own: a generator function
    # Inside code Dynamo never runs while tracing (`if torch.jit.is_tracing():`, `if not
    # torch.compiler.is_compiling():`): its calls pass nothing and reach nothing, its
    # assignments bind nothing.
    dead: int = 0
    # The tests of the enclosing branches only the project can decide (`if is_tracing():`,
    # a project function), each "<answer that makes the branch dead><formula>" (see
    # `_test_formula`); and, by callee, the guards of each of its calls under such tests (None
    # once it is called under none).
    guards: list[str] = field(default_factory=list)
    guarded: dict[str, list[str] | None] = field(default_factory=dict)

    def add_callee(self, callee: str) -> None:
        self.callees.append(callee)
        if not self.guards:
            self.guarded[callee] = None
        elif (known := self.guarded.setdefault(callee, [])) is not None:
            known.append("\t".join(self.guards))

    def bind(self, name: str, summary: str, joins: bool = False) -> None:
        """`name` bound to what `summary` describes, here. In straight-line code the binding
        replaces the one before it for everything that follows (`x = x.tolist()` after
        `x = torch.ones(n)`); under a branch or in a loop, or when it `joins`, it joins it."""
        if self.nesting:
            key = self.reaching[name] = f"{name}{VERSION}{self.nested_tag}"
            self.bindings.setdefault(key, []).append(summary)  # no order followed in there
            return
        key = self.reaching.get(name, name)
        if self.branching or joins:
            self.bindings.setdefault(key, []).append(summary)
            return
        if key in self.bindings or name in self.parameters:
            key = (
                f"{name}{VERSION}{sum(k.partition(VERSION)[0] == name for k in self.bindings) + 1}"
            )
            self.reaching[name] = key
        self.bindings[key] = [summary]


class _Indexer:
    """One pass over a module: imports, classes, top-level functions and what they call; and
    for the compile stage, the scopes, loops and blocks it walks through."""

    def __init__(
        self,
        index: ModuleIndex,
        package_parts: list[str],
        nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
        stage: CompileStage,
    ) -> None:
        self.index = index
        self.package_parts = package_parts
        self.nodes = nodes
        self.stage = stage
        self.class_stack: list[str] = []
        self.function: _FunctionScan | None = None
        # The names a `for` or a comprehension binds to the elements of what it iterates, with
        # those elements as compile targets (`_iterated_targets`): `torch.compile(f)` there
        # compiles each of them.
        self.iterated: dict[str, list[str]] = {}
        self.declared_global: set[str] = set()  # names of the module's `global` statements

    def scan(self, node: ast.AST) -> None:
        """Index the children of `node`."""
        kind = type(node)
        self.scan_fields(node, FIELDS.get(kind) or child_fields(kind))

    def scan_fields(self, node: ast.AST, fields: tuple[str, ...]) -> None:
        """Index the children in some of the node's fields (a hand-rolled `generic_visit`:
        the hot loop)."""
        for name in fields:
            value: Any = getattr(node, name, None)
            if type(value) is list:
                for child in value:
                    if type(child) not in _LEAVES:
                        self.visit(child)
            elif type(value) not in _LEAVES:
                self.visit(value)

    def scan_scope(self, node: ast.AST, header: tuple[str, ...], scope: Scope) -> None:
        """Scan a definition: its `header` fields in the enclosing scope, the rest in its own."""
        stage = self.stage
        stage.enter(Scope.HEADER)
        self.scan_fields(node, header)
        stage.leave()
        stage.enter(scope)
        self.scan_fields(node, child_fields(type(node))[len(header) :])
        stage.leave()

    def visit(self, node: ast.AST) -> None:
        kind = type(node)
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, node)
        elif fields := FIELDS.get(kind) or child_fields(kind):
            self.scan_fields(node, fields)
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
        self.stage.note(node)
        module = node.module or ""
        if node.level:
            module = _relative_module(self.package_parts, node.level, node.module)
        if module.partition(".")[0] == "torch":
            self.index.imports_torch = True
        for alias in node.names:
            if alias.name != "*":
                target = f"{module}.{alias.name}" if module else alias.name
                self._bind(alias.asname or alias.name, target)
            elif module and self.function is None:  # `from .core import *`: see STAR
                self.index.imports[f"{STAR}{module}"] = module

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.stage.note(node)
        if self.function is not None:
            # A class local to a function is analysed as part of it.
            self.scan_scope(node, _CLASS_HEADER, Scope.CLASS)
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
        postponed = self.index.imports.get("annotations") == "__future__.annotations"
        metaclass = next((dotted(k.value) for k in node.keywords if k.arg == "metaclass"), None)
        self.index.classes[name] = ClassInfo(
            name,
            bases,
            methods,
            alias,
            is_dataclass,
            declares_optional_keys(node, postponed),
            self.index.resolve(metaclass) if metaclass else None,
        )
        self.class_stack.append(name.rpartition(".")[2])
        self.scan_scope(node, _CLASS_HEADER, Scope.CLASS)
        self.class_stack.pop()

    def scan_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.stage.note(node)
        is_async = type(node) is ast.AsyncFunctionDef
        self.scan_scope(
            node, _FUNCTION_HEADER, Scope.ASYNC_FUNCTION if is_async else Scope.FUNCTION
        )

    def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        scan = self.function
        if scan is not None:
            # A nested function is analysed with its parent; its calls are the parent's.
            scan.nested.append(node.name)
            if any(self._compiles(d) for d in map(dotted_name, node.decorator_list) if d):
                scan.compiles_nested.append(node.name)
            scan.nesting += 1
            outer = scan.reaching, scan.nested_tag
            scan.reaching, scan.nested_tag = dict(scan.reaching), f"in{len(scan.nested)}"
            self.scan_function(node)
            scan.reaching, scan.nested_tag = outer
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
        arguments = node.args
        parameters = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        scan = self.function = _FunctionScan(
            qualname, parameters=frozenset(a.arg for a in parameters)
        )
        self.scan_function(node)
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
            compiles_nested=tuple(scan.compiles_nested),
            # In a generator function every call is: Dynamo runs it inlined in the frame that
            # iterates it, and a break inside gives up on that frame (BL801's restatement).
            blocked_callees=tuple(
                dict.fromkeys(scan.callees if scan.yields else scan.blocked_callees)
            ),
            sure_callees=tuple(dict.fromkeys(scan.sure_callees)),
            true_when=_true_when(scan),
            returns_tests=_returns_tests(scan),
            guarded_callees=tuple(
                f"{callee}\t{guards}"
                for callee, occurrences in scan.guarded.items()
                if occurrences is not None
                for guards in dict.fromkeys(occurrences)
            ),
            returns_tensor=_annotated_tensor(node.returns),
            returns_class=_annotated_class(node.returns),
            abstract=_abstract(node, decorators),
            imports=tuple(ImportAlias(name, target) for name, target in scan.imports.items()),
            parameters=_parameters(node.args, self.index.type_aliases, self.index.imports),
            star_args=node.args.vararg.arg if node.args.vararg else "",
            star_kwargs=node.args.kwarg.arg if node.args.kwarg else "",
            calls=tuple(scan.calls),
            bindings=tuple(f"{name}={_fold('j', found)}" for name, found in scan.bindings.items()),
            returns=_fold("j", scan.return_summaries),
            attributes=tuple(
                f"{name}={_fold('j', found)}" for name, found in scan.attributes.items()
            ),
        )

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        callee = dotted_name(func)
        scan = self.function
        if type(func) is ast.Call:  # `getattr(self, f"conv{i}")(x)`: what it may name
            callee = getattr_callee(func) or callee
        if callee is None and type(func) is ast.Attribute:
            if type(func.value) is ast.Call:
                callee = self._method_of_result(func.value, func.attr)
            elif type(func.value) is ast.Subscript:  # `self.flows[i].inverse(z)`
                held = dotted(func.value.value)
                callee = None if held is None else f"{held}[].{func.attr}"
        elif callee is None and type(func) is ast.Call:
            callee = self._module_returned(func)
        if scan is not None and scan.dead:
            scan = None  # nothing it passes or reaches runs under Dynamo
        if scan is not None and (node.args or node.keywords):
            if callee is None and type(func) is ast.Subscript:
                # `self.ops[name](x)`: one of the callables the container holds
                held = dotted(func.value)
                if held is not None:
                    scan.add_callee(f"{held}[]")
                    scan.calls.append(_call_summary(f"{held}[]", node, scan.reaching))
            elif callee is not None and _passes_to_project(callee, self._may_be_project):
                scan.calls.append(_call_summary(callee, node, scan.reaching))
            bound = _partial_function(callee, node)
            if bound is not None and self._may_be_project(bound):
                # `functools.partial(step, predictor=Euler)` passes its arguments to `step`
                partial = ast.Call(node.args[0], node.args[1:], node.keywords)
                scan.calls.append(_call_summary(bound, partial, scan.reaching))
            if callee is not None and len(node.args) > 1 and _is_register_buffer(callee):
                buffer = node.args[0]
                if isinstance(buffer, ast.Constant) and isinstance(buffer.value, str):
                    summary = summarise(node.args[1], scan.reaching)
                    scan.attributes.setdefault(buffer.value, []).append(summary)
        if callee is not None:
            if scan is not None:
                _note_growth(scan, callee, node)
                scan.add_callee(callee)
                if scan.blocked or on_object_made_here(callee) or _given_a_generator(node):
                    scan.blocked_callees.append(callee)
                if (
                    not (scan.branching or scan.blocked or scan.unsure or scan.handlers)
                    and not scan.nesting
                    and self.stage.scope in _OWN_SCOPES
                ):
                    scan.sure_callees.append(callee)
                if callee == "setattr" and len(node.args) == 3:
                    name, value = node.args[1], dotted(node.args[2])
                    if isinstance(name, ast.Constant) and name.value == "forward" and value:
                        scan.installs_forward.append(value)
            self._note_compile_or_hook(node, callee)
        self.stage.note(node)
        self.scan(node)

    def _method_of_result(self, made: ast.Call, method: str) -> str | None:
        """`Helper(...).run` for `Helper(...).run(x)`, `super().__init__` in a method: a method
        of what a call that may reach the project returns (not `x.float().view`)."""
        maker = dotted(made.func)
        if maker is None or not (
            self._may_be_project(maker) or (maker == "super" and self.class_stack)
        ):
            return None
        return f"{maker}().{method}"

    def _module_returned(self, made: ast.Call) -> str | None:
        """`Resample()` for `Resample(1, 2).to(x)(x)`: a module made by a call that may reach
        the project, passed through methods that return it (`MODULE_RETURNS_SELF`), then
        called."""
        through = 0
        while (
            type(made.func) is ast.Attribute
            and made.func.attr in MODULE_RETURNS_SELF
            and type(made.func.value) is ast.Call
        ):
            made, through = made.func.value, through + 1
        maker = dotted(made.func)
        if not through or maker is None or not self._may_be_project(maker):
            return None
        return f"{maker}()"

    def _may_be_project(self, callee: str) -> bool:
        """Whether a call may reach a function of the linted tree, whose arguments then
        matter: not a builtin, not torch, not a method of a local value (`x.view`)."""
        head, dot, _ = callee.partition(".")
        if not dot:
            return head not in _BUILTINS
        if head in ("self", "cls") or head[:1].isupper() or head in self.index.instances:
            return True  # a class, or an instance made above at module level
        scan = self.function
        if scan is not None and self._made_by_project(scan, head):
            return True  # `solver = solver_class(...); solver.integrate(y)`
        if scan is not None and head in scan.parameters and "." not in callee[len(head) + 1 :]:
            # `algo.loss(x)`: a method of what the callers pass, unless a tensor's (`x.view`)
            return callee[len(head) + 1 :] not in TENSOR_METHOD_NAMES
        target = (scan.imports if scan else {}).get(head) or self.index.imports.get(head)
        return target is not None and target.partition(".")[0] != "torch"

    def _made_by_project(self, scan: _FunctionScan, name: str) -> bool:
        """Whether every binding of the local `name` that reaches here is the result of a call
        that may reach a project function (an instance a project class makes): its methods'
        parameters receive what calls of them pass."""
        summaries = scan.bindings.get(scan.reaching.get(name, name))
        if not summaries or name in scan.parameters:
            return False
        for summary in summaries:
            made = summary[1:-1] if summary[:1] == "c" and summary.endswith(";") else ""
            maker = made.removesuffix("()").partition(VERSION)[0]
            head, dot, _ = maker.partition(".")
            local = dot and (head in scan.reaching or head in scan.bindings)
            if not maker or ";" in made or local or not self._may_be_project(maker):
                return False  # (a method of another local: `x = x.view(n)` is no object made)
        return True

    def visit_Attribute(self, node: ast.Attribute) -> None:
        scan = self.function
        value = node.value
        if (
            scan is not None
            and not scan.dead
            and type(node.ctx) is ast.Load
            and type(value) is ast.Name
            and value.id == "self"
        ):
            scan.add_callee(f"self.{node.attr}")  # a property's getter runs on a read
        if type(value) not in _LEAVES:  # its one child (`scan`, without its two calls)
            self.visit(value)

    def visit_flow(self, node: ast.Return | ast.Assign | ast.AugAssign | ast.AnnAssign) -> None:
        self.stage.note(node)
        scan = self.function
        self.scan(node)  # what a statement reads is bound before it: `x = f(x)` passes the old x
        if scan is not None and scan.nesting and not scan.dead and type(node) is ast.Assign:
            # A nested function's own locals, for the calls it makes (a decorator's wrapper).
            own: list[tuple[str, str]] = []
            for target in node.targets:
                _bind_summary(scan, target, node.value, own)
            for name, summary in own:
                scan.bind(name, summary)
        elif scan is not None and not scan.nesting and not scan.dead:
            names = scan.reaching
            if type(node) is ast.Return:
                if not scan.handlers:
                    scan.returns.append(node.value)
                    if node.value is not None:
                        scan.return_summaries.append(summarise(node.value, names))
            elif type(node) is ast.Assign:
                bound: list[tuple[str, str]] = []
                for target in node.targets:
                    _bind_summary(scan, target, node.value, bound)
                    if isinstance(target, ast.Name):
                        scan.assigned.setdefault(target.id, []).append(node.value)
                    elif isinstance(target, ast.Attribute) and target.attr == "forward":
                        installed = dotted(node.value)
                        if installed is not None:
                            scan.installs_forward.append(installed)
                for name, summary in bound:
                    scan.bind(name, summary)
            elif type(node) is ast.AnnAssign:
                if node.value is not None:
                    bound = []
                    _bind_summary(scan, node.target, node.value, bound)
                    for name, summary in bound:
                        scan.bind(name, summary)
            elif type(node) is ast.AugAssign and isinstance(node.target, ast.Name):
                name = node.target.id
                scan.bind(name, f"o{summarise(node.target, names)}{summarise(node.value, names)}")
                if not isinstance(node.op, ast.BitOr):
                    scan.may_turn_false.add(name)
        elif scan is None and not self.class_stack and type(node) is ast.Assign:
            # A module-level type alias, which annotations may name, or an instance.
            targets = node.targets
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                name, value = targets[0].id, node.value
                text = alias_text(value)
                if text is not None:
                    self.index.type_aliases[name] = text
                callee = dotted(value.func) if isinstance(value, ast.Call) else None
                if callee is not None:
                    self.index.instances[name] = callee
                else:
                    self.index.instances.pop(name, None)  # bound again to something else
                if isinstance(value, ast.Dict | ast.List | ast.Tuple | ast.Set):
                    self.index.containers[name] = summarise(value)
                else:
                    self.index.containers.pop(name, None)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        scan = self.function
        if (
            scan is not None
            and not (scan.nesting or scan.dead)
            and isinstance(node.target, ast.Name)
        ):
            # `for layer in self.layers`: one element of what it iterates, joining the
            # bindings before the loop.
            summary = f"i{summarise(node.iter, scan.reaching)}"
            scan.bind(node.target.id, summary, joins=True)
        outer = self.iterate([node])
        self.visit_loop(node)
        self.iterated = outer

    def iterate(
        self, loops: Sequence[ast.For | ast.AsyncFor | ast.comprehension]
    ) -> dict[str, list[str]]:
        """Note the names the loops bind to the elements they iterate (`self.iterated`), and
        return what was noted before, to restore after them."""
        outer = self.iterated
        for loop in loops:
            found = _iterated_targets(loop.target, loop.iter)
            if found:
                self.iterated = {**self.iterated, **found}
        return outer

    def visit_loop(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        """A loop: bindings in it join those before it (see `_FunctionScan.bind`); the
        compiler pushes a loop block for its body."""
        scan = self.function
        if scan is not None:
            scan.branching += 1
            scan.blocked += 1
        stage = self.stage
        stage.note(node)
        self.scan_fields(node, ("test",) if type(node) is ast.While else ("target", "iter"))
        stage.enter_block(loop=True)
        self.scan_fields(node, ("body",))
        stage.leave_block(loop=True)
        if scan is not None:
            scan.blocked -= 1
        self.scan_fields(node, ("orelse",))
        if scan is not None:
            scan.branching -= 1

    def visit_block(self, node: ast.Try | ast.With | ast.AsyncWith) -> None:
        """`try` (`try`/`except*`), `with`: what the compiler pushes blocks for. A `with`
        body is straight-line code; bindings in a `try` join those before it."""
        stage = self.stage
        stage.note(node)
        if isinstance(node, ast.With | ast.AsyncWith):
            self.scan_fields(node, ("items",))
            self._note_entered(node)
            items = len(node.items)
            stage.enter_block(loop=False, statements=items)
            self.scan_fields(node, ("body",))
            stage.leave_block(loop=False, statements=items)
            return
        scan = self.function
        if scan is not None:
            scan.branching += 1
            scan.blocked += 1
        stage.enter_block(loop=False)
        self.scan_fields(node, ("body",))
        if scan is not None:
            scan.blocked -= 1
        self.scan_fields(node, ("handlers", "orelse", "finalbody"))
        stage.leave_block(loop=False)
        if scan is not None:
            scan.branching -= 1

    def _note_entered(self, node: ast.With | ast.AsyncWith) -> None:
        """`with Timer(...):` calls `Timer.__enter__` too: Dynamo traces the `__enter__` of a
        context manager the frame makes (one it did not see made is BL507's). Not `__exit__`:
        a break in `__enter__` skips the frame before it (measured), and what an `__exit__`
        alone does was not."""
        scan = self.function
        if scan is None or scan.dead:
            return
        for item in node.items:
            manager = item.context_expr
            if type(manager) is ast.Call:
                callee = self._method_of_result(manager, "__enter__")
                if callee is not None:
                    scan.add_callee(callee)

    def visit_lambda(self, node: ast.Lambda) -> None:
        self.scan_scope(node, ("args",), Scope.LAMBDA)

    def visit_comprehension_scope(self, node: ast.expr) -> None:
        scan = self.function if type(node) is ast.GeneratorExp else None
        if scan is not None:
            scan.blocked += 1
        self.stage.enter(Scope.COMPREHENSION)
        outer = self.iterate(node.generators)  # type: ignore[attr-defined]
        self.scan(node)
        self.iterated = outer
        self.stage.leave()
        if scan is not None:
            scan.blocked -= 1

    def visit_noted(self, node: ast.AST) -> None:
        """A node the compile stage looks at; a `yield` also makes its function a generator
        (not one in a function, class or lambda it defines), and a `global` statement's names
        are no module constants (`constant_flags`)."""
        kind = type(node)
        if kind is ast.Yield or kind is ast.YieldFrom:
            scan = self.function
            if scan is not None and scan.nesting == 0 and self.stage.scope in _OWN_SCOPES:
                scan.yields = True
        elif kind is ast.Global:
            self.declared_global.update(node.names)  # type: ignore[attr-defined]
        self.stage.note(node)
        self.scan(node)

    def visit_branch(self, node: ast.If | ast.Match) -> None:
        """A statement whose parts may run or not: bindings in it join those before it (see
        `_FunctionScan.bind`); the part a check Dynamo answers rules out is dead."""
        self.stage.note(node)
        scan = self.function
        if scan is None:
            self.scan(node)
            return
        scan.branching += 1
        if type(node) is ast.If:
            self.scan_branches(node, (("test", None), ("body", False), ("orelse", True)))
        else:
            self.scan(node)
        scan.branching -= 1

    def visit_IfExp(self, node: ast.IfExp) -> None:
        scan = self.function
        if scan is None:
            self.scan(node)
            return
        scan.unsure += 1  # the test runs whichever way it goes: the branches are what count
        self.scan_branches(node, (("body", False), ("test", None), ("orelse", True)))
        scan.unsure -= 1

    def scan_branches(
        self, node: ast.If | ast.IfExp, parts: tuple[tuple[str, bool | None], ...]
    ) -> None:
        """Scan the fields of an `if` or a conditional expression in order, each `(field,
        dead_when)` as dead code when the test is `dead_when` while Dynamo traces."""
        scan = self.function
        assert scan is not None
        constant = tested_while_compiling(node.test)
        formula = None
        if constant is None and not scan.nesting:
            formula = _test_formula(node.test, scan, set())
            if "c" not in formula:
                formula = None
        for field_name, dead_when in parts:
            dead = constant is not None and constant is dead_when
            guarded = formula is not None and dead_when is not None
            if guarded:
                scan.guards.append(f"{int(bool(dead_when))}{formula}")
            scan.dead += dead
            self.scan_fields(node, (field_name,))
            scan.dead -= dead
            if guarded:
                scan.guards.pop()

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        """`torch.jit.is_tracing() and f(x)`: what follows an operand that decides the
        result while Dynamo traces is dead."""
        scan = self.function
        if scan is None:
            self.scan(node)
            return
        deciding = type(node.op) is ast.Or  # the value that stops `or`; `and` stops at False
        dead = 0
        for position, value in enumerate(node.values):
            scan.dead += dead
            scan.unsure += bool(position)
            self.visit(value)
            scan.unsure -= bool(position)
            scan.dead -= dead
            dead = dead or int(tested_while_compiling(value) is deciding)

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
        elif node.args and self._compiles(callee):
            written = dotted_name(node.args[0])
            scan = self.function
            for target in self.iterated.get(written or "", [written]):
                if scan is not None and target in scan.nested:
                    scan.compiles_nested.append(target)  # a function nested in this one
                elif target is not None:
                    self.index.compiled_names.add(target)

    def _compiles(self, callee: str) -> bool:
        """Whether calling `callee` compiles its argument: `torch.compile`, or a compiler made
        first and then applied (`torch._dynamo.optimize("eager")(f)`,
        `torch.compile(mode=...)(f)`)."""
        return self.index.resolve(callee) in COMPILE_CALLS or (
            callee.endswith("()") and self.index.resolve(callee[:-2]) in COMPILE_CALLS
        )


def _iterated_targets(target: ast.expr, iterable: ast.expr) -> dict[str, list[str]]:
    """What a loop's names hold, as compile targets: the elements of a literal
    (`for f in (scale, shift)`), or `name[]`, the elements of a container a name holds
    (`for f in STEPS`, `STEPS.values()`, the values of `STEPS.items()` or `enumerate(STEPS)`
    bound to the second name)."""
    if type(iterable) is ast.Call:
        method = dotted_name(iterable.func) or ""
        if method.endswith(".items") and not iterable.args:
            iterable, pair = iterable.func.value, True  # type: ignore[attr-defined]
        elif method == "enumerate" and len(iterable.args) == 1:
            iterable, pair = iterable.args[0], True
        elif method.endswith(".values") and not iterable.args:
            iterable, pair = iterable.func.value, False  # type: ignore[attr-defined]
        else:
            return {}
        if pair:
            if type(target) is not ast.Tuple or len(target.elts) != 2:
                return {}
            target = target.elts[1]
    if type(target) is not ast.Name:
        return {}
    if isinstance(iterable, ast.Tuple | ast.List | ast.Set | ast.Dict):
        held = iterable.values if type(iterable) is ast.Dict else iterable.elts  # type: ignore[union-attr]
        elements = [dotted_name(element) for element in held]
        return {target.id: [e for e in elements if e is not None]}
    container = dotted_name(iterable)
    return {} if container is None else {target.id: [f"{container}[]"]}


_ACCESSORS = (".setter", ".deleter")
_FUNCTION_HEADER = ("decorator_list", "args", "returns")
_CLASS_HEADER = ("decorator_list", "bases", "keywords")
_BUILTINS = frozenset(
    {
        "len", "isinstance", "issubclass", "hasattr", "getattr", "setattr", "callable", "str",
        "repr", "type", "id", "range", "enumerate", "zip", "tuple", "list", "dict", "set",
        "frozenset", "int", "float", "bool", "round", "sorted", "print", "format", "divmod",
        "hash", "ord", "chr", "iter", "next", "reversed", "vars", "dir", "super", "object",
        "min", "max", "abs", "sum", "any", "all", "map", "filter", "complex",
    }
)  # fmt: skip

# The summary language: one string per expression, read by `breaklint.analysis`. Atoms are
# T (a tensor), B (a mask: `torch.zeros(n, dtype=torch.bool)`), P (a Python value), N (None),
# 0 and 1 (a constant that is false, `False`, `0`, `""`, or true: a Python value whose truth
# is known), U (unknown), `n<name>;` (a local name), `d<a.b>;` (an attribute chain) and `c<callee>;`
# (what a call returns); `i<e>` is an element
# of e, `s<e>` a slice of it, `l<e>` a container holding e, `r<e>` the callable e itself
# (`functools.partial(e, ...)`), `m<method>;<e>` a method called on e, `e<k><e>` the k-th
# value unpacked from e, `o<e><e>` an operation on both (a tensor when either is one),
# `b<e><e>` a comparison of both (a boolean tensor, a mask, when either is a tensor),
# `j<e><e>` either one, `t<k><e>...` a tuple of k values. A local name is the key of the
# binding that reaches the expression (`x#2`, see `_FunctionScan.bind`), in `n`, and as the
# head of `d` and `c`.
_NAME = "n"
_NO_NAMES: Mapping[str, str] = {}
_MAX_DEPTH = 6  # deeper expressions are unknown: summaries stay short


def summarise(node: ast.expr, names: Mapping[str, str] = _NO_NAMES, depth: int = 0) -> str:
    """The summary of an expression (see above); `names` maps a local name to the key of the
    binding that reaches the expression (`_FunctionScan.reaching`)."""
    if depth > _MAX_DEPTH:
        return "U"
    kind = type(node)
    deeper = depth + 1
    if kind is ast.Constant:
        return _constant_mark(node.value)  # type: ignore[attr-defined]
    if kind is ast.Name:
        name = node.id  # type: ignore[attr-defined]
        return f"{_NAME}{names.get(name, name)};"
    if kind is ast.Attribute:
        name = dotted(node)
        return "U" if name is None else f"d{_reaching(name, names)};"
    if kind is ast.Call:
        assert isinstance(node, ast.Call)
        func = node.func
        callee = dotted_name(func)
        if callee is None:
            if type(func) is ast.Attribute:  # `x.permute(0, 2, 1).contiguous()`
                return f"m{func.attr};{summarise(func.value, names, deeper)}"
            container = dotted(func.value) if type(func) is ast.Subscript else None
            # `SOLVERS[method](...)`: a call of an element, as the call graph names it
            return "U" if container is None else f"c{_reaching(container, names)}[];"
        if callee.rpartition(".")[2] == "partial" and node.args:
            return f"r{summarise(node.args[0], names, deeper)}"
        looked_up = getattr_callee(node)
        if looked_up is not None:  # `getattr(self, f"conv{i}")`: the attributes it may name
            return f"d{_reaching(looked_up, names)};"
        if _makes_mask(callee, node):
            return "B"
        if _keeps_elements(callee, node):  # `nn.ModuleList(flows)`: a container of its elements
            return f"li{summarise(node.args[0], names, deeper)}"
        return f"c{_reaching(callee, names)};"
    if kind is ast.Subscript:
        assert isinstance(node, ast.Subscript)
        mark = "s" if type(node.slice) is ast.Slice else "i"
        return f"{mark}{summarise(node.value, names, deeper)}"
    if kind is ast.BinOp:
        assert isinstance(node, ast.BinOp)
        # `a`: `&`, `|` and `^`, which keep a mask one (`keep | ~seen`); `o`: the others.
        mark = "a" if type(node.op) in _MASK_OPERATORS else "o"
        return f"{mark}{summarise(node.left, names, deeper)}{summarise(node.right, names, deeper)}"
    if kind is ast.UnaryOp:
        assert isinstance(node, ast.UnaryOp)
        if type(node.op) is ast.Not:
            return "P"
        inner = summarise(node.operand, names, deeper)
        # `-1` is as true as `1`; `~0` is not as false as `0`.
        return "P" if type(node.op) is ast.Invert and inner in TRUTH_MARKS else inner
    if kind is ast.Compare:
        assert isinstance(node, ast.Compare)
        if any(type(op) in _VALUE_TESTS for op in node.ops):
            return "P"
        left, right = node.left, node.comparators[0]
        return f"b{summarise(left, names, deeper)}{summarise(right, names, deeper)}"
    if kind is ast.BoolOp:
        assert isinstance(node, ast.BoolOp)
        return _fold("j", [summarise(value, names, deeper) for value in node.values])
    if kind is ast.IfExp:
        assert isinstance(node, ast.IfExp)
        constant = tested_while_compiling(node.test)
        if constant is not None:  # `a if torch.jit.is_tracing() else b`: only `b` is traced
            return summarise(node.body if constant else node.orelse, names, deeper)
        return f"j{summarise(node.body, names, deeper)}{summarise(node.orelse, names, deeper)}"
    if kind is ast.Tuple:
        assert isinstance(node, ast.Tuple)
        elements = node.elts
        if 1 <= len(elements) <= 9 and not any(type(e) is ast.Starred for e in elements):
            return f"t{len(elements)}" + "".join(summarise(e, names, deeper) for e in elements)
    if kind in (ast.Tuple, ast.List, ast.Set):
        elements = node.elts  # type: ignore[attr-defined]
        held = [summarise(e, names, deeper) for e in elements if type(e) is not ast.Starred]
        return f"l{_fold('j', held)}" if held else "P"
    if kind is ast.Dict:
        held = [summarise(v, names, deeper) for v in node.values]  # type: ignore[attr-defined]
        return f"l{_fold('j', held)}" if held else "P"
    if kind is ast.DictComp or kind is ast.ListComp:
        # `{f"k{i}": torch.tensor(...) for i in ...}` (`[(s / 8).ceil() for s in ...]`) holds
        # what its value is; the names its `for` clauses bind are its own (unknown here), not
        # the function's.
        assert isinstance(node, ast.DictComp | ast.ListComp)
        own = {
            target.id: f"{target.id}@"
            for generator in node.generators
            for target in ast.walk(generator.target)
            if isinstance(target, ast.Name)
        }
        value = node.value if isinstance(node, ast.DictComp) else node.elt
        return f"l{summarise(value, {**names, **own}, deeper)}"
    if kind is ast.NamedExpr:
        return summarise(node.value, names, deeper)  # type: ignore[attr-defined]
    if kind in (ast.JoinedStr, ast.Lambda):
        return "P"
    return "U"


# Calls that make a tensor of the dtype they are given: a boolean one is a mask.
_DTYPE_GIVEN = TENSOR_FACTORIES | {"to", "new_zeros", "new_ones", "new_full", "new_empty"}


_MASK_OPERATORS = (ast.BitAnd, ast.BitOr, ast.BitXor)


def getattr_callee(node: ast.Call) -> str | None:
    """`self.conv*` for `getattr(self, f"conv{i}")` (`"conv%d" % i`, `"conv{}".format(i)`,
    `"conv" + str(i)`, or a constant name): the object as written and the attribute names
    it may read, `*` standing for each part computed; None without an object as written
    or a constant part of the name, or where the name is not an identifier's."""
    if dotted_name(node.func) != "getattr" or not 2 <= len(node.args) <= 3 or node.keywords:
        return None
    owner = dotted(node.args[0])
    pattern = _name_pattern(node.args[1], top=True)
    if owner is None or pattern is None:
        return None
    pattern = re.sub(r"\*+", "*", pattern)
    if not _PATTERN.fullmatch(pattern) or pattern.replace("*", "")[:1].isdigit():
        return None
    return f"{owner}.{pattern}"


_PATTERN = re.compile(r"[*]?[A-Za-z0-9_]+(?:[*][A-Za-z0-9_]*)*")  # a constant part, first or not
_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[a-zA-Z]")


def _name_pattern(node: ast.expr, top: bool = False) -> str | None:
    """The constant parts of a string built in code, `*` for each part computed (see
    `getattr_callee`); None at the top for what builds no string from constants."""
    kind = type(node)
    if kind is ast.Constant:
        value = node.value  # type: ignore[attr-defined]
        return value if isinstance(value, str) else None
    if kind is ast.JoinedStr:
        parts = node.values  # type: ignore[attr-defined]
        return "".join(
            part.value if isinstance(part, ast.Constant) and isinstance(part.value, str) else "*"
            for part in parts
        )
    if kind is ast.Call:
        func = node.func  # type: ignore[attr-defined]
        if (
            type(func) is ast.Attribute
            and func.attr == "format"
            and type(func.value) is ast.Constant
            and isinstance(func.value.value, str)
        ):
            try:
                fields = list(string.Formatter().parse(func.value.value))
            except ValueError:
                return None
            return "".join(f"{text}{'' if name is None else '*'}" for text, name, _, _ in fields)
    if kind is ast.BinOp:
        assert isinstance(node, ast.BinOp)
        left = node.left
        if type(node.op) is ast.Mod and type(left) is ast.Constant and isinstance(left.value, str):
            return _PERCENT_FIELD.sub("*", left.value)
        if type(node.op) is ast.Add:
            built = [_name_pattern(node.left), _name_pattern(node.right)]
            if not top or any(part not in (None, "*") for part in built):
                return "".join("*" if part is None else part for part in built)
    return None if top else "*"


def _makes_mask(callee: str, node: ast.Call) -> bool:
    """`torch.zeros(n, dtype=torch.bool)`, `x.to(dtype=torch.bool)`: a boolean tensor."""
    if callee.rpartition(".")[2].removesuffix("()") not in _DTYPE_GIVEN:
        return False
    return any(
        keyword.arg == "dtype" and (dotted(keyword.value) or "").endswith("bool")
        for keyword in node.keywords
    )


# Calls that make a container of the elements of their one argument.
_ELEMENT_KEEPING = frozenset({"list", "tuple", "reversed", "sorted"})
_ELEMENT_KEEPING_MODULES = frozenset({"ModuleList", "ModuleDict"})


def _keeps_elements(callee: str, node: ast.Call) -> bool:
    """`list(x)`, `reversed(x)`, `nn.ModuleList(x)`: the elements of `x`, in a container."""
    if len(node.args) != 1 or node.keywords or type(node.args[0]) is ast.Starred:
        return False
    return callee in _ELEMENT_KEEPING or callee.rpartition(".")[2] in _ELEMENT_KEEPING_MODULES


def _reaching(written: str, names: Mapping[str, str]) -> str:
    """A dotted name as written, its head the key of the binding that reaches it (`x#2.shape`)."""
    head, dot, rest = written.partition(".")
    key = names.get(head)
    return written if key is None else f"{key}{dot}{rest}"


def unversioned(written: str) -> str:
    """A dotted name of a summary as written in the source: `x.shape` for `x#2.shape`."""
    head, dot, rest = written.partition(".")
    return f"{head.partition(VERSION)[0]}{dot}{rest}" if VERSION in head else written


Node = tuple[Any, ...]  # a decoded summary: (mark, ...operands)


@functools.lru_cache(maxsize=65536)
def decode(summary: str) -> Node:
    """The tree of a summary string (see `breaklint.index.summarise`)."""
    node, end = _decode(summary, 0)
    return node if end == len(summary) else ("U",)


def _decode(text: str, at: int) -> tuple[Node, int]:
    if at >= len(text):
        return ("U",), at
    mark = text[at]
    if mark in "TBPNUC01":
        return (mark,), at + 1
    if mark in "ndc":
        end = text.index(";", at)
        return (mark, text[at + 1 : end]), end + 1
    if mark == "m":
        end = text.index(";", at)
        inner, after = _decode(text, end + 1)
        return ("m", text[at + 1 : end], inner), after
    if mark in "islr":
        inner, end = _decode(text, at + 1)
        return (mark, inner), end
    if mark in "ojba":
        left, middle = _decode(text, at + 1)
        right, end = _decode(text, middle)
        return (mark, left, right), end
    if mark in "et":
        count = int(text[at + 1])
        if mark == "e":
            inner, end = _decode(text, at + 2)
            return ("e", count, inner), end
        items, end = [], at + 2
        for _ in range(count):
            item, end = _decode(text, end)
            items.append(item)
        return ("t", tuple(items)), end
    return ("U",), len(text)


def tuple_items(summary: str) -> list[str] | None:
    """The summaries of the items of a tuple's summary (`t2nsde;nbm;`: `nsde;`, `nbm;`); None
    for any other summary."""
    if summary[:1] != "t" or not summary[1:2].isdigit():
        return None
    items, at = [], 2
    for _ in range(int(summary[1])):
        _, end = _decode(summary, at)
        items.append(summary[at:end])
        at = end
    return items if at == len(summary) else None


def passes_own_keywords(arguments: Sequence[str], caller: FunctionInfo) -> bool:
    """Whether a call's arguments (as `_call_summary` writes them) pass on the caller's own
    keyword arguments and unpack nothing else: `super().__init__(sde=sde, **kwargs)` in
    `def __init__(self, sde, **kwargs)`. A parameter of the callee that the call does not
    name then receives what the caller's callers pass by that keyword, or its default."""
    unpacked = [argument for argument in arguments if argument.startswith("*")]
    if len(unpacked) != 1 or not unpacked[0].startswith(f"**{_NAME}"):
        return False
    name = unpacked[0][3:-1]
    local = {unversioned(entry.partition("=")[0]) for entry in caller.bindings}
    local.update(entry.partition("=")[0] for entry in caller.parameters)
    return name.isidentifier() and name not in local


_VALUE_TESTS = (ast.Is, ast.IsNot, ast.In, ast.NotIn)
# `torch.jit.is_tracing` as written, or after `from torch import jit`.
_FALSE_WHILE_COMPILING = tuple(name.partition(".")[2] for name in FALSE_WHILE_COMPILING)


def tested_while_compiling(test: ast.expr) -> bool | None:
    """What a test is while Dynamo traces, when a check decides it (`torch.jit.is_tracing()`:
    False; `not torch.compiler.is_compiling()`: False; `or`/`and` with such an operand); None
    when it depends on values."""
    kind = type(test)
    if kind is ast.Call:
        written = dotted(test.func)  # type: ignore[attr-defined]
        if written is None:
            return None
        if written.endswith(_FALSE_WHILE_COMPILING):
            return False
        return True if written.rpartition(".")[2] in COMPILING_CHECKS else None
    if kind is ast.UnaryOp and type(test.op) is ast.Not:  # type: ignore[attr-defined]
        inner = tested_while_compiling(test.operand)  # type: ignore[attr-defined]
        return None if inner is None else not inner
    if kind is ast.BoolOp:
        deciding = type(test.op) is ast.Or  # type: ignore[attr-defined]
        values = [tested_while_compiling(v) for v in test.values]  # type: ignore[attr-defined]
        if deciding in values:
            return deciding
        return (not deciding) if all(v is (not deciding) for v in values) else None
    return None


def _fold(operator: str, summaries: list[str]) -> str:
    """`o`/`j` of several summaries, pairwise; "" for none."""
    if not summaries:
        return ""
    folded = summaries[-1]
    for summary in reversed(summaries[:-1]):
        folded = f"{operator}{summary}{folded}"
    return folded


def _passes_to_project(callee: str, may_be_project: Callable[[str], bool]) -> bool:
    """Whether the arguments of a call may reach a project function's parameters. Of the
    calls through `super()`, only a constructor's: what it stores is what the object holds
    (`super().__init__(strategy)`); another method's parameters keep what its own callers
    pass."""
    if callee.startswith("super()."):
        return callee == "super().__init__"
    return "()." in callee or may_be_project(callee)


def _partial_function(callee: str | None, node: ast.Call) -> str | None:
    """The function as written that `functools.partial(f, ...)` binds arguments to."""
    if callee is None or callee.rpartition(".")[2] != "partial" or not node.args:
        return None
    return dotted(node.args[0])


def _call_summary(callee: str, node: ast.Call, names: Mapping[str, str]) -> str:
    """`callee arg ... keyword=arg`; `*` for a starred argument, `**` and the summary of what
    it unpacks for `**kwargs` (`**nkwargs;`: the function's own keyword arguments passed on,
    when `kwargs` is its `**` parameter)."""
    parts = [callee]
    for argument in node.args:
        parts.append("*" if type(argument) is ast.Starred else summarise(argument, names))
    for keyword in node.keywords:
        value = keyword.value
        summary = summarise(value, names)
        parts.append(f"**{summary}" if keyword.arg is None else f"{keyword.arg}={summary}")
    return " ".join(parts)


def _bind_summary(
    scan: _FunctionScan, target: ast.expr, value: ast.expr, bound: list[tuple[str, str]]
) -> None:
    """Record what an assignment binds: `self.<attribute>` now; names, unpacked tuples into
    `bound`, bound once every target's value is read (`a, b = b, a`)."""
    names = scan.reaching
    if isinstance(target, ast.Name):
        bound.append((target.id, summarise(value, names)))
    elif isinstance(target, ast.Attribute):
        if isinstance(target.value, ast.Name) and target.value.id == "self":
            scan.attributes.setdefault(target.attr, []).append(summarise(value, names))
    elif isinstance(target, ast.Tuple | ast.List):
        elements = target.elts
        if any(isinstance(e, ast.Starred) for e in elements):
            return
        if isinstance(value, ast.Tuple | ast.List) and len(value.elts) == len(elements):
            for element, item in zip(elements, value.elts, strict=True):
                _bind_summary(scan, element, item, bound)
            return
        whole = summarise(value, names)
        for position, element in enumerate(elements[:10]):
            if isinstance(element, ast.Name):
                bound.append((element.id, f"e{position}{whole}"))


def _note_growth(scan: _FunctionScan, callee: str, node: ast.Call) -> None:
    """`steps.append(Scale())` on a local list: it holds the element too, as after
    `steps += [Scale()]`; `self.filters.append(Scale())` on a list the instance holds: the
    attribute holds a list that holds it, besides what is assigned to it."""
    held, _, method = callee.rpartition(".")
    if method != "append" or len(node.args) != 1 or scan.nesting:
        return
    names = scan.reaching
    owner, dot, attribute = held.partition(".")
    if owner == "self" and dot and "." not in attribute:
        scan.attributes.setdefault(attribute, []).append(f"l{summarise(node.args[0], names)}")
        return
    key = names.get(held, held)
    if key in scan.bindings:
        scan.bind(held, f"o{_NAME}{key};l{summarise(node.args[0], names)}")


def _is_register_buffer(callee: str) -> bool:
    return callee in ("self.register_buffer", "self.register_parameter")


# A parameter annotated with Python numbers or strings only (`ratio: float | int`): a reading
# of PYTHON that, unlike `Any` or a class, no tensor a caller may pass fits.
SCALARS_MARK = "S"
READING_MARKS = {
    Reading.TENSOR: "T",
    Reading.MASK: "T",
    Reading.TENSORS: "C",
    Reading.MAYBE: "Y",
    Reading.PYTHON: "P",
}


def _parameters(
    arguments: ast.arguments, aliases: dict[str, str], imports: dict[str, str]
) -> tuple[str, ...]:
    """`name=` role (p: positional, k: keyword only), reading of its annotation (T, C, Y, P,
    S for Python scalars only, or U without one), default (`-` none, N None, 0 or 1 another
    constant by its truth, U an expression), and `:target` when the annotation is another
    name, dotted through the module's imports."""
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
    defaults += arguments.defaults
    entries = []
    roles = [("p", positional, defaults), ("k", arguments.kwonlyargs, arguments.kw_defaults)]
    for role, parameters, values in roles:
        for parameter, default in zip(parameters, values, strict=True):
            reading = read_annotation(parameter.annotation, aliases)
            mark = "U" if reading is None else READING_MARKS[reading]
            if mark == "P" and admits_only_scalars(parameter.annotation, aliases):
                mark = SCALARS_MARK
            entry = f"{parameter.arg}={role}{mark}{_default_mark(default)}"
            # The class it names, as the module reads it (`strategy: Strategy`,
            # `edge_index: Adj` after `from pkg.typing import Adj`): a type alias the project
            # may define, or the class of what the parameter holds.
            annotation = optional_member(parameter.annotation)
            written = dotted(annotation) if annotation and reading is Reading.PYTHON else None
            if written is not None and written not in _BUILTINS:
                entry += f":{expand_import(written, imports)}"
            entries.append(entry)
    return tuple(entries)


def _default_mark(default: ast.expr | None) -> str:
    if default is None:
        return "-"
    if isinstance(default, ast.UnaryOp) and isinstance(default.operand, ast.Constant):
        value = default.operand.value
        if isinstance(default.op, ast.Not):
            return _constant_mark(not value)
        return _constant_mark(value) if isinstance(default.op, ast.USub | ast.UAdd) else "P"
    if isinstance(default, ast.Constant):
        return _constant_mark(default.value)
    return "U"


TRUTH_MARKS = ("0", "1")  # a constant's summary (and default mark) by its truth


def _constant_mark(value: object) -> str:
    """N for None; for any other constant its truth, 0 or 1, which `if flag:` and `flag and
    ...` decide on while Dynamo traces."""
    return "N" if value is None else "1" if value else "0"


def _abstract(node: ast.FunctionDef | ast.AsyncFunctionDef, decorators: tuple[str, ...]) -> bool:
    if any(d.rpartition(".")[2] == "abstractmethod" for d in decorators):
        return True
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1:
        return False
    statement = body[0]
    if isinstance(statement, ast.Raise) and statement.exc is not None:
        raised = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
        return dotted(raised) == "NotImplementedError"
    return isinstance(statement, ast.Pass) or (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and statement.value.value is Ellipsis
    )


def _annotated_class(annotation: ast.expr | None) -> str:
    """The names a return annotation gives as plain names or attribute chains, or as a string
    of one (`-> Backend`, `-> "Backend"`, `-> backends.Backend`), a generic class's
    (`-> Handler[P, T]`: `Handler`), and each member of a union (`-> Optional[A]`,
    `-> Union[A, Handler[P, T]]`, `-> A | None`), joined by `|`; "" for anything else (a
    tensor, a callable)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value.strip(), mode="eval").body
        except SyntaxError:
            return ""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        members = [annotation.left, annotation.right]
    elif isinstance(annotation, ast.Subscript):
        head = dotted(annotation.value) or ""
        inner = annotation.slice
        if head.rpartition(".")[2] not in ("Union", "Optional"):
            members = [annotation.value]  # a generic class's own name
        elif isinstance(inner, ast.Tuple):
            members = list(inner.elts)
        else:
            members = [inner]
    else:
        name = dotted(annotation) if isinstance(annotation, ast.Name | ast.Attribute) else None
        if name is None or name.rpartition(".")[2] in ("Tensor", "None", "Any"):
            return ""
        return name
    names = (_annotated_class(member) for member in members)
    return "|".join(dict.fromkeys(name for name in names if name))


def _annotated_tensor(annotation: ast.expr | None) -> bool:
    """`-> torch.Tensor`, `-> Tensor | None`; not a container that also holds other values
    (`-> tuple[bool, torch.Tensor]`), whose parts unpack to different kinds."""
    if annotation is None:
        return False
    container = annotation.value if isinstance(annotation, ast.Subscript) else None
    name = dotted(container) if container is not None else None
    if name is not None and name.rpartition(".")[2].lower() in _CONTAINERS:
        return False
    if name is not None and name.rpartition(".")[2] in ("TypeGuard", "TypeIs"):
        return False  # a bool that narrows its argument to a tensor
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


def _returns_tests(scan: _FunctionScan) -> tuple[str, ...]:
    """`FunctionInfo.returns_tests`: () unless every value is a test of checks, one a call."""
    formulas = tuple(dict.fromkeys(_test_formula(value, scan, set()) for value in scan.returns))
    if not formulas or "u" in formulas or not any("c" in formula for formula in formulas):
        return ()
    return formulas


def _test_formula(value: ast.expr | None, scan: _FunctionScan, seen: set[str]) -> str:
    """A value as a test of checks, in prefix form: `c<callee>;` a call as written with no
    arguments (`is_tracing()`), `!` not, `&<n>`/`|<n>` and/or of n operands, `k0`/`k1` a
    false/true constant, `u` anything else (a name follows its one assignment)."""
    kind = type(value)
    if kind is ast.Call:
        callee = dotted(value.func)  # type: ignore[union-attr]
        if callee is None or value.args or value.keywords:  # type: ignore[union-attr]
            return "u"
        return f"c{callee};"
    if kind is ast.UnaryOp and type(value.op) is ast.Not:  # type: ignore[union-attr]
        inner = _test_formula(value.operand, scan, seen)  # type: ignore[union-attr]
        return "u" if inner == "u" else f"!{inner}"
    if kind is ast.BoolOp and len(value.values) <= 9:  # type: ignore[union-attr]
        operands = [_test_formula(v, scan, seen) for v in value.values]  # type: ignore[union-attr]
        if all(operand == "u" for operand in operands):
            return "u"
        mark = "|" if type(value.op) is ast.Or else "&"  # type: ignore[union-attr]
        return f"{mark}{len(operands)}" + "".join(operands)
    if kind is ast.Constant and type(value.value) is bool:  # type: ignore[union-attr]
        return f"k{int(value.value)}"  # type: ignore[union-attr]
    if kind is ast.Name and value.id not in seen:  # type: ignore[union-attr]
        name = value.id  # type: ignore[union-attr]
        bound = scan.assigned.get(name, [])
        if len(bound) != 1 or name in scan.may_turn_false or name in scan.parameters:
            return "u"
        seen.add(name)
        return _test_formula(bound[0], scan, seen)
    return "u"


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
    ast.AnnAssign: _Indexer.visit_flow,
    ast.ExceptHandler: _Indexer.visit_ExceptHandler,
    ast.If: _Indexer.visit_branch,
    ast.IfExp: _Indexer.visit_IfExp,
    ast.BoolOp: _Indexer.visit_BoolOp,
    ast.Match: _Indexer.visit_branch,
    # Scopes, loops and blocks, and the nodes the compile stage checks.
    ast.For: _Indexer.visit_For,
    ast.AsyncFor: _Indexer.visit_For,
    ast.While: _Indexer.visit_loop,
    ast.Try: _Indexer.visit_block,
    ast.With: _Indexer.visit_block,
    ast.AsyncWith: _Indexer.visit_block,
    ast.Lambda: _Indexer.visit_lambda,
    **dict.fromkeys(
        (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp),
        _Indexer.visit_comprehension_scope,
    ),
    **dict.fromkeys(
        (
            ast.Yield, ast.YieldFrom, ast.Await, ast.Break, ast.Continue, ast.Global,
            ast.Nonlocal, ast.Starred, ast.NamedExpr, ast.comprehension,
            ast.arguments, ast.Tuple, ast.List, ast.Expr,
        ),
        _Indexer.visit_noted,
    ),
}  # fmt: skip
if hasattr(ast, "TryStar"):  # 3.11
    _HANDLERS[ast.TryStar] = _Indexer.visit_block
if hasattr(ast, "TypeAlias"):  # 3.12
    _HANDLERS[ast.TypeAlias] = _Indexer.visit_noted


def build_index(
    path: str,
    tree: ast.Module,
    package_parts: list[str],
    nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] | None = None,
    stage: CompileStage | None = None,
) -> ModuleIndex:
    """Index one parsed file. `package_parts` is the file's package, for relative imports;
    `nodes`, when given, receives each indexed function's node by qualified name; `stage`,
    what the compiler may reject in it."""
    index = ModuleIndex(path)
    stage = CompileStage(tree, "") if stage is None else stage
    indexer = _Indexer(index, package_parts, {} if nodes is None else nodes, stage)
    indexer.scan(tree)
    index.flags = constant_flags(tree, indexer.declared_global)
    return index


def constant_flags(tree: ast.Module, declared_global: set[str]) -> dict[str, bool]:
    """The module-level names bound once, in the module's body (its `if`s and `try`s
    included, not its functions' or classes'), to a constant (`_debug = False`, `VERBOSE:
    bool = 0`), that no `global` statement names (`declared_global`, which the index's walk
    collects): each with its truth."""
    bindings: dict[str, list[ast.expr | None]] = {}
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        statement = pending.pop()
        value: ast.expr | None = None
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        elif isinstance(statement, ast.If | ast.Try | ast.With | ast.For | ast.While):
            for part in ("body", "orelse", "finalbody", "handlers"):
                pending.extend(getattr(statement, part, []))
        if isinstance(statement, ast.ExceptHandler):
            pending.extend(statement.body)
        for target in targets if len(targets) == 1 else []:
            if isinstance(target, ast.Name):
                bindings.setdefault(target.id, []).append(value)
        # Any other binding of a name at module level: not a constant flag.
        for bound in _other_module_bindings(statement, targets if len(targets) == 1 else []):
            bindings.setdefault(bound, []).append(None)
    return {
        name: bool(values[0].value)
        for name, values in bindings.items()
        if len(values) == 1
        and isinstance(values[0], ast.Constant)
        and (values[0].value is None or type(values[0].value) in (bool, int, str))
        and name not in declared_global
    }


def _other_module_bindings(statement: ast.AST, counted: list[ast.expr]) -> list[str]:
    """The names a module-level statement binds beyond the one assignment target counted."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [statement.name]
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return [(a.asname or a.name).partition(".")[0] for a in statement.names]
    names = []
    own = [n for target in counted for n in ast.walk(target)]
    if isinstance(statement, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.For | ast.With):
        parts: list[ast.AST] = []
        if isinstance(statement, ast.Assign):
            parts = list(statement.targets)
        elif isinstance(statement, ast.AugAssign | ast.AnnAssign | ast.For):
            parts = [statement.target]
        else:
            parts = [item.optional_vars for item in statement.items if item.optional_vars]
        for part in parts:
            for node in ast.walk(part):
                if isinstance(node, ast.Name) and not any(node is n for n in own):
                    names.append(node.id)
    return names


def _given_a_generator(node: ast.Call) -> bool:
    """Whether a call is given a generator Dynamo cannot rebuild (`syntax.makes_generator`):
    a break inside the callee skips the caller's frame too (BL210). A builtin that consumes
    it (BL206) has no summary to hand over, so it needs no exception here."""
    # Loops, and the node's type first: most arguments are neither a generator expression
    # nor a call (this runs for every call in a function).
    for argument in node.args:
        kind = type(argument)
        if (kind is ast.GeneratorExp or kind is ast.Call) and makes_generator(argument):
            return True
    for keyword in node.keywords:
        kind = type(keyword.value)
        if (kind is ast.GeneratorExp or kind is ast.Call) and makes_generator(keyword.value):
            return True
    return False


def on_object_made_here(callee: str) -> bool:
    """Whether a call (as the index writes it) is of a method of an object the caller makes in
    the same expression (`Helper(n).run`, `make().apply`): an object Dynamo has no source
    for, whose bound method it cannot rebuild to resume after a break inside it. `super()`'s
    methods are bound to `self`, which it can."""
    return "()." in callee and not callee.startswith("super().")
