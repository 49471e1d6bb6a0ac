from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer
from breaklint.kinds import Kind
from breaklint.rule import FixExample, Rule

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten


def _by_key(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `by-key` fix: `sorted(kwargs.items())` becomes
    `sorted(kwargs.items(), key=lambda item: item[0])`."""
    import libcst as cst

    if not isinstance(node, cst.Call):
        return None
    key = cst.Arg(
        value=cst.parse_expression("lambda item: item[0]"),
        keyword=cst.Name("key"),
        equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
        ),
    )
    return node.with_changes(args=[*node.args, key])


_WEIGHTED = """
import torch


def weighted(x, **terms):
    total = x
    for name, term in sorted(terms.items()):  # a fixed order
        total = total + term
    return total


def run(x):
    return weighted(x, b=x + 1, a=x * 2)


compiled = torch.compile(run)
"""


class SortedItems(Rule):
    code = "BL106"
    name = "sorted-items"
    severity = Severity.WARNING
    message = (
        "`sorted({items})` compares (name, value) pairs: where a value is a tensor or another "
        "object, Dynamo cannot sort them (non-constant keys) and breaks the graph here"
    )
    hint = "sort the pairs by their names alone: `key=lambda item: item[0]`"
    what = """
Flags `sorted(kwargs.items())` without a `key`, where `kwargs` is the function's `**`
parameter: the keyword arguments of the call, which in compiled code are often tensors or
modules; and `sorted(d.items())` without a `key` where `d` is known to be a dict of tensors
(made in the function, or passed by its callers).
"""
    why = """
Without a `key`, `sorted` orders the pairs themselves, so Dynamo has to compare tuples that
hold the values. It sorts only constants (numbers, strings): a tuple holding a tensor or an
object is a non-constant key ("sort with non-constant keys", GB0207), and it breaks the graph
to sort eagerly. A dict's names are unique, so its pairs never compare their values: sorted
by name alone they come out in the same order, and Dynamo sorts the names.
"""
    example = _WEIGHTED
    use_instead = _WEIGHTED.replace(
        "sorted(terms.items())", "sorted(terms.items(), key=lambda item: item[0])"
    )
    probe = "(run, (torch.randn(3),))"
    gb_ids = ("GB0207",)
    words = frozenset({"sorted"})
    fix_examples = (FixExample(before=example, after=use_instead, probe=probe),)
    fix_applicability = Applicability.SAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"by-key": _by_key}
    fix_safety = """
Safe fix: `sorted(kwargs.items())` becomes `sorted(kwargs.items(), key=lambda item: item[0])`.
`kwargs` is a dict (the `**` parameter always is), whose names are unique: two pairs never tie
on their names, so comparing the names alone gives the order comparing the pairs gave, and no
value is ever compared. A `reverse=` argument is kept. The same for `sorted(d.items())` of a
dict of tensors: a mapping's names are unique too.
"""

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        if not (isinstance(node.func, ast.Name) and node.func.id == "sorted"):
            return
        if "sorted" in facts.names or len(node.args) != 1:
            return
        if any(keyword.arg in ("key", None) for keyword in node.keywords):
            return
        (items,) = node.args
        if not (
            isinstance(items, ast.Call)
            and isinstance(items.func, ast.Attribute)
            and items.func.attr == "items"
            and not items.args
            and not items.keywords
            and isinstance(items.func.value, ast.Name)
        ):
            return
        keywords = self.context.definition.args.kwarg
        named = items.func.value.id
        held = facts.kind(items.func.value) is Kind.TENSORS  # a dict of tensors
        if not held and (keywords is None or keywords.arg != named):
            return
        written = f"{named}.items()"
        fix = offer(
            self.context,
            node,
            "sort by the names alone: `key=lambda item: item[0]`",
            "by-key",
            self.fix_applicability,
        )
        self.report(node, self.message.format(items=written), fix=fix)
