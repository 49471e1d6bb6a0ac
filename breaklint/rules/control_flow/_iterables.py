"""What BL203 and BL205 read of a comprehension: which iterables give it a list or dict
iterator, which Dynamo 2.13 cannot step when its frame is compiled on its own, and the names
its `for` clauses bind."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from breaklint.findings import Applicability, Fix
from breaklint.fixes import offer
from breaklint.rule import RuleContext
from breaklint.syntax import method_call
from breaklint.tensorness import FunctionFacts

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewritten

Comprehension = ast.ListComp | ast.SetComp | ast.DictComp

# Iterables a comprehension takes a list or dict iterator from (measured: a tuple, a list
# display, `range` and a tensor are iterated without trouble).
LIST_BUILTINS = frozenset({"list", "sorted", "dict"})
LIST_METHODS = frozenset({"tolist", "keys", "items", "values"})
SAFE_BUILTINS = frozenset({"range", "tuple"})


def list_or_dict(facts: FunctionFacts, iterable: ast.expr) -> bool | None:
    """True when `iterable` is certainly a list or a dict, False when it may be one, None
    when it is not (a tuple, a display, `range`, a tensor)."""
    if isinstance(iterable, ast.Tuple | ast.List | ast.Set | ast.GeneratorExp):
        return None
    if isinstance(iterable, ast.Dict | ast.ListComp | ast.DictComp):
        return True
    if isinstance(iterable, ast.Call):
        func = iterable.func
        if isinstance(func, ast.Name) and func.id not in facts.names:
            if func.id in SAFE_BUILTINS:
                return None
            if func.id in LIST_BUILTINS:
                return True
        call = method_call(iterable)
        if call is not None and call[1] in LIST_METHODS:
            return True
    if facts.kind(iterable).is_tensor and not facts.rests_on_guess(iterable):
        return None
    return False


def comprehension_targets(node: Comprehension) -> set[str]:
    """The names the comprehension's `for` clauses bind: its own, not the enclosing frame's."""
    return {
        name.id
        for generator in node.generators
        for name in ast.walk(generator.target)
        if isinstance(name, ast.Name)
    }


TUPLE_MESSAGE = "iterate a tuple: `tuple(...)`, whose iterator Dynamo steps"


def tuple_fix(
    context: RuleContext,
    node: Comprehension,
    applicability: Applicability | None,
) -> Fix | None:
    """The `tuple-iterable` fix of a comprehension whose first iterable is certainly a list or
    a dict: the same elements, in the same order, from a tuple made of them in the frame
    around it (a tuple's iterator is one Dynamo 2.13 steps, measured)."""
    iterable = node.generators[0].iter
    facts = context.facts
    if not list_or_dict(facts, iterable) or "tuple" in facts.names or "tuple" in context.imports:
        return None
    return offer(context, iterable, TUPLE_MESSAGE, "tuple-iterable", applicability)


def tuple_iterable(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `tuple-iterable` rewrite: `iterable` becomes `tuple(iterable)`."""
    import libcst as cst

    from breaklint.rewrites import call

    if not isinstance(node, cst.BaseExpression):
        return None
    return call(cst.Name("tuple"), node)
