import ast

from breaklint.findings import Severity
from breaklint.rule import Rule, RuleContext
from breaklint.syntax import own_expressions


class SuperPropertyRead(Rule):
    code = "BL514"
    name = "super-property-read"
    words = frozenset({"super"})
    severity = Severity.WARNING
    message = (
        "`super().{name}` in the getter of the property `{name}` reads the base class's "
        "property: Dynamo gives the `property` object, not its value, so its first use fails "
        "here and Dynamo skips the frame; `{function}` runs eagerly from here on"
    )
    hint = (
        "move the base's getter body into a method of its own and call it from both getters "
        "(`self._base_mean()`), or read what the base's getter reads (`self.loc`)"
    )
    fix_safety = """
No automatic fix: what replaces the base's getter (a method of its own, or what the getter reads)
depends on the base class, which may be another library's.
"""
    what = """
Flags the first use, in the getter of a property, of the base class's property of the same name
read through `super()` (`mean = super().mean` then `mean.view(...)`, or `super().mean * 2`): a
property overriding one of its base's and extending its value. The first use on each path: a
use in an `if` branch that returns leaves the path past the `if` without one, so the next use
there is flagged too (`if not flag: return mean.view(...)` then `return mean.view(...)`).
A warning: the base's attribute
is taken for a property (it is one where the getter reads it without calling it). Not flagged:
a getter that returns `super().mean` as it is (it fails where its caller uses the value), and a
read of the base's property in another method (`super().mean - self.loc` in `centre`), which
fails too but needs the base class's attribute known as a property.
"""
    why = """
Dynamo 2.13 resolves `super().<name>` to the base class's `property` object without running its
getter (measured, for a project base class and for a torch one such as
`torch.distributions.MultivariateNormal.mean`; `super(Cls, self)` and `Base.mean.fget(self)`
alike). The first use of that value fails: arithmetic raises a `TypeError` Dynamo finds no
handler for ("Observed exception"), a method call is one `property` does not have
("Unsupported method call"). It cannot resume there and skips the frame, which runs eagerly.
"""
    example = """
import torch


class Base:
    def __init__(self, loc):
        self.loc = loc

    @property
    def mean(self):
        return self.loc


class Shifted(Base):
    @property
    def mean(self):
        mean = super().mean
        return mean + 1

    def centred(self, x):
        return x - self.mean


def centre(x):
    return Shifted(x.mean()).centred(x) * 2


compiled = torch.compile(centre)
"""
    use_instead = """
import torch


class Base:
    def __init__(self, loc):
        self.loc = loc

    def base_mean(self):
        return self.loc

    @property
    def mean(self):
        return self.base_mean()


class Shifted(Base):
    @property
    def mean(self):
        return self.base_mean() + 1

    def centred(self, x):
        return x - self.mean


def centre(x):
    return Shifted(x.mean()).centred(x) * 2


compiled = torch.compile(centre)
"""
    probe = "(centre, (torch.randn(3),))"
    gb_ids = ("GB0088", "GB0156")
    breaks_graph = False  # the frame is skipped, from the use on

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._property: str | None = None  # the name of the property whose getter this is
        self._held: set[str] = set()  # locals bound to the base's property object
        self._reported = False  # Dynamo gives up at the first use: later ones never run
        # ...on its path: a use in a branch that returns leaves the path past its `if`, where
        # the next use is a first one (`if not flag: return mean.view(...)` then `mean.view`).
        self._ending: list[ast.If | None] = []  # the `if` whose branch being visited ends it
        self._past: int | None = None  # uses after this line are first ones on another path

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self.context.facts.in_outer_function and any(
            isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list
        ):
            self._property = node.name

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_If_body(self, node: ast.If) -> None:
        self._ending.append(node if _ends(node.body) else self._enclosing(node))

    def visit_If_orelse(self, node: ast.If) -> None:
        self._ending.append(node if node.orelse and _ends(node.orelse) else self._enclosing(node))

    def leave_If_body(self, node: ast.If) -> None:
        self._ending.pop()

    leave_If_orelse = leave_If_body

    def _enclosing(self, node: ast.If) -> ast.If | None:
        """The `if` around this one whose branch ends the getter, if any."""
        return self._ending[-1] if self._ending else None

    def _statement(self, node: ast.stmt) -> None:
        """The first use of the base's property object in the statement's own expressions."""
        if self._property is None or self._reported or not self.context.facts.in_outer_function:
            return
        if self._past is not None and node.lineno <= self._past:
            return  # on the path of a use reported already
        if isinstance(node, ast.Assign | ast.Return) and self._read_through_super(node.value):
            if isinstance(node, ast.Return):
                return  # returned as it is: it fails where the caller uses it
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                self._held.add(node.targets[0].id)  # it fails where it is used
                return
        for child in own_expressions(node):
            if self._read_through_super(child) or (
                isinstance(child, ast.Name)
                and isinstance(child.ctx, ast.Load)
                and child.id in self._held
            ):
                function = self.context.function
                self.report(child, self.message.format(name=self._property, function=function))
                ending = self._ending[-1] if self._ending else None
                if ending is None:
                    self._reported = True
                else:  # the path past the `if` did not go through this use
                    self._past = ending.end_lineno or ending.lineno
                return

    visit_Expr = visit_Assign = visit_AugAssign = visit_AnnAssign = _statement
    visit_Return = visit_If = visit_While = visit_For = visit_AsyncFor = _statement
    visit_With = visit_AsyncWith = visit_Assert = visit_Raise = visit_Match = _statement

    def _read_through_super(self, node: ast.AST | None) -> bool:
        """`super().<the property's name>` (or `super(Cls, self).<name>`), read."""
        return (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and node.attr == self._property
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "super"
        )


def _ends(block: list[ast.stmt]) -> bool:
    """Whether a block leaves the function at its end (`return`, `raise`)."""
    return bool(block) and isinstance(block[-1], ast.Return | ast.Raise)
