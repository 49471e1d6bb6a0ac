import ast

from breaklint.findings import Severity
from breaklint.rule import Rule, RuleContext

# Builtins that need the hash as a number (Dynamo has no number for it).
CONVERSIONS = frozenset({"int", "float", "complex", "str", "repr", "format", "round", "abs"})
ORDERINGS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
ARITHMETIC = (ast.USub, ast.UAdd, ast.Invert)


class TensorHash(Rule):
    code = "BL104"
    name = "tensor-hash"
    words = frozenset({"hash"})
    severity = Severity.ERROR
    message = (
        "`hash()` of a tensor is a value Dynamo knows only while compiling: {use} needs the "
        "number itself, so Dynamo gives up on the whole function, which runs eagerly"
    )
    hint = (
        "use the hash only as a dict or set key or in `==` tests; compute with it outside the "
        "compiled code"
    )
    fix_safety = """
No automatic fix: a tensor's hash is its identity (`Tensor.__hash__` is `id`), which no traced
value stands for (measured on 2.13: `id(t)` of a tensor made in the function makes Dynamo skip
it too; `id(x)` of an input compiles as a constant guarded on the object, so every new tensor
compiles again, three calls three compilations), and code that computes with it depends on the
object, not the data; the computation has to move out of the compiled code.
"""
    what = """
Flags `hash(t)` of a tensor whose value is used as a number in compiled code: Python
arithmetic on it (`hash(t) % n`), an ordering comparison (`<`, `>`), a conversion (`int()`,
`float()`, `str()`, an f-string), or leaving the function (returned, or stored on an
attribute). A hash used only as a dict or set key, in `==`, `!=` or `in` tests, or as a truth
value is not flagged: Dynamo traces those.
"""
    why = """
Dynamo does not compute a tensor's hash while tracing; it keeps a placeholder that stands for
the object's identity ("fake id"). That is enough to look the tensor up in a dict or compare
two hashes, but there is no number behind it: arithmetic on it raises inside Dynamo
("Observed exception", GB0088), conversions and orderings break (GB9316), and the placeholder
cannot be rebuilt as a real value once the frame ends or breaks ("Reconstruction of
FakeIdVariable", GB4501). Dynamo then skips the whole function: it runs eagerly.
"""
    example = """
import torch


def tagged(x):
    y = x * 2
    tag = hash(y) % 1000
    return y + tag


compiled = torch.compile(tagged)
"""
    use_instead = """
import torch


def tagged(x):
    return x * 2


compiled = torch.compile(tagged)


def tag_of(y):
    return hash(y) % 1000
"""
    probe = "(tagged, (torch.randn(8),))"
    gb_ids = ("GB0088", "GB9316", "GB4501")
    breaks_graph = False  # the whole frame is skipped, loop or not

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._hashes: dict[str, bool] = {}  # local names bound to a tensor's hash: certain?

    def _hash(self, node: ast.expr) -> bool | None:
        """Whether `node` is a tensor's hash: True when the tensor is certain, False when it
        rests on a guess, None when it is not one."""
        if isinstance(node, ast.Name):
            return self._hashes.get(node.id)
        facts = self.context.facts
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "hash"
            and "hash" not in facts.names
            and len(node.args) == 1
            and facts.kind(node.args[0]).is_tensor
        ):
            return not facts.rests_on_guess(node.args[0])
        return None

    def _use(self, operands: list[ast.expr], where: ast.AST, use: str) -> None:
        for operand in operands:
            certain = self._hash(operand)
            if certain is not None:
                severity = None if certain else Severity.WARNING
                self.report(where, self.message.format(use=use), severity=severity)
                return

    def visit_BinOp(self, node: ast.BinOp) -> None:
        self._use([node.left, node.right], node, "Python arithmetic on it")

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._use([node.target, node.value], node, "Python arithmetic on it")

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ARITHMETIC):
            self._use([node.operand], node, "Python arithmetic on it")

    def visit_Compare(self, node: ast.Compare) -> None:
        if any(isinstance(op, ORDERINGS) for op in node.ops):
            self._use([node.left, *node.comparators], node, "an ordering comparison")

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (
            isinstance(func, ast.Name)
            and func.id in CONVERSIONS
            and func.id not in self.context.facts.names
        ):
            self._use(node.args, node, f"`{func.id}()`")

    def visit_FormattedValue(self, node: ast.FormattedValue) -> None:
        self._use([node.value], node, "an f-string")

    def visit_Return(self, node: ast.Return) -> None:
        if node.value is not None:
            self._use(_parts(node.value), node, "returning it")

    def leave_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Attribute):
                self._use([node.value], node, "storing it on an attribute")
            elif isinstance(target, ast.Name):
                certain = self._hash(node.value)
                if certain is None:
                    self._hashes.pop(target.id, None)
                else:
                    self._hashes[target.id] = certain


def _parts(value: ast.expr) -> list[ast.expr]:
    """A returned value and the elements of the literals it is built of."""
    if isinstance(value, ast.Tuple | ast.List | ast.Set):
        return [part for element in value.elts for part in _parts(element)]
    if isinstance(value, ast.Dict):
        elements = [*(k for k in value.keys if k is not None), *value.values]
        return [part for element in elements for part in _parts(element)]
    return [value]
