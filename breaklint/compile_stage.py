"""What CPython's compiler may reject in a tree its parser accepted, noticed during a walk.

`python file.py` fails on a file the parser accepts when a later stage of `compile()` (the
future-statement check, the symbol table, the code generator) refuses it. Compiling every
tree to bytecode to learn that costs about two thirds of the parse again, so the index walk
(`breaklint.index`) reports each construct below to a `CompileStage`, and the engine
compiles the tree only when one was seen (`needs_compile`): then the verdict and its message
are CPython's own. A construct is noted whenever it *may* fail, never only when it does; the
differential test (tests/test_compile_stage.py) holds a snippet for every error below.

What Python 3.11 rejects after parsing (and 3.12 in type parameters), and what notes it here:
- `return` outside a function; `yield`, `yield from` outside one, in a comprehension, in an
  async function (`return` with a value in an async generator, `yield from` in an async
  function); `await`, `async for`, `async with` and asynchronous comprehensions outside an
  async function: each is noted unless its innermost scope allows it for sure.
- `break` / `continue` outside a loop's body (in its `else`, or a function or class in it).
- `global` / `nonlocal` (used before the declaration, a parameter, at module level, no
  binding): any of them.
- `from __future__ import ...` anywhere but at the start of the module, or of a feature this
  Python does not know (`braces`); `import *` outside the module level.
- `__debug__` assigned, deleted, bound as a parameter, a keyword or an import: any
  occurrence of the name in the text.
- A starred assignment target (`*a = b`, two in one target, 256 names before it: an
  unpacking's tuple or list is checked before its starred target); an
  assignment expression in a comprehension (rebinding its variable, in its iterable, in a
  class body) or in an annotation, a decorator or a default.
- A repeated parameter (`def f(a, a)`, `lambda a, a: 0`) or keyword (`f(a=1, a=2)`,
  `class A(x=1, x=2)`); a bare `except:` that is not the last handler; `except*` (its
  `break`, `continue`, `return`); `match` (its patterns' rules); type parameters and `type`
  aliases (3.12).
- More than 20 blocks (loops, `try`, `with` items) nested in one function: noted from the
  6th compound statement nested in a scope, each counted as three blocks, the most one
  pushes.
- Nesting too deep for the compiler's recursion: the index walk runs with a bounded
  recursion (`breaklint.checker`), and a deeper tree is compiled.
"""

from __future__ import annotations
import __future__

import ast
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import cast

from breaklint.syntax import iter_nodes

FUTURE_FEATURES = frozenset(__future__.all_feature_names)
_BLOCK_LIMIT = 20  # CPython's CO_MAXBLOCKS: frame blocks one code object may nest
_BLOCKS_PER_STATEMENT = 3  # the most one compound statement pushes (try: finally + handler)
_MAX_NAMES_BEFORE_STAR = 256  # `a0, ..., a255, *rest = x` does not compile


class Scope(Enum):
    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    ASYNC_FUNCTION = "async function"
    LAMBDA = "lambda"
    COMPREHENSION = "comprehension"
    # A function's or class's decorators, defaults, annotations and bases, and an annotated
    # assignment's annotation: evaluated in the enclosing scope, or not at all (PEP 563).
    HEADER = "header"


@dataclass(slots=True)
class _Unit:
    """A scope being walked: what it is, and the loops and blocks around the walk in it."""

    scope: Scope
    loops: int = 0
    blocks: int = 0


_YIELD_SCOPES = (Scope.FUNCTION, Scope.LAMBDA)
# Read for every `return`: a module-level tuple, not two reads of the enum's class each time.
_FUNCTION_SCOPES = (Scope.FUNCTION, Scope.ASYNC_FUNCTION)


class CompileStage:
    """The constructs of one module that the compiler may reject, as the walk reports them:
    `enter` / `leave` around scopes and loop bodies, `note` on the nodes themselves."""

    def __init__(self, module: ast.Module, text: str) -> None:
        # The first construct seen that may not compile, for tests and debugging.
        self.reason: str | None = "`__debug__`" if "__debug__" in text else None
        self._units = [_Unit(Scope.MODULE)]
        self._leading_futures = _leading_futures(module)
        # The starred targets of unpackings that compile (`a, *b = c`), by node id.
        self.unpacked: set[int] = set()

    @property
    def needs_compile(self) -> bool:
        return self.reason is not None

    @property
    def scope(self) -> Scope:
        """The scope the walk is in."""
        return self._units[-1].scope

    def _note(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason

    def enter(self, scope: Scope) -> None:
        self._units.append(_Unit(scope))

    def leave(self) -> None:
        self._units.pop()

    def enter_block(self, loop: bool, statements: int = 1) -> None:
        """Into the body of a loop (`loop`) or of a `try` or `with` (of `statements` items)."""
        unit = self._units[-1]
        unit.loops += loop
        unit.blocks += _BLOCKS_PER_STATEMENT * statements
        if unit.blocks > _BLOCK_LIMIT - _BLOCKS_PER_STATEMENT:
            self._note("blocks nested deeply")

    def leave_block(self, loop: bool, statements: int = 1) -> None:
        unit = self._units[-1]
        unit.loops -= loop
        unit.blocks -= _BLOCKS_PER_STATEMENT * statements

    def too_deep(self) -> None:
        self._note("nesting deeper than the walk's bound")

    def note(self, node: ast.AST) -> None:
        """Check a node whose kind the compiler may reject where it stands."""
        check = _CHECKS.get(type(node))
        if check is not None:
            reason = check(self._units[-1], node, self)
            if reason is not None:
                self._note(reason)

    def is_leading_future(self, node: ast.ImportFrom) -> bool:
        return any(node is leading for leading in self._leading_futures)


def _leading_futures(module: ast.Module) -> list[ast.ImportFrom]:
    """The `from __future__` imports that start the module (after its docstring): those the
    compiler accepts, when it knows their features."""
    body = module.body
    start = 1 if body and _is_docstring(body[0]) else 0
    leading = []
    for statement in body[start:]:
        if not (isinstance(statement, ast.ImportFrom) and statement.module == "__future__"):
            break
        leading.append(statement)
    return leading


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and type(statement.value.value) is str
    )


def _return(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    in_function = unit.scope in _FUNCTION_SCOPES
    return None if in_function else "`return` outside a function"


def _yield(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    return None if unit.scope in _YIELD_SCOPES else "`yield` outside a function"


def _in_async_function(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    return None if unit.scope is Scope.ASYNC_FUNCTION else "`await` or `async` outside one"


def _loop_jump(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    return None if unit.loops else "`break` or `continue` outside a loop"


def _always(reason: str) -> Callable[[_Unit, ast.AST, CompileStage], str | None]:
    def check(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
        return reason

    return check


def _import_from(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    assert isinstance(node, ast.ImportFrom)
    if node.module == "__future__":  # `from .__future__` too: CPython ignores the level
        known = all(alias.name in FUTURE_FEATURES for alias in node.names)
        return None if known and stage.is_leading_future(node) else "a future import"
    if unit.scope is not Scope.MODULE and any(alias.name == "*" for alias in node.names):
        return "`import *` outside the module level"
    return None


def _unpacking(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    assert isinstance(node, ast.Tuple | ast.List)
    if type(node.ctx) is not ast.Store:
        return None
    starred = [i for i, element in enumerate(node.elts) if type(element) is ast.Starred]
    # `a, *b = c` compiles: one starred target, after fewer than 256 others (CPython's
    # `unpack_helper`); the walk reaches the starred target after its tuple or list.
    if len(starred) > 1 or (starred and starred[0] >= _MAX_NAMES_BEFORE_STAR):
        return "a starred target"
    if starred:
        stage.unpacked.add(id(node.elts[starred[0]]))
    return None


def _starred(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    assert isinstance(node, ast.Starred)
    # Where the parser lets `*x` be read (calls, displays, a `*args` annotation) it compiles,
    # and as the one starred target of an unpacking (`_unpacking`).
    if type(node.ctx) is ast.Load or id(node) in stage.unpacked:
        return None
    return "a starred target"


def _value_starred(
    check: Callable[[_Unit, ast.AST, CompileStage], str | None] | None,
) -> Callable[[_Unit, ast.AST, CompileStage], str | None]:
    """`check`, after `*a` as the whole value of a statement (`*_`, `x = *a`, `return *a`),
    which the parser reads and the compiler refuses."""

    def checked(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
        if type(getattr(node, "value", None)) is ast.Starred:
            return "a starred expression"
        return None if check is None else check(unit, node, stage)

    return checked


def _named(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    inside = unit.scope in (Scope.COMPREHENSION, Scope.HEADER)
    return "an assignment expression in a comprehension or header" if inside else None


def _comprehension(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    assert isinstance(node, ast.comprehension)
    return "an asynchronous comprehension" if node.is_async else None


def _arguments(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    assert isinstance(node, ast.arguments)
    names = [a.arg for a in (*node.posonlyargs, *node.args, *node.kwonlyargs)]
    names += [a.arg for a in (node.vararg, node.kwarg) if a is not None]
    return "a repeated parameter" if len(set(names)) != len(names) else None


def _try(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    assert isinstance(node, ast.Try)
    bare = [handler.type is None for handler in node.handlers]
    return "a bare `except:` before another" if any(bare[:-1]) else None


def repeated_keywords(keywords: list[ast.keyword]) -> bool:
    """Whether a call or a class statement names a keyword twice."""
    names = [keyword.arg for keyword in keywords if keyword.arg is not None]
    return len(set(names)) != len(names)


def _keywords(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    assert isinstance(node, ast.Call | ast.ClassDef)
    keywords = node.keywords
    if len(keywords) > 1 and repeated_keywords(keywords):
        return "a repeated keyword"
    return _definition(unit, node, stage)


def _call_keywords(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    """`_keywords` of a call, which has no type parameters to ask for (asking a node for a
    field its type lacks raises and catches an AttributeError: for every call, a hundredth
    of the index's time)."""
    keywords = cast(ast.Call, node).keywords
    return "a repeated keyword" if len(keywords) > 1 and repeated_keywords(keywords) else None


def _definition(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    return "type parameters" if getattr(node, "type_params", None) else None


def _annotated(unit: _Unit, node: ast.AST, stage: CompileStage) -> str | None:
    assert isinstance(node, ast.AnnAssign)
    # Not evaluated at all under PEP 563, where these are refused; small, so walked here.
    forbidden = any(type(part) in _NOT_IN_ANNOTATIONS for part in iter_nodes(node.annotation))
    return "`yield`, `await` or `:=` in an annotation" if forbidden else None


_NOT_IN_ANNOTATIONS = (ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)


_CHECKS: dict[type, Callable[[_Unit, ast.AST, CompileStage], str | None]] = {
    ast.Return: _value_starred(_return),
    ast.Yield: _value_starred(_yield),
    ast.Expr: _value_starred(None),
    ast.Assign: _value_starred(None),
    ast.AugAssign: _value_starred(None),
    ast.YieldFrom: _yield,
    ast.Await: _in_async_function,
    ast.AsyncFor: _in_async_function,
    ast.AsyncWith: _in_async_function,
    ast.Break: _loop_jump,
    ast.Continue: _loop_jump,
    ast.Global: _always("`global`"),
    ast.Nonlocal: _always("`nonlocal`"),
    ast.Match: _always("`match`"),
    ast.ImportFrom: _import_from,
    ast.Starred: _starred,
    ast.Tuple: _unpacking,
    ast.List: _unpacking,
    ast.NamedExpr: _named,
    ast.comprehension: _comprehension,
    ast.arguments: _arguments,
    ast.Try: _try,
    ast.Call: _call_keywords,
    ast.ClassDef: _keywords,
    ast.FunctionDef: _definition,
    ast.AsyncFunctionDef: _definition,
    ast.AnnAssign: _value_starred(_annotated),
}
for _name, _reason in (("TryStar", "`except*`"), ("TypeAlias", "a `type` alias")):
    if hasattr(ast, _name):  # 3.11, 3.12
        _CHECKS[getattr(ast, _name)] = _always(_reason)
