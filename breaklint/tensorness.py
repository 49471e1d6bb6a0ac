"""Tensor-ness: a light inference that tells tensors from Python values inside one function.

`FunctionFacts` is a batched visitor that the engine runs first, before every rule, in the same
traversal. It records what each local name holds as the traversal passes its assignment, and
which loops enclose the current node. Rules ask it about an expression when they visit it:

- `kind(expr)`: TENSOR (a tensor), MASK (a boolean tensor), PYTHON (shape, dtype, device, int,
  None, config flag...) or UNKNOWN;
- `reads_tensor_value(test)`: whether deciding the truth of `test` needs a tensor's data.

It is deliberately conservative: UNKNOWN never becomes TENSOR by guessing, except through
methods only tensors have (`x.sum()`, `x.any()`), so shapes, dtypes, devices, `None` checks,
`self.training` and config flags are never taken for tensor data.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from breaklint.annotations import Reading, iterates_tensors, read_annotation
from breaklint.kinds import HANDED_KINDS, READ_KINDS, RETURNED_KINDS, Kind, annotation_kind, join
from breaklint.knowledge.answers import TENSOR_METHOD_NAMES
from breaklint.knowledge.curated import COMPILING_CHECKS, FALSE_WHILE_COMPILING
from breaklint.knowledge.tensor_facts import (
    DTYPE_KEEPING_METHODS,
    MASK_METHODS,
    PYTHON_ATTRIBUTES,
    PYTHON_BUILTINS,
    PYTHON_METHODS,
    PYTHON_TORCH_PREFIXES,
    SPARSE_METHODS,
    SPARSE_TORCH_FUNCTIONS,
    TENSOR_ATTRIBUTES,
    TENSOR_FACTORIES,
    TENSOR_METHODS,
    TENSOR_TORCH_PREFIXES,
)
from breaklint.syntax import Visitor, dotted, method_call, negated

_MASK_COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)
_VALUE_TESTS = (ast.Is, ast.IsNot, ast.In, ast.NotIn)
_SIZE_METHODS = frozenset({"size", "dim", "ndimension", "numel", "nelement"})
_MASK_OPERATORS = (ast.BitAnd, ast.BitOr, ast.BitXor)
# Values that are plain Python whatever they hold.
_PYTHON_NODES = (
    ast.Constant, ast.JoinedStr, ast.Tuple, ast.List, ast.Dict, ast.Set, ast.Lambda,
    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
)  # fmt: skip
_PYTHON_NODE_TYPES = frozenset(_PYTHON_NODES)
_CONTAINER_TYPES = frozenset({ast.Tuple, ast.List, ast.Set, ast.Dict})
Loop = ast.For | ast.AsyncFor | ast.While
# Types no tensor is an instance of, as `isinstance` tests name them.
_PYTHON_TYPES = frozenset({"list", "tuple", "int", "float", "bool", "str", "dict", "set"})


class FunctionFacts(Visitor):
    """Names, their kinds and the enclosing loops, kept up to date during the one traversal."""

    def __init__(
        self,
        imports: dict[str, str],
        *,
        root: bool,
        guard_calls: frozenset[str] = frozenset(),
        false_calls: frozenset[str] = frozenset(),
        tensor_calls: frozenset[str] = frozenset(),
        used_as_tensors: frozenset[str] = frozenset(),
        used_as_sparse: frozenset[str] = frozenset(),
        parameter_kinds: dict[str, str] | None = None,
        call_kinds: dict[str, str] | None = None,
        attribute_kinds: dict[str, str] | None = None,
        project_calls: frozenset[str] = frozenset(),
        definitions: frozenset[str] = frozenset(),
        type_aliases: dict[str, str] | None = None,
        held_objects: dict[str, str] | None = None,
        unenterable_calls: dict[str, str] | None = None,
        breaking_calls: dict[str, str] | None = None,
        new_object_calls: frozenset[str] = frozenset(),
        method_holders: frozenset[str] = frozenset(),
        optional_key_dicts: frozenset[str] = frozenset(),
        uncallable_calls: dict[str, str] | None = None,
        module_method: bool = False,
        eager_init: str = "",
        eager_call: str = "",
        eager_frame: str = "",
        module_flags: dict[str, bool] | None = None,
    ) -> None:
        self.imports = imports
        self.module_flags = module_flags or {}  # `ModuleIndex.flags`
        # From the project-wide analysis: what callers pass, what project calls return, the
        # class's tensor attributes, and the calls that reach project code, not torch.
        self.parameter_kinds = parameter_kinds or {}
        self.call_kinds = call_kinds or {}
        self.attribute_kinds = attribute_kinds or {}
        self.project_calls = project_calls
        self.definitions = definitions  # the module's classes and functions: not tensors
        self.type_aliases = type_aliases or {}
        # Module-level objects, here or imported, by name: the class that made each.
        self.held_objects = held_objects or {}
        # Calls as written that make a project class's instance Dynamo cannot enter in a
        # `with`: the torch or standard-library class it derives from.
        self.unenterable_calls = unenterable_calls or {}
        # Calls as written that reach a project function that breaks the graph: "certain CODE
        # path:line" or "maybe ..." (`breaklint.call_breaks`).
        self.breaking_calls = breaking_calls or {}
        # Those on a local that holds an object the function makes (`solver.integrate`).
        self.new_object_calls = new_object_calls
        # Constructor calls as written whose objects hold bound methods of their own (BL209).
        self.method_holders = method_holders
        # Constructor calls as written of TypedDicts Dynamo cannot make (BL515).
        self.optional_key_dicts = optional_key_dicts
        # Constructor calls as written of subclasses Dynamo cannot make, with the base (BL519).
        self.uncallable_calls = uncallable_calls or {}
        self.module_method = module_method  # a method of an `nn.Module` class
        self.eager_init = eager_init  # `ScopedFunction.eager_init`
        self.eager_call = eager_call  # `ScopedFunction.eager_call`
        self.eager_frame = eager_frame  # `ScopedFunction.eager_frame`
        self.root = root  # parameters of a compile root are the traced tensors
        self.guard_calls = guard_calls  # project functions true while compiling, as written
        self.false_calls = false_calls  # and those false while compiling
        self.tensor_calls = tensor_calls  # project functions that return tensors, as written
        self.used_as_tensors = used_as_tensors  # see `names_used_as_tensors`
        self.used_as_sparse = used_as_sparse  # see `names_used_as_sparse`
        # Names that hold a tensor on one path through an `if` and not on another.
        self.uncertain: set[str] = set()
        # Of them, those an `if` made tensors (not tensors before it that a branch rebinds).
        self.made_one_way: set[str] = set()
        # Per open `if`: the names before it, then, once its `else` starts, after its body.
        self._branches: list[dict[str, Kind]] = []
        self._before_if: list[dict[str, Kind]] = []  # the names' kinds before each `if`
        # The kind of each expression asked about since a name was last bound: rules ask about
        # every node of a nested expression, and each answer recurses through the operands.
        self._kinds: dict[ast.expr, Kind] = {}
        # `tensor_method` of each call asked about since then: most rules ask of every call.
        self._tensor_methods: dict[ast.Call, tuple[ast.expr, str] | None] = {}
        self._names: dict[str, Kind] = {}
        self.loops: list[Loop] = []
        # Enclosing `if`s on trace-time values (flags, shapes): code under them is traced only
        # in the configurations that take that branch.
        self._static_ifs: list[bool] = []
        # Branches that run only when not compiling (`if not torch.compiler.is_compiling():`).
        self._eager_branches: list[bool] = []
        # Per open `and`/`or`, its operands Python never evaluates while Dynamo traces (those
        # after `is_compiling() or`, `not is_compiling() and`): empty for most.
        self._untraced_operands: list[list[ast.expr]] = []
        # Per function depth, what follows `if is_compiling(): return ...` (True: never traced)
        # or `if flag and is_compiling(): return ...` (False: traced when the flag is false).
        self._after_compiled_return: dict[int, bool] = {}
        # Per function depth, the statements that run whenever the function does (its body's,
        # and those of a `with` or a `try` body there): an `if` there that returns ends it.
        self._unconditional: dict[int, set[int]] = {}
        self._depth = 0  # function nesting: 1 inside the visited function itself
        # Parameters without a default that every caller passes `None`, until rebound.
        self._none_parameters: set[str] = set()
        # Parameters every caller passes a constant to, by its truth, until rebound.
        self._constant_parameters: dict[str, bool] = {}
        # Root parameters taken for tensors only because they are parameters, until rebound.
        self.guessed_parameters: set[str] = set()
        self._saved: list[tuple[dict[str, Kind], list[Loop]]] = []
        # Most rules resolve the same callee when they visit a call: remember the last answer
        # until a name is bound again.
        self._resolved: tuple[ast.expr | None, str | None] = (None, None)
        self._expression_statements: list[ast.Expr] = []
        self._comprehensions: list[dict[str, Kind]] = []  # names outside each comprehension
        # Containers of tensors whose iteration gives tensors (a tuple or list, not a dict,
        # whose iteration gives its keys), until rebound.
        self._tensor_sequences: set[str] = set()
        self._saved_sequences: list[set[str]] = []  # per enclosing function
        # Dicts with string keys bound and filled on the function's straight-line path
        # (`out = {"loss": loss, "n": n}`, `out["acc"] = acc`): each key's kind, and whether
        # it is a tensor only by a root parameter's guess, until the dict is rebound, filled
        # under an `if` or in a loop, or a method of it is called.
        self._entries: dict[str, dict[str, tuple[Kind, bool]]] = {}
        # Names bound to an empty list display (`losses = []`), until rebound: appending
        # tensors to one makes it a list of tensors.
        self._empty_lists: set[str] = set()

    @property
    def names(self) -> dict[str, Kind]:
        """The kinds of the names bound so far. Read-only to callers: `bind_name` binds."""
        return self._names

    @names.setter
    def names(self, names: dict[str, Kind]) -> None:
        self._names = names
        self._kinds.clear()
        self._tensor_methods.clear()

    def bind_name(self, name: str, kind: Kind) -> None:
        self._names[name] = kind
        self._kinds.clear()
        self._tensor_methods.clear()
        self._none_parameters.discard(name)
        self._constant_parameters.pop(name, None)
        self._tensor_sequences.discard(name)
        self._entries.pop(name, None)
        self._empty_lists.discard(name)

    # Queries used by rules.
    def resolve(self, node: ast.expr) -> str | None:
        """The dotted name of an expression with its import alias expanded: `F.relu` ->
        `torch.nn.functional.relu`; None for anything that is not a dotted name."""
        last, answer = self._resolved
        if node is last:
            return answer
        name = dotted(node)
        if name is not None:
            head, _, rest = name.partition(".")
            target = None if head in self.names else self.imports.get(head)  # locals shadow
            if target is not None:
                name = f"{target}.{rest}" if rest else target
        self._resolved = (node, name)
        return name

    def statement_of(self, node: ast.expr) -> ast.Expr | None:
        """The expression statement that `node` is the whole of (`print(x)` on its own)."""
        statements = self._expression_statements
        return statements[-1] if statements and statements[-1].value is node else None

    def alias_of(self, module: str) -> str | None:
        """The name this file imports `module` as (`torch`, `th`), unless a local hides it."""
        for alias, target in self.imports.items():
            if target == module and alias not in self.names:
                return alias
        return None

    @property
    def in_outer_function(self) -> bool:
        """True while visiting the function itself rather than a function nested in it."""
        return self._depth == 1

    def kind(self, node: ast.expr) -> Kind:
        known = self._kinds.get(node)
        if known is None:
            known = self._kinds[node] = self._kind(node)
        return known

    def _kind(self, node: ast.expr) -> Kind:
        # By exact type, not an `isinstance` chain (nearly a million nodes a run): parsed
        # trees hold no subclasses of these node types.
        kind = type(node)
        if kind is ast.Name:
            name: str = node.id  # type: ignore[attr-defined]
            known = self.names.get(name)
            if known is not None:
                return known
            # A class, function or module of the project or an import: not a tensor.
            defined = name in self.definitions or name in self.imports
            return Kind.PYTHON if defined else Kind.UNKNOWN
        if kind in _CONTAINER_TYPES:
            assert isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict)
            # A container of tensors only when every element is one: which element an index
            # picks from `{"rows": n, "cols": 4}` is not followed.
            values = node.values if isinstance(node, ast.Dict) else node.elts
            tensors = [self.kind(v).is_tensor or self.kind(v) is Kind.TENSORS for v in values]
            if not any(tensors):
                return Kind.PYTHON
            return Kind.TENSORS if all(tensors) else Kind.UNKNOWN
        if kind is ast.DictComp and self.kind(node.value).is_tensor:  # type: ignore[attr-defined]
            # `{f"k{i}": torch.tensor(...) for i in ...}`: a dict of tensors, as a literal's.
            return Kind.TENSORS
        if kind is ast.ListComp and self.kind(node.elt).is_tensor:  # type: ignore[attr-defined]
            # `[(size / 2**i).ceil() for i in ...]`: a list of tensors, as a literal's.
            return Kind.TENSORS
        if kind in _PYTHON_NODE_TYPES:
            return Kind.PYTHON
        if kind is ast.Attribute:
            return self._attribute_kind(node)  # type: ignore[arg-type]
        if kind is ast.Call:
            return self._call_kind(node)  # type: ignore[arg-type]
        if kind is ast.Subscript:  # `mask[:, None]` is still a mask
            assert isinstance(node, ast.Subscript)
            entry = self._entry(node)
            if entry is not None:  # `out["loss"]` of `out = {"loss": x.sum(), "n": 3}`
                return entry[0]
            held = self.kind(node.value)
            if held is Kind.TENSORS:  # an element of a container, or a part of it
                return Kind.TENSORS if isinstance(node.slice, ast.Slice) else Kind.TENSOR
            return held
        if kind is ast.BinOp:
            assert isinstance(node, ast.BinOp)
            left, right = self.kind(node.left), self.kind(node.right)
            if isinstance(node.op, _MASK_OPERATORS) and Kind.MASK in (left, right):
                return Kind.MASK
            joined = join(left, right)
            if not joined.is_tensor and _slice_arithmetic(node):
                # `splits[1:] - splits[:-1]`: slices that subtract (or multiply, divide) are
                # arrays, not lists, tuples or strings, which have no such operator (also where
                # what they slice is taken for a Python value: an entry of a dict made empty)
                return Kind.TENSOR
            return joined
        if kind is ast.UnaryOp:
            assert isinstance(node, ast.UnaryOp)
            return Kind.PYTHON if isinstance(node.op, ast.Not) else self.kind(node.operand)
        if kind is ast.Compare:
            return self._comparison_kind(node)  # type: ignore[arg-type]
        if kind is ast.BoolOp:
            assert isinstance(node, ast.BoolOp)
            return join(*(self.kind(value) for value in node.values))
        if kind is ast.IfExp:
            assert isinstance(node, ast.IfExp)
            return join(self.kind(node.body), self.kind(node.orelse))
        if kind is ast.NamedExpr:
            assert isinstance(node, ast.NamedExpr)
            return self.kind(node.value)
        return Kind.UNKNOWN

    def rests_on_guess(self, node: ast.expr) -> bool:
        """Whether `node` is a tensor only because a root parameter was taken for one.

        `int(patch_height * self.patch_size)` is a break only if `patch_height` really is a
        tensor; `int(x.sum())` is one whatever `x` is, since `.sum()` is a tensor method.
        """
        if isinstance(node, ast.Name):
            return node.id in self.guessed_parameters or node.id in self.uncertain
        if isinstance(node, ast.BinOp):
            return self._all_guessed([node.left, node.right])
        if isinstance(node, ast.UnaryOp):
            return self.rests_on_guess(node.operand)
        if isinstance(node, ast.Subscript):  # `sizes[0]`: a list as much as a tensor
            entry = self._entry(node)
            return entry[1] if entry is not None else self.rests_on_guess(node.value)
        if isinstance(node, ast.Compare):
            return self._all_guessed([node.left, *node.comparators])
        return False

    def tensor_on_one_way(self, node: ast.expr) -> bool:
        """Whether `node` is a local that an `if` before it makes a tensor on one way only
        (`if max_length is None: max_length = lengths.max()`): a tensor where that way runs."""
        return (
            isinstance(node, ast.Name)
            and node.id in self.uncertain
            and node.id in self.made_one_way
            and node.id not in self.guessed_parameters
        )

    def _all_guessed(self, operands: list[ast.expr]) -> bool:
        tensors = [o for o in operands if self.kind(o).is_tensor]
        return bool(tensors) and all(self.rests_on_guess(o) for o in tensors)

    def reads_tensor_value(self, test: ast.expr) -> bool:
        """Whether Python needs a tensor's data to decide the truth of `test`."""
        if isinstance(test, ast.BoolOp):
            return any(self.reads_tensor_value(value) for value in self.traced_operands(test))
        if (operand := negated(test)) is not None:
            return self.reads_tensor_value(operand)
        if isinstance(test, ast.NamedExpr):
            return self.reads_tensor_value(test.value)
        if isinstance(test, ast.Name) and test.id in self.guessed_parameters:
            # `if flag:` on a bare parameter: the truth of a multi-element tensor raises in
            # eager mode, so real code tests Python flags this way, not tensors.
            return False
        return self.kind(test).is_tensor

    def traced_operands(self, node: ast.BoolOp) -> list[ast.expr]:
        """The operands of `and`/`or` Python evaluates under Dynamo: `not is_compiling() and
        t.any()` stops at its first operand, which is false while compiling."""
        stops = self.false_when_compiling if isinstance(node.op, ast.And) else self.compiling
        operands = []
        for value in node.values:
            operands.append(value)
            if stops(value):
                break
        return operands

    def compiling(self, test: ast.expr) -> bool:
        """Whether `test` is true while Dynamo traces: a compiling check, `not
        torch.jit.is_tracing()`, or `or` with one."""
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
            return any(self.compiling(value) for value in test.values)
        operand = negated(test)
        if operand is not None:
            return self._check(operand) is False
        return self._check(test) is True

    def false_when_compiling(self, test: ast.expr) -> bool:
        """Whether `test` is false while Dynamo traces: `not check()`,
        `torch.jit.is_tracing()`, or `and` with one."""
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            return any(self.false_when_compiling(value) for value in test.values)
        operand = negated(test)
        if operand is not None:
            return self._check(operand) is True
        return self._check(test) is False

    def _check(self, test: ast.expr) -> bool | None:
        """What a call of a check answers while Dynamo traces: True for torch's (and the
        project's) compiling checks, False for TorchScript's, what `token is None` says of
        a parameter every caller passes `None`, and the truth of a parameter every caller
        passes one constant to (`strict=False`); None for any other test."""
        if isinstance(test, ast.Compare):
            return self._none_test(test)
        if isinstance(test, ast.Name):
            known = self._constant_parameters.get(test.id)
            if known is None and test.id not in self.names:
                # `if _debug:` of a module-level constant: Dynamo reads the global's value
                known = self.module_flags.get(test.id)
            return known
        if not isinstance(test, ast.Call):
            return None
        written = dotted(test.func)
        if written in self.guard_calls:
            return True
        if written in self.false_calls:
            return False
        name = self.resolve(test.func)
        if name is None:
            return None
        if name in FALSE_WHILE_COMPILING:
            return False
        return True if name.rpartition(".")[2] in COMPILING_CHECKS else None

    def _none_test(self, test: ast.Compare) -> bool | None:
        if not (
            len(test.ops) == 1
            and isinstance(test.ops[0], ast.Is | ast.IsNot)
            and isinstance(test.left, ast.Name)
            and test.left.id in self._none_parameters
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        ):
            return None
        return isinstance(test.ops[0], ast.Is)

    def _attribute_kind(self, node: ast.Attribute) -> Kind:
        attribute = node.attr
        if attribute in PYTHON_ATTRIBUTES:
            return Kind.PYTHON
        value = node.value
        if (
            self.attribute_kinds
            and isinstance(value, ast.Name)
            and value.id == "self"
            and attribute in self.attribute_kinds
        ):
            return HANDED_KINDS[self.attribute_kinds[attribute]]
        base = self.kind(node.value)
        if base is Kind.PYTHON:
            return Kind.PYTHON
        if attribute in TENSOR_ATTRIBUTES and base.is_tensor:
            return Kind.TENSOR
        name = dotted(node)
        if name is not None and ".config." in f".{name}.":
            return Kind.PYTHON
        return Kind.UNKNOWN

    def _call_kind(self, node: ast.Call) -> Kind:
        func = node.func
        written = dotted(func)
        if self.tensor_calls and written in self.tensor_calls:
            return Kind.TENSOR
        handed = self.call_kinds.get(written) if self.call_kinds and written else None
        if handed is None and written in self.project_calls:
            return Kind.UNKNOWN  # project code: not torch's method of the same name
        if handed is not None:
            if handed.startswith("tuple:"):
                parts = set(handed.removeprefix("tuple:").split(","))
                if parts <= {"tensor", "mask", "sparse", "tensors"}:
                    return Kind.TENSORS
                return Kind.PYTHON if parts == {"python"} else Kind.UNKNOWN
            return RETURNED_KINDS[handed]
        if isinstance(func, ast.Name) and func.id not in self.names:
            if func.id in PYTHON_BUILTINS:
                return Kind.PYTHON
            if func.id in ("min", "max", "abs", "sum"):
                operands = [self.kind(arg) for arg in node.args]
                if func.id != "abs" and operands == [Kind.TENSORS]:
                    return Kind.TENSOR  # `sum(losses)`: one of the tensors, or their sum
                return join(*operands)
            if func.id in ("all", "any") and len(node.args) == 1:
                # `all(mask)` takes the truth of each element of a tensor, as a branch would.
                return Kind.MASK if self.kind(node.args[0]).is_tensor else Kind.UNKNOWN
        name = self.resolve(func)
        if name is not None and name.startswith("torch."):
            if name in SPARSE_TORCH_FUNCTIONS:
                return Kind.SPARSE
            if any(part.startswith("_") for part in name.split(".")):
                # Private helpers mostly answer Python questions
                # (`torch.nn.init._calculate_fan_in_and_fan_out` gives two ints).
                return Kind.UNKNOWN
            if name.startswith(TENSOR_TORCH_PREFIXES):
                return Kind.TENSOR
            if name.startswith(PYTHON_TORCH_PREFIXES) or name.rpartition(".")[2][:1].isupper():
                return Kind.PYTHON
            last = name.rpartition(".")[2]
            values = [*node.args, *(k.value for k in node.keywords if k.arg != "rounding_mode")]
            kinds = {self.kind(v) for v in values}
            # `torch.div(x.size(1), window, ...)`: Python sizes in and no tensor, computed at
            # trace time.
            sizes_only = not any(k.is_tensor for k in kinds) and (Kind.PYTHON in kinds or not kinds)
            if last not in TENSOR_FACTORIES and sizes_only:
                return Kind.UNKNOWN
            return Kind.MASK if last in MASK_METHODS else Kind.TENSOR
        if written is not None and self._is_module(written.partition(".")[0]):
            return Kind.UNKNOWN  # `math.floor(n)`, `np.sum(a)`: a module function, not a method
        if isinstance(func, ast.Attribute):
            method = func.attr
            if method in PYTHON_METHODS:
                return Kind.PYTHON
            receiver = self.kind(func.value)
            if receiver is Kind.PYTHON:
                return Kind.PYTHON
            if receiver is Kind.MASK and self._keeps_dtype(node):
                return Kind.MASK
            if method in SPARSE_METHODS:  # only tensors have it
                return Kind.SPARSE
            if method in TENSOR_METHODS or (receiver.is_tensor and method in TENSOR_METHOD_NAMES):
                return Kind.MASK if method in MASK_METHODS else Kind.TENSOR
        return Kind.UNKNOWN

    def _keeps_dtype(self, call: ast.Call) -> bool:
        """Whether a method call on a tensor keeps its dtype: a view, a copy, a move to a
        device (`.to(x.device)`, but not `.to(torch.float)`, `.to(x.dtype)` or `.to(y)`)."""
        assert isinstance(call.func, ast.Attribute)
        method = call.func.attr
        if method != "to":
            return method in DTYPE_KEEPING_METHODS
        for argument in [*call.args, *(k.value for k in call.keywords)]:
            name = self.resolve(argument) or ""
            if "dtype" in name or self.kind(argument).is_tensor:
                return False
            if name.startswith("torch.") and name != "torch.device":
                return False
        return all(k.arg != "dtype" for k in call.keywords)

    def _comparison_kind(self, node: ast.Compare) -> Kind:
        if any(isinstance(op, _VALUE_TESTS) for op in node.ops):
            return Kind.PYTHON
        compared = [node.left, *node.comparators]
        if len(compared) == 2 and any(
            type(o) is ast.Constant and o.value is None for o in compared
        ):
            # `x == None` of a tensor is Python's False, no op (measured on 2.13: one graph).
            return Kind.PYTHON
        if self._all_guessed(compared) and any(self._reads_a_size(o) for o in compared):
            # `x.shape[0] > n`, `len(xs) < max_length`: what a size is compared with is a
            # count, not the tensor a compiled function's untouched parameter is taken for.
            return Kind.PYTHON
        operands = [self.kind(operand) for operand in compared]
        if any(k.is_tensor for k in operands) and all(
            isinstance(op, _MASK_COMPARISONS) for op in node.ops
        ):
            return Kind.MASK
        return join(*operands)

    def _reads_a_size(self, node: ast.expr) -> bool:
        """`x.shape[0]`, `x.size(1)`, `x.numel()`, `x.ndim`, `len(xs)`, or arithmetic of one
        with numbers (`x.shape[1] - 1`)."""
        if isinstance(node, ast.BinOp):
            sides = (node.left, node.right)
            return any(self._reads_a_size(side) for side in sides) and all(
                self._reads_a_size(side) or isinstance(side, ast.Constant) for side in sides
            )
        if isinstance(node, ast.Subscript):
            return isinstance(node.value, ast.Attribute) and node.value.attr == "shape"
        if isinstance(node, ast.Attribute):
            return node.attr == "ndim"
        if not isinstance(node, ast.Call):
            return False
        if isinstance(node.func, ast.Name):
            return node.func.id == "len" and node.func.id not in self.names
        call = method_call(node)
        return call is not None and call[1] in _SIZE_METHODS

    def _is_module(self, head: str) -> bool:
        return head in self.imports and head not in self.names

    # Keeping the facts up to date.
    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._depth += 1
        if self._depth > 1:  # a nested function: its own names, its own frame
            self._saved.append((self.names, self.loops))
            self._saved_sequences.append(set(self._tensor_sequences))
            self.names, self.loops = dict(self.names), []
        self._resolved = (None, None)
        self._unconditional[self._depth] = set(map(id, _unconditional_statements(node.body)))
        arguments = node.args
        positional = [*arguments.posonlyargs, *arguments.args]
        defaults = [None] * (len(positional) - len(arguments.defaults)) + arguments.defaults
        parameters = [
            *zip(positional, defaults, strict=True),
            *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
        ]
        handed = self.parameter_kinds if self._depth == 1 else {}
        for index, (parameter, default) in enumerate(parameters):
            reading = read_annotation(parameter.annotation, self.type_aliases)
            kind = self._parameter_kind(parameter, default, reading, first=index == 0)
            unmarked = parameter.annotation is None and default is None
            if kind is Kind.UNKNOWN and unmarked and parameter.arg in self.used_as_tensors:
                kind = Kind.TENSOR
            guessed = default is None and (reading is None or reading is Reading.MAYBE)
            passed = handed.get(parameter.arg)
            if passed is not None:  # what every caller passes decides
                handed_kind = HANDED_KINDS[passed]
                # A mask every caller passes is one, whatever the annotation says.
                keep = kind.is_tensor and handed_kind is Kind.TENSOR
                kind = kind if keep else handed_kind
                # A caller's guess (an unannotated input of a compile root) leaves a parameter
                # annotated as a tensor one for certain: the annotation says what it holds.
                annotated = reading in (Reading.TENSOR, Reading.MASK)
                guessed = passed == "maybe" and not (keep and annotated)
            # Used as only a sparse tensor allows (`sparse._indices()`), on some path at least:
            # a guess, as one only some callers pass ("maybe-sparse").
            used_as_sparse = parameter.arg in self.used_as_sparse and kind is not Kind.PYTHON
            if used_as_sparse:
                kind = Kind.SPARSE
            self.bind_name(parameter.arg, kind)
            if kind is Kind.TENSORS and iterates_tensors(parameter.annotation, self.type_aliases):
                self._tensor_sequences.add(parameter.arg)
            if passed == "none" and (
                default is None or (isinstance(default, ast.Constant) and default.value is None)
            ):
                # No default, and every caller passes `None` (what a call returns while
                # compiling): `if token is None` is true while Dynamo traces.
                self._none_parameters.add(parameter.arg)
            if passed in ("true", "false"):
                self._constant_parameters[parameter.arg] = passed == "true"
            # A compile root's input used as only tensors allow (`lengths.unsqueeze(1)`) is
            # one, not a guess.
            if (guessed and kind is Kind.TENSOR and parameter.arg not in self.used_as_tensors) or (
                kind is Kind.SPARSE and (used_as_sparse or passed == "maybe-sparse")
            ):
                self.guessed_parameters.add(parameter.arg)
        for star in (arguments.vararg, arguments.kwarg):
            if star is not None:
                # What every call packs into it (`gated(x, gate=w)`): tensors, or Python values.
                packed = HANDED_KINDS.get(handed.get(star.arg, ""), Kind.PYTHON)
                self.bind_name(star.arg, packed)
                if packed is Kind.TENSORS and star is arguments.vararg:
                    self._tensor_sequences.add(star.arg)
        vararg = arguments.vararg
        if vararg is not None and read_annotation(vararg.annotation, self.type_aliases) in (
            Reading.TENSOR,
            Reading.MASK,
        ):
            # `*inputs: Tensor`: a tuple of tensors, each element one.
            self.bind_name(vararg.arg, Kind.TENSORS)
            self._tensor_sequences.add(vararg.arg)

    visit_AsyncFunctionDef = visit_FunctionDef

    def leave_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._after_compiled_return.pop(self._depth, None)
        self._unconditional.pop(self._depth, None)
        if self._depth > 1:
            self.names, self.loops = self._saved.pop()
            self._tensor_sequences = self._saved_sequences.pop()
            self._resolved = (None, None)
        self._depth -= 1

    leave_AsyncFunctionDef = leave_FunctionDef

    def _parameter_kind(
        self, parameter: ast.arg, default: ast.expr | None, reading: Reading | None, first: bool
    ) -> Kind:
        """The kind of a parameter, `reading` being what its annotation admits."""
        if first and parameter.arg in ("self", "cls") and self._depth == 1:
            return Kind.UNKNOWN
        if isinstance(default, ast.Constant) and default.value is not None:
            return Kind.PYTHON  # `output_attentions: Tensor | None = False` holds a flag
        if reading is Reading.MAYBE:
            # `int | Tensor`: a tensor only where a caller passes one; for a compile root's
            # input, a guess.
            return Kind.TENSOR if self.root and self._depth == 1 else Kind.UNKNOWN
        if reading is not None:
            return READ_KINDS[reading]
        if default is not None:
            # `mask=None` may hold a tensor; `flag=True` or `eps=1e-6` holds a Python value.
            is_none = isinstance(default, ast.Constant) and default.value is None
            return Kind.UNKNOWN if is_none else self.kind(default)
        return Kind.TENSOR if self.root and self._depth == 1 else Kind.UNKNOWN

    def leave_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._bind(target, node.value)
            self._fill_entries(target, node.value)
            if isinstance(target, ast.Name) and _is_empty_list(node.value):
                self._empty_lists.add(target.id)

    def _entry(self, node: ast.Subscript) -> tuple[Kind, bool] | None:
        """The kind of `d["key"]` where `d` is a dict whose entries are known, and whether it
        rests on a guess."""
        held, key = node.value, node.slice
        if not (isinstance(held, ast.Name) and isinstance(key, ast.Constant)):
            return None
        entries = self._entries.get(held.id)
        if entries is None or not isinstance(key.value, str):
            return None
        return entries.get(key.value)

    def _fill_entries(self, target: ast.expr, value: ast.expr) -> None:
        """Keep the kinds of a dict display's string keys, and of what the straight-line
        path stores under a string key after it; forget them where a branch or a loop may
        store, or where the key is not a string written out."""
        straight = (
            self._depth == 1 and not self._branches and not self.loops and not self._comprehensions
        )
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict):
            keys = [
                key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
                for key in value.keys
            ]
            if straight and None not in keys:
                self._entries[target.id] = {
                    str(key): (self.kind(item), self.rests_on_guess(item))
                    for key, item in zip(keys, value.values, strict=True)
                }
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            name, key = target.value.id, target.slice
            entries = self._entries.get(name)
            if entries is None:
                return
            if straight and isinstance(key, ast.Constant) and isinstance(key.value, str):
                entries[key.value] = (self.kind(value), self.rests_on_guess(value))
            else:
                del self._entries[name]
            self._kinds.clear()

    def leave_AnnAssign(self, node: ast.AnnAssign) -> None:
        declared = annotation_kind(node.annotation, self.type_aliases)
        if isinstance(node.target, ast.Name):
            value = node.value
            kind = self.kind(value) if value is not None else declared or Kind.UNKNOWN
            self._set_name(node.target.id, kind)

    def leave_AugAssign(self, node: ast.AugAssign) -> None:
        target = node.target
        if isinstance(target, ast.Name):
            guess = self._all_guessed([target, node.value])  # as for `n = n // 2`
            self._set_name(target.id, join(self.kind(target), self.kind(node.value)))
            if guess and self.names[target.id].is_tensor:  # `n //= 2`: as sure as `n` was
                self.uncertain.add(target.id)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self._bind_iteration(node.target, node.iter)
        self.loops.append(node)

    visit_AsyncFor = visit_For

    def leave_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.loops.pop()

    leave_AsyncFor = leave_For

    @property
    def conditional(self) -> bool:
        """Whether the current node runs only when a trace-time condition holds."""
        return any(self._static_ifs) or self._depth in self._after_compiled_return

    def visit_If(self, node: ast.If) -> None:
        self._branches.append(dict(self.names))
        self._before_if.append(self._branches[-1])

    def leave_If(self, node: ast.If) -> None:
        after_body = self._branches.pop()
        before = self._before_if.pop()
        returns = node.body and isinstance(node.body[-1], ast.Return | ast.Raise)
        if returns and id(node) in self._unconditional.get(self._depth, ()):
            # Not under another `if` or in a loop: whether that one runs is not decided.
            self._note_compiled_return(node.test)
        if _ends_flow(node.body):
            return  # the `else` (or what follows) is the only way on
        if _ends_flow(node.orelse):
            self.names = after_body
            return
        # Both ways go on: a name that is a tensor on one of them only is uncertain.
        after_else = self.names
        for name in after_body.keys() | after_else.keys():
            one, other = after_body.get(name), after_else.get(name)
            if one == other:
                continue
            if one is None or other is None:
                self.bind_name(name, one or other or Kind.UNKNOWN)  # bound on one way only
                continue
            kinds = {one, other}
            merged = Kind.MASK if kinds <= {Kind.MASK, Kind.UNKNOWN} else join(*kinds)
            if merged.is_tensor and Kind.PYTHON in kinds:
                self.uncertain.add(name)
                previous = before.get(name)
                if previous is None or not previous.is_tensor:
                    self.made_one_way.add(name)
            self.bind_name(name, merged)

    def _note_compiled_return(self, test: ast.expr) -> None:
        """What an `if` that leaves the function says of what follows it: after
        `if is_compiling(): return`, Dynamo never gets there; after `if size is not None and
        is_compiling(): return`, only when the other condition is false."""
        if self.compiling(test):
            self._after_compiled_return[self._depth] = True
        elif (
            isinstance(test, ast.BoolOp)
            and isinstance(test.op, ast.And)
            and any(self.compiling(value) for value in test.values)
            and not self.reads_tensor_value(test)
        ):
            self._after_compiled_return.setdefault(self._depth, False)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        self._untraced_operands.append(node.values[len(self.traced_operands(node)) :])

    def leave_BoolOp(self, node: ast.BoolOp) -> None:
        self._untraced_operands.pop()

    def skipped(self, node: ast.AST) -> bool:
        """Whether Dynamo never runs `node`: under an `if` a compiling check rules out
        (`eager_only`), or in an operand of `and`/`or` one before it does
        (`torch.compiler.is_compiling() or t.item() > 0`)."""
        return self.eager_only or any(
            _inside(node, operand) for operands in self._untraced_operands for operand in operands
        )

    @property
    def eager_only(self) -> bool:
        """Whether the current node is skipped while Dynamo traces (an is_compiling guard)."""
        return any(self._eager_branches) or self._after_compiled_return.get(self._depth, False)

    def visit_If_body(self, node: ast.If) -> None:
        # The test runs whatever it says; only the branches depend on it. A test true while
        # Dynamo traces (`if token is None:` of a parameter every caller passes None) decides
        # nothing: its body runs whenever the `if` does.
        self._static_ifs.append(
            not self.reads_tensor_value(node.test) and not self.compiling(node.test)
        )
        self._eager_branches.append(self.false_when_compiling(node.test))
        self._narrow(node.test, taken=True)

    def _narrow(self, test: ast.expr, taken: bool) -> None:
        """What an `isinstance` test says of a name on one way through the `if`:
        `if not isinstance(size, (list, tuple)): size = size.tolist()` leaves a list either
        way; past `if isinstance(x, torch.Tensor)` x is none."""
        operand = negated(test)
        if operand is not None:
            test, taken = operand, not taken
        if not (
            isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id == "isinstance"
            and len(test.args) == 2
            and isinstance(test.args[0], ast.Name)
            and test.args[0].id in self.names
        ):
            return
        name, types = test.args[0].id, test.args[1]
        written = [
            dotted(t) or "" for t in (types.elts if isinstance(types, ast.Tuple) else [types])
        ]
        tensors = [w.rpartition(".")[2].endswith(("Tensor", "Parameter")) for w in written]
        if all(tensors):
            if not taken:  # the branch taken when it is a tensor may never run: no guess
                self.bind_name(name, Kind.UNKNOWN)
        elif taken and all(w in _PYTHON_TYPES for w in written):
            self.bind_name(name, Kind.PYTHON)

    def leave_If_body(self, node: ast.If) -> None:
        self._eager_branches.pop()

    def visit_IfExp_body(self, node: ast.IfExp) -> None:
        self._eager_branches.append(self.false_when_compiling(node.test))

    def visit_IfExp_orelse(self, node: ast.IfExp) -> None:
        self._eager_branches.append(self.compiling(node.test))

    leave_IfExp_body = leave_IfExp_orelse = leave_If_body

    def visit_If_orelse(self, node: ast.If) -> None:
        self._eager_branches.append(self.compiling(node.test))
        before = self._branches[-1]
        self._branches[-1] = self.names
        self.names = dict(before)  # the `else` starts from what held before the `if`
        self._narrow(node.test, taken=False)

    def leave_If_orelse(self, node: ast.If) -> None:
        self._eager_branches.pop()
        self._static_ifs.pop()

    def visit_Expr(self, node: ast.Expr) -> None:
        self._expression_statements.append(node)
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
            receiver = call.func.value  # `out.update(...)` may store anything under any key
            if isinstance(receiver, ast.Name) and receiver.id in self._entries:
                del self._entries[receiver.id]
                self._kinds.clear()
        self._note_append(node.value)

    def _note_append(self, value: ast.expr) -> None:
        """`losses.append(loss)` on a name bound to `[]` (or already a list of tensors): a
        list of tensors while every element appended is one, of no known kind otherwise."""
        call = value if isinstance(value, ast.Call) else None
        if call is None or len(call.args) != 1 or call.keywords:
            return
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "append"
            and isinstance(func.value, ast.Name)
        ):
            return
        name = func.value.id
        held = self.names.get(name)
        if name not in self._empty_lists and held is not Kind.TENSORS:
            return
        if self.kind(call.args[0]).is_tensor:
            self.bind_name(name, Kind.TENSORS)
            self._tensor_sequences.add(name)
        else:
            self.bind_name(name, Kind.UNKNOWN)

    def leave_Expr(self, node: ast.Expr) -> None:
        self._expression_statements.pop()

    def visit_ListComp(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp
    ) -> None:
        self._comprehensions.append(dict(self.names))  # its names are its own
        # The walk reads the element before the `for` clauses (the order of ast's fields), but
        # Python runs it after them: `all(x < y for x, y in zip(ts[:-1], ts[1:]))` compares
        # rows of a tensor. So the targets are bound first; each clause binds them again.
        for generator in node.generators:
            self.visit_comprehension(generator)

    def leave_ListComp(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp
    ) -> None:
        self.names = self._comprehensions.pop()

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp
    leave_SetComp = leave_DictComp = leave_GeneratorExp = leave_ListComp

    def visit_comprehension(self, node: ast.comprehension) -> None:
        # `[layer for layer, drop in zip(layers, to_drop) if not drop]`: elements of a tensor;
        # over a parameter only guessed to be one, as likely a list of numbers.
        if self.rests_on_guess(node.iter):
            self._bind_kind(node.target, Kind.UNKNOWN)
        else:
            self._bind_iteration(node.target, node.iter)

    def visit_While(self, node: ast.While) -> None:
        self.loops.append(node)

    def leave_While(self, node: ast.While) -> None:
        self.loops.pop()

    def visit_withitem(self, node: ast.withitem) -> None:
        if node.optional_vars is not None:
            self._bind_kind(node.optional_vars, Kind.UNKNOWN)

    def _bind(self, target: ast.expr, value: ast.expr) -> None:
        sequences = (ast.Tuple, ast.List)
        if (
            isinstance(target, sequences)
            and isinstance(value, sequences)
            and len(target.elts) == len(value.elts)
        ):
            for element, item in zip(target.elts, value.elts, strict=True):
                self._bind(element, item)
            return
        handed = self._handed_tuple(value) if isinstance(target, sequences) else None
        if handed is not None and isinstance(target, sequences) and len(handed) == len(target.elts):
            for element, kind in zip(target.elts, handed, strict=True):  # `a, b = f(x)`
                self._bind_kind(element, kind)
                if kind is Kind.TENSOR and self.rests_on_guess(value):
                    self._keep_guess(element)
            return
        if isinstance(target, sequences):
            # `a, b = x.chunk(2)` unpacks tensors; `b, n = x.shape` unpacks Python ints.
            kind = self.kind(value)
            self._bind_kind(target, Kind.TENSOR if kind is Kind.MASK else kind)
            if self.rests_on_guess(value):  # `height, width = sizes`: a tuple as likely
                self._keep_guess(target)
        else:
            kind = self.kind(value)
            guess = self._rebound_from_a_guess(target, value)
            self._bind_kind(target, kind)
            if guess and kind.is_tensor and isinstance(target, ast.Name):
                self.uncertain.add(target.id)

    def _rebound_from_a_guess(self, target: ast.expr, value: ast.expr) -> bool:
        """`n = n // 2` of a name that is a tensor only by a guess: it stays one (a new name
        computed from a guess, `m = n * 2`, is taken for a tensor made here)."""
        return (
            isinstance(target, ast.Name)
            and isinstance(value, ast.BinOp)
            and any(
                isinstance(operand, ast.Name) and operand.id == target.id
                for operand in (value.left, value.right)
            )
            and self.rests_on_guess(value)
        )

    def _handed_tuple(self, value: ast.expr) -> list[Kind] | None:
        """The kinds of the values a project function returns as a tuple (`return a, b`)."""
        if not isinstance(value, ast.Call):
            return None
        handed = self.call_kinds.get(dotted(value.func) or "")
        if handed is None or not handed.startswith("tuple:"):
            return None
        return [RETURNED_KINDS[part] for part in handed.removeprefix("tuple:").split(",")]

    def tensor_method(self, call: ast.Call) -> tuple[ast.expr, str] | None:
        """(receiver, method) for `receiver.method(...)` that may be a tensor's method: not a
        call that reaches project code."""
        methods = self._tensor_methods
        if call not in methods:
            found = method_call(call)
            methods[call] = None if found is None or self.reaches_project(call) else found
        return methods[call]

    def reaches_project(self, call: ast.Call) -> bool:
        """Whether a call reaches project code (`Modulation.split(t, 2)`, `self.split(t)` of
        a project class) rather than the torch method of the same name."""
        written = dotted(call.func)
        if written is None:
            return False
        if written in self.project_calls:
            return True
        head = written.partition(".")[0]
        return "." in written and head in self.definitions and head not in self.names

    def _set_name(self, name: str, kind: Kind) -> None:
        self.bind_name(name, kind)
        self.uncertain.discard(name)
        self.made_one_way.discard(name)
        self._resolved = (None, None)
        self.guessed_parameters.discard(name)

    def _bind_kind(self, target: ast.expr, kind: Kind) -> None:
        if isinstance(target, ast.Name):
            self._set_name(target.id, kind)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._bind_kind(element, kind)
        elif isinstance(target, ast.Starred):
            self._bind_kind(target.value, Kind.PYTHON)

    def _keep_guess(self, target: ast.expr) -> None:
        """Names bound from a guessed tensor are guesses too."""
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                self.guessed_parameters.add(node.id)

    def _bind_iteration(self, target: ast.expr, iterable: ast.expr) -> None:
        builtin = (
            dotted(iterable.func)
            if isinstance(iterable, ast.Call)
            and all(keyword.arg == "strict" for keyword in iterable.keywords)
            else None
        )
        if builtin in self.names:
            builtin = None  # a local shadows the builtin
        if builtin == "range":
            self._bind_kind(target, Kind.PYTHON)
        elif builtin in ("zip", "enumerate") and isinstance(target, ast.Tuple | ast.List):
            assert isinstance(iterable, ast.Call)
            # `for i, row in enumerate(t)`, `for a, b in zip(xs, ys)`: each part its own kind.
            parts = [*iterable.args] if builtin == "zip" else [None, *iterable.args[:1]]
            if len(parts) == len(target.elts) and not any(
                isinstance(p, ast.Starred) for p in parts
            ):
                for element, part in zip(target.elts, parts, strict=True):
                    if part is None:
                        self._bind_kind(element, Kind.PYTHON)
                    else:
                        self._bind_iteration(element, part)
            else:
                self._bind_kind(target, Kind.UNKNOWN)
        elif isinstance(iterable, ast.Name) and iterable.id in self._tensor_sequences:
            # `for t in xs` over `xs: tuple[Tensor, ...]`
            self._bind_kind(target, Kind.TENSOR)
        elif self.kind(iterable).is_tensor:  # iterating a tensor yields its rows
            self._bind_kind(target, Kind.TENSOR)
            if self.rests_on_guess(iterable):  # `for h, w in shapes`: a list as likely
                self._keep_guess(target)
        else:
            self._bind_kind(target, Kind.UNKNOWN)


def _is_empty_list(value: ast.expr) -> bool:
    return isinstance(value, ast.List) and not value.elts


def _ends_flow(body: list[ast.stmt]) -> bool:
    """Whether a block never falls through to what follows it."""
    return bool(body) and isinstance(body[-1], ast.Return | ast.Raise | ast.Continue | ast.Break)


def _unconditional_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a function's body that run whenever it runs to them: its own, and
    those of a `with` block or a `try` body among them."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.With | ast.AsyncWith | ast.Try):
            yield from _unconditional_statements(statement.body)


# The operators lists, tuples and strings do not have between two of them (`+` concatenates,
# `%` formats): two slices joined by one of these are arrays.
_ARRAY_OPERATORS = (ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow, ast.MatMult)


def _slice_arithmetic(node: ast.BinOp) -> bool:
    """`a[1:] - a[:-1]`: an array operator between two slices."""
    return isinstance(node.op, _ARRAY_OPERATORS) and all(
        isinstance(side, ast.Subscript) and isinstance(side.slice, ast.Slice)
        for side in (node.left, node.right)
    )


def _inside(node: ast.AST, operand: ast.expr) -> bool:
    """Whether `node`'s source lies within `operand`'s."""
    start = getattr(node, "lineno", None), getattr(node, "col_offset", None)
    end = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
    if None in start or None in end or operand.end_lineno is None:
        return False
    return (operand.lineno, operand.col_offset) <= start and end <= (
        operand.end_lineno,
        operand.end_col_offset or 0,
    )
