"""What BL203, BL205 and BL523 read of a comprehension: which iterables give it a list or dict
iterator, which Dynamo 2.13 cannot step when its frame is compiled on its own, and the names
its `for` clauses bind."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from breaklint.findings import Applicability, Fix
from breaklint.fixes import offer
from breaklint.kinds import Kind
from breaklint.knowledge.curated import TORCH_MODULES
from breaklint.rule import RuleContext
from breaklint.syntax import dotted, method_call
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


def comprehension_touches(context: RuleContext, node: Comprehension) -> tuple[str, bool] | None:
    """The first name the comprehension's own frame reads from outside that makes Dynamo
    compile it (a tensor, a container of tensors, a module, a torch module: Dynamo's
    `has_tensor_in_frame`), and whether it is a tensor only by a guess."""
    facts = context.facts
    targets = comprehension_targets(node)
    first_iterable = node.generators[0].iter  # evaluated in the enclosing frame
    inside = [
        name
        for part in ast.iter_child_nodes(node)
        for name in ast.walk(part)
        if isinstance(name, ast.Name)
        and name.id not in targets
        and not any(within is name for within in ast.walk(first_iterable))
    ]
    for name in inside:
        if name.id not in facts.names and facts.imports.get(name.id) in TORCH_MODULES:
            return name.id, False
    guessed = None
    for name in inside:
        kind = facts.kind(name)
        if kind.is_tensor or kind is Kind.TENSORS:
            if not facts.rests_on_guess(name):
                return name.id, False
            guessed = guessed or name.id
    module = _module_self(context)
    if module is not None and any(name.id == module for name in inside):
        return module, False
    return None if guessed is None else (guessed, True)


def _module_self(context: RuleContext) -> str | None:
    """The name of the instance in a method of an `nn.Module` class (`self`): a module in the
    comprehension's frame makes Dynamo compile it, as a tensor does."""
    definition = context.definition
    positional = [*definition.args.posonlyargs, *definition.args.args]
    if not context.facts.module_method or not positional:
        return None
    decorators = {dotted(decorator) for decorator in definition.decorator_list}
    if decorators & {"staticmethod", "classmethod"}:
        return None
    return positional[0].arg
