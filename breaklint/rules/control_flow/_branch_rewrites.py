"""The libcst rewrites of `data_dependent_branch` (BL201): a branch on a tensor test made a
choice in the graph. Imported only when fixes are made."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.findings import Fix
    from breaklint.rewrites import Rewritten


def where_expression(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-expression` fix: `a if cond else b` becomes `torch.where(cond, a, b)`."""
    import libcst as cst

    from breaklint.rewrites import call, graph_condition, torch_function

    if not isinstance(node, cst.IfExp):
        return None
    where = torch_function(fix.torch, "where")
    test = graph_condition(node.test, fix.torch)
    return call(where, test, node.body, node.orelse).with_changes(lpar=node.lpar, rpar=node.rpar)


def flagged_where_expression(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-expression-flagged` fix: `a if flag and cond else b` becomes
    `torch.where(cond, a, b) if flag else b`. libcst nests `f and g and cond` to the left,
    so the right operand is the tensor test and the left one the flags."""
    import libcst as cst

    if not isinstance(node, cst.IfExp) or not isinstance(node.test, cst.BooleanOperation):
        return None
    test = node.test
    if not isinstance(test.operator, cst.And):
        return None
    chosen = where_expression(node.with_changes(test=test.right, lpar=[], rpar=[]), fix)
    if not isinstance(chosen, cst.BaseExpression):
        return None
    return node.with_changes(test=test.left, body=chosen)


def assert_in_graph(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `assert` fix: an `if` that only raises becomes `torch._assert_async(...)`."""
    import libcst as cst

    from breaklint.rewrites import call, negated_condition, torch_function

    if not isinstance(node, cst.If) or not isinstance(node.body, cst.IndentedBlock):
        return None
    (line,) = node.body.body
    raised = line.body[0]  # type: ignore[attr-defined]
    condition = negated_condition(node.test, fix.torch)
    message = raised.exc.args[0].value if raised.exc.args else None
    arguments = (condition, message) if message is not None else (condition,)
    statement = cst.Expr(call(torch_function(fix.torch, "_assert_async"), *arguments))
    return cst.SimpleStatementLine([statement], leading_lines=node.leading_lines)


def logical_value(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `logical` fix: `a and b` of boolean tensors becomes `torch.logical_and(a, b)`."""
    import libcst as cst

    from breaklint.rewrites import graph_condition

    if not isinstance(node, cst.BooleanOperation):
        return None
    return graph_condition(node, fix.torch)


def where_return(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-return` fix: `if cond: return a` / `else: return b` becomes
    `return torch.where(cond, a, b)`."""
    import libcst as cst

    from breaklint.rewrites import (
        branch_comments,
        without_guards,
    )

    if not isinstance(node, cst.If) or not isinstance(node.orelse, cst.Else):
        return None
    node = without_guards(node, fix.torch)
    assert isinstance(node.orelse, cst.Else)
    blocks: list[Any] = [node.body, node.orelse.body]  # one return statement each, as checked
    returned = [block.body[0].body[0] for block in blocks]
    bound, value = _chosen(node.test, returned[0].value, returned[1].value, fix.torch)
    above = [*node.leading_lines, *branch_comments(node)]
    statements = [*bound, cst.SimpleStatementLine([cst.Return(value)])]
    statements[0] = statements[0].with_changes(leading_lines=above)
    return cst.FlattenSentinel(statements) if bound else statements[0]


def _chosen(
    test: cst.BaseExpression, a: cst.BaseExpression, b: cst.BaseExpression, torch: str
) -> tuple[list[cst.SimpleStatementLine], cst.BaseExpression]:
    """`torch.where(test, a, b)`; for two tuples written out (`a, b` and `c, d`, as the rule
    checked), the tuple of `torch.where`s of their elements, after `condition_holds = test`
    unless the test is a name or attribute: the statements to put first, and the value."""
    import libcst as cst

    from breaklint.rewrites import call, graph_condition, torch_function

    where = torch_function(torch, "where")
    condition = graph_condition(test, torch)
    if not (isinstance(a, cst.Tuple) and isinstance(b, cst.Tuple)):
        return [], call(where, condition, a, b)
    bound: list[cst.SimpleStatementLine] = []
    if not isinstance(test, cst.Name | cst.Attribute):
        assign = cst.Assign([cst.AssignTarget(cst.Name(CONDITION_NAME))], condition)
        bound.append(cst.SimpleStatementLine([assign]))
        condition = cst.Name(CONDITION_NAME)
    elements = [
        cst.Element(call(where, condition.deep_clone(), x.value, y.value))
        for x, y in zip(a.elements, b.elements, strict=True)
    ]
    return bound, cst.Tuple(elements, lpar=a.lpar, rpar=a.rpar)


def where_return_early(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-return-early` fix: a function ending in `if cond: return a` and `return b`
    ends in `return torch.where(cond, a, b)`."""
    import libcst as cst

    from breaklint.rewrites import (
        branch_comments,
        call,
        graph_condition,
        torch_function,
        without_guards,
    )

    if not isinstance(node, cst.FunctionDef) or not isinstance(node.body, cst.IndentedBlock):
        return None
    statements = list(node.body.body)
    # The last `if`: plain assignments (which the rule checked) may stand between it and
    # the last `return`; they move above the `return` the fix writes.
    at = max(i for i, statement in enumerate(statements) if isinstance(statement, cst.If))
    kept, branch, between, last = (
        statements[:at],
        statements[at],
        statements[at + 1 : -1],
        statements[-1],
    )
    if not isinstance(branch, cst.If):
        return None
    branch = without_guards(branch, fix.torch)
    links = [branch]  # an `elif` chain, each branch a `return` (the rule checked)
    while isinstance(links[-1].orelse, cst.If):
        links.append(without_guards(links[-1].orelse, fix.torch))
    if links[-1].orelse is not None:
        return None
    maybe = [_only_return(link.body) for link in links] + [_only_return(last)]
    returns = [value for value in maybe if value is not None]
    if len(returns) != len(maybe):
        return None
    value: Any = returns[-1]
    bound: list[cst.SimpleStatementLine] = []
    if len(links) == 1:  # tuples of values too
        bound, value = _chosen(links[0].test, returns[0], value, fix.torch)
    else:
        for link, returned in zip(reversed(links), reversed(returns[:-1]), strict=True):
            test = graph_condition(link.test, fix.torch)
            value = call(torch_function(fix.torch, "where"), test, returned, value)
    assert isinstance(last, cst.SimpleStatementLine)
    # The lines above the `if`, its comments, and the comments above the last `return` (the
    # empty lines between the two statements go with them).
    comments = [line for line in last.leading_lines if line.comment is not None]
    above = [*branch.leading_lines, *branch_comments(branch)]
    between = [*between, *bound]
    if between:
        first: Any = between[0]  # an assignment line, as the rule checked
        between[0] = first.with_changes(leading_lines=[*above, *first.leading_lines])
        above = []
    written = last.with_changes(body=[cst.Return(value)], leading_lines=[*above, *comments])
    return node.with_changes(body=node.body.with_changes(body=[*kept, *between, written]))


def _only_return(node: cst.CSTNode) -> cst.BaseExpression | None:
    """The value of `return value`, the one statement of a line or of a block."""
    import libcst as cst

    if isinstance(node, cst.IndentedBlock) and len(node.body) == 1:
        node = node.body[0]
    if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
        return None
    statement = node.body[0]
    return statement.value if isinstance(statement, cst.Return) else None


def where_statement(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where` fix: an `if`/`else` assigning the same names becomes
    `name = torch.where(cond, a, b)`."""
    import libcst as cst

    from breaklint.rewrites import branch_comments, call, graph_condition, torch_function

    if not isinstance(node, cst.If) or not isinstance(node.body, cst.IndentedBlock):
        return None
    where = torch_function(fix.torch, "where")
    chosen = cst_assignments(node.body)
    other = (
        cst_assignments(node.orelse.body)
        if isinstance(node.orelse, cst.Else)
        else [(name, cst.Name(name)) for name, _ in chosen]
    )
    test = graph_condition(node.test, fix.torch)
    bound: list[cst.SimpleStatementLine] = []
    if len(chosen) > 1 and not isinstance(node.test, cst.Name | cst.Attribute):
        # The condition computed once, before the names are assigned.
        assign_test = cst.Assign([cst.AssignTarget(cst.Name(CONDITION_NAME))], test)
        bound.append(cst.SimpleStatementLine([assign_test]))
        test = cst.Name(CONDITION_NAME)
    values = [call(where, test, a, b) for (_, a), (_, b) in zip(chosen, other, strict=True)]
    names = [cst.Name(name) for name, _ in chosen]
    target: cst.BaseAssignTargetExpression = (
        names[0]
        if len(names) == 1
        else cst.Tuple([cst.Element(n) for n in names], lpar=[], rpar=[])
    )
    value: cst.BaseExpression = (
        values[0]
        if len(values) == 1
        else cst.Tuple([cst.Element(v) for v in values], lpar=[], rpar=[])
    )
    assign = cst.Assign(targets=[cst.AssignTarget(target)], value=value)
    above = [*node.leading_lines, *branch_comments(node)]
    statements = [*bound, cst.SimpleStatementLine([assign])]
    statements[0] = statements[0].with_changes(leading_lines=above)
    return cst.FlattenSentinel(statements) if bound else statements[0]


def where_store(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-store` fix: an `if`/`else` assigning the same targets (an element, a slice,
    an attribute) becomes `target = torch.where(cond, a, b)` per target (`target` itself as
    `b` without `else`), after `condition_holds = cond` where there are several and the test
    is more than a name."""
    import libcst as cst

    from breaklint.rewrites import branch_comments, call, graph_condition, torch_function

    if not isinstance(node, cst.If) or not isinstance(node.body, cst.IndentedBlock):
        return None
    chosen = _stored(node.body)
    if isinstance(node.orelse, cst.Else):
        other = _stored(node.orelse.body)
    else:
        other = [(target, target.deep_clone()) for target, _ in chosen]
    test = graph_condition(node.test, fix.torch)
    statements: list[cst.SimpleStatementLine] = []
    if len(chosen) > 1 and not isinstance(node.test, cst.Name):
        assign_test = cst.Assign([cst.AssignTarget(cst.Name(CONDITION_NAME))], test)
        statements.append(cst.SimpleStatementLine([assign_test]))
        test = cst.Name(CONDITION_NAME)
    where = torch_function(fix.torch, "where")
    for (target, a), (_, b) in zip(chosen, other, strict=True):
        value = call(where, test.deep_clone(), a, b)
        statements.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(target)], value)]))
    above = [*node.leading_lines, *branch_comments(node)]
    statements[0] = statements[0].with_changes(leading_lines=above)
    return cst.FlattenSentinel(statements) if len(statements) > 1 else statements[0]


def _stored(block: cst.BaseSuite) -> list[tuple[Any, cst.BaseExpression]]:
    """(target, value) of a block of assignment lines, each to one target (as the rule
    checked)."""
    lines: list[Any] = list(block.body)
    return [(line.body[0].targets[0].target, line.body[0].value) for line in lines]


def where_hoisted(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-hoisted` fix: an `if`/`else` whose branches assign intermediate names
    besides those they choose (with an `else`, the names both assign; without, the last
    statement's) becomes the intermediate assignments, each branch's in order, then `name =
    torch.where(cond, a, b)` per chosen name (`name` itself as `b` without `else`), after
    `condition_holds = cond` where there are several."""
    import libcst as cst

    from breaklint.rewrites import branch_comments, call, graph_condition, torch_function

    if not isinstance(node, cst.If) or not isinstance(node.body, cst.IndentedBlock):
        return None
    blocks: list[Any] = [node.body.body]  # assignment lines only, as the rule checked
    if isinstance(node.orelse, cst.Else):
        blocks.append(node.orelse.body.body)
    assigned = [cst_assignments(cst.IndentedBlock(list(block))) for block in blocks]
    names = [[name for name, _ in pairs] for pairs in assigned]
    chosen = [n for n in names[0] if n in names[1]] if len(names) == 2 else names[0][-1:]
    values = [dict(pairs) for pairs in assigned]
    statements: list[cst.SimpleStatementLine] = []
    test = graph_condition(node.test, fix.torch)
    if len(chosen) > 1:
        bound = cst.Assign([cst.AssignTarget(cst.Name(CONDITION_NAME))], test)
        statements.append(cst.SimpleStatementLine([bound]))
        test = cst.Name(CONDITION_NAME)
    for block, block_names in zip(blocks, names, strict=True):
        for line, name in zip(block, block_names, strict=True):
            if name not in chosen:
                assert isinstance(line, cst.SimpleStatementLine)
                statements.append(
                    line.with_changes(
                        leading_lines=[], trailing_whitespace=cst.TrailingWhitespace()
                    )
                )
    where = torch_function(fix.torch, "where")
    for name in chosen:
        kept = values[1][name] if len(values) == 2 else cst.Name(name)
        assign = cst.Assign(
            [cst.AssignTarget(cst.Name(name))], call(where, test, values[0][name], kept)
        )
        statements.append(cst.SimpleStatementLine([assign]))
    above = [*node.leading_lines, *branch_comments(node)]
    statements[0] = statements[0].with_changes(leading_lines=above)
    return cst.FlattenSentinel(statements)


def where_chain(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-chain` fix: an `if`/`elif`/`else` chain whose branches each return a value,
    or assign the same names, becomes `return torch.where(c1, a, torch.where(c2, b, c))` or
    one `name = torch.where(...)` per name (`name` itself innermost without `else`)."""
    import libcst as cst

    from breaklint.rewrites import branch_comments, call, graph_condition, torch_function

    if not isinstance(node, cst.If):
        return None
    links: list[cst.If] = [node]
    while isinstance(links[-1].orelse, cst.If):
        links.append(links[-1].orelse)
    final = links[-1].orelse
    blocks: list[Any] = [link.body for link in links]  # as the rule checked
    if isinstance(final, cst.Else):
        blocks.append(final.body)
    tests = [graph_condition(link.test, fix.torch) for link in links]
    where = torch_function(fix.torch, "where")

    def nested(values: list[cst.BaseExpression]) -> cst.BaseExpression:
        chosen = values[-1]
        for test, value in zip(reversed(tests), reversed(values[: len(tests)]), strict=True):
            chosen = call(where, test, value, chosen)
        return chosen

    first = blocks[0].body[0].body[0]
    statements: list[cst.SimpleStatementLine] = []
    if isinstance(first, cst.Return):
        returned = [block.body[0].body[0].value for block in blocks]
        statements.append(cst.SimpleStatementLine([cst.Return(nested(returned))]))
    else:
        assigned = [cst_assignments(block) for block in blocks]
        for index, (name, _) in enumerate(assigned[0]):
            values = [pairs[index][1] for pairs in assigned]
            if not isinstance(final, cst.Else):
                values.append(cst.Name(name))
            assign = cst.Assign([cst.AssignTarget(cst.Name(name))], nested(values))
            statements.append(cst.SimpleStatementLine([assign]))
    above = [*node.leading_lines, *branch_comments(node)]
    statements[0] = statements[0].with_changes(leading_lines=above)
    return cst.FlattenSentinel(statements)


# The fixes of `if cond:` that `if flag and cond:` gets inside `if flag:`.
FLAGGED = ("where", "where-hoisted", "unguarded", "where-in-place", "where-folded")


def flagged(rewrite: Callable[[cst.CSTNode, Fix], Rewritten | None]) -> Callable[..., Any]:
    """The `flagged-<fix>` rewrite: `if flag and cond:` becomes `if flag:` around what
    `rewrite` writes of `if cond:` (libcst nests `f and g and cond` to the left: the right
    operand is the tensor test)."""

    def flagged_rewrite(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
        import libcst as cst

        if not isinstance(node, cst.If) or not isinstance(node.test, cst.BooleanOperation):
            return None
        test = node.test
        inner = node.with_changes(test=test.right, leading_lines=[])
        written: Any = rewrite(inner, fix)
        if written is None:
            return None
        statements = list(written.nodes) if isinstance(written, cst.FlattenSentinel) else [written]
        flags = test.left.with_changes(lpar=[], rpar=[]) if not test.left.lpar else test.left
        return cst.If(
            test=flags,
            body=cst.IndentedBlock(statements),
            leading_lines=node.leading_lines,
        )

    return flagged_rewrite


def flagged_after(rewrite: Callable[[cst.CSTNode, Fix], Rewritten | None]) -> Callable[..., Any]:
    """The `flagged-after-<fix>` rewrite: `if cond and flag:` becomes `if flag:` around what
    `rewrite` writes of `if cond:` (libcst nests `cond and f and g` to the left: the leftmost
    operand is the tensor test, the flags keep their order)."""

    def flagged_after_rewrite(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
        import libcst as cst

        if not isinstance(node, cst.If) or not isinstance(node.test, cst.BooleanOperation):
            return None
        operands: list[cst.BaseExpression] = []
        test: cst.BaseExpression = node.test
        while (
            isinstance(test, cst.BooleanOperation)
            and isinstance(test.operator, cst.And)
            and not test.lpar
        ):
            operands.insert(0, test.right)
            test = test.left
        inner = node.with_changes(test=test, leading_lines=[])
        written: Any = rewrite(inner, fix)
        if written is None or not operands:
            return None
        statements = list(written.nodes) if isinstance(written, cst.FlattenSentinel) else [written]
        flags = operands[0]
        for operand in operands[1:]:
            flags = cst.BooleanOperation(flags, cst.And(), operand)
        return cst.If(
            test=flags,
            body=cst.IndentedBlock(statements),
            leading_lines=node.leading_lines,
        )

    return flagged_after_rewrite


def where_folded(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-folded` fix: in an `if` that only assigns names, `y = a` then `y = g(y)`
    become `y = g(a)` (the value in parentheses where it is an operation and not an
    argument), then the `where` fix of the `if`."""
    import libcst as cst

    if not isinstance(node, cst.If) or not isinstance(node.body, cst.IndentedBlock):
        return None
    lines: list[cst.SimpleStatementLine] = []
    names: list[str] = []
    for line in node.body.body:
        if not isinstance(line, cst.SimpleStatementLine) or not isinstance(
            line.body[0], cst.Assign
        ):
            return None
        assign = line.body[0]
        name = assign.targets[0].target
        if not isinstance(name, cst.Name):
            return None
        if names and names[-1] == name.value:
            earlier: Any = lines[-1].body[0]
            value = assign.value.visit(_substituted(name.value, earlier.value))
            lines[-1] = lines[-1].with_changes(body=[earlier.with_changes(value=value)])
            continue
        names.append(name.value)
        lines.append(line.with_changes(leading_lines=[]))
    folded = node.with_changes(body=node.body.with_changes(body=lines))
    return where_statement(folded, fix)


def _substituted_class() -> type:
    import libcst as cst

    class Substituted(cst.CSTTransformer):
        """Each read of `name` (not an attribute's or a keyword's name) becomes `value`."""

        def __init__(self, name: str, value: cst.BaseExpression) -> None:
            super().__init__()
            self.name, self.value = name, value
            self.not_reads: set[int] = set()
            self.arguments: set[int] = set()

        def visit_Attribute(self, node: cst.Attribute) -> None:
            self.not_reads.add(id(node.attr))

        def visit_Arg(self, node: cst.Arg) -> None:
            if node.keyword is not None:
                self.not_reads.add(id(node.keyword))
            self.arguments.add(id(node.value))

        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
            if original.value != self.name or id(original) in self.not_reads:
                return updated
            if id(original) in self.arguments:
                return self.value.deep_clone()
            return _grouped(self.value.deep_clone())

    return Substituted


def _substituted(name: str, value: cst.BaseExpression) -> Any:
    """A transformer that puts `value` in place of each read of `name`."""
    return _substituted_class()(name, value)


def _grouped(value: cst.BaseExpression) -> cst.BaseExpression:
    """`value` in parentheses unless it is a name, an attribute, a call, a subscript or a
    literal, which bind tighter than any operator."""
    import libcst as cst

    atoms = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.BaseNumber, cst.BaseString)
    if isinstance(value, atoms) or value.lpar:
        return value
    return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def unguarded(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `unguarded` fix: `if m.any():` whose body only stores through `m` becomes its
    body; a comment after the `if` goes above it."""
    import libcst as cst

    if not isinstance(node, cst.If) or not isinstance(node.body, cst.IndentedBlock):
        return None
    statements: list[Any] = list(node.body.body)
    header = node.body.header.comment
    above = [*node.leading_lines] + ([cst.EmptyLine(comment=header)] if header else [])
    statements[0] = statements[0].with_changes(leading_lines=[*above, *statements[0].leading_lines])
    return cst.FlattenSentinel(statements)


def where_told(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-told` fix: an `if`/`else` whose branches tell and assign (one branch may
    only tell) becomes `if torch.compiler.is_compiling():` with `name = torch.where(cond, ...)`
    per name assigned, the name kept where a branch does not assign it, and the `if` as it was
    under `else:`."""
    import libcst as cst

    from breaklint.rewrites import call, graph_condition, torch_function, without_guards

    if not isinstance(node, cst.If) or not isinstance(node.orelse, cst.Else):
        return None
    node = without_guards(node, fix.torch)
    assert isinstance(node.orelse, cst.Else)
    # What each branch assigns, its telling calls left out (the rule checked the rest).
    assigned = [dict(_assigned(block)) for block in (node.body, node.orelse.body)]
    names = list(assigned[0] or assigned[1])
    if not names:
        return None
    where = torch_function(fix.torch, "where")
    test = graph_condition(node.test, fix.torch)
    updates = []
    for name in names:
        chosen = (values.get(name, cst.Name(name)) for values in assigned)
        assign = cst.Assign([cst.AssignTarget(cst.Name(name))], call(where, test, *chosen))
        updates.append(cst.SimpleStatementLine([assign]))
    compiling = cst.Attribute(
        cst.Attribute(cst.Name(fix.torch), cst.Name("compiler")), cst.Name("is_compiling")
    )
    return cst.If(
        test=call(compiling),
        body=cst.IndentedBlock(updates),
        orelse=cst.Else(cst.IndentedBlock([node.with_changes(leading_lines=[])])),
        leading_lines=node.leading_lines,
    )


# The name the `where-in-place` fix gives the condition of a branch that updates several
# tensors (offered only where the file does not use it).
CONDITION_NAME = "condition_holds"


def where_in_place(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-in-place` fix: an `if`/`else` updating the same tensors in place becomes
    `t.copy_(torch.where(cond, <t as the if updates it>, <t as the else does>))` per tensor
    (`t` itself without `else`), after `condition_holds = cond` where there are several."""
    import libcst as cst

    from breaklint.rewrites import branch_comments, call, graph_condition, torch_function

    if not isinstance(node, cst.If) or not isinstance(node.body, cst.IndentedBlock):
        return None
    if not _BINARY:
        _binary_operators()
    chosen = _updated_values(node.body)
    other = _updated_values(node.orelse.body) if isinstance(node.orelse, cst.Else) else None
    test = graph_condition(node.test, fix.torch)
    statements: list[cst.SimpleStatementLine] = []
    if len(chosen) > 1:
        bound = cst.Assign([cst.AssignTarget(cst.Name(CONDITION_NAME))], test)
        statements.append(cst.SimpleStatementLine([bound]))
        test = cst.Name(CONDITION_NAME)
    where = torch_function(fix.torch, "where")
    for index, (tensor, value) in enumerate(chosen):
        kept = other[index][1] if other is not None else tensor
        copied = call(cst.Attribute(tensor, cst.Name("copy_")), call(where, test, value, kept))
        statements.append(cst.SimpleStatementLine([cst.Expr(copied)]))
    above = [*node.leading_lines, *branch_comments(node)]
    statements[0] = statements[0].with_changes(leading_lines=above)
    return cst.FlattenSentinel(statements)


def _updated_values(block: cst.BaseSuite) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(tensor, new value) of each statement `t.mul_(m).add_(u)` of a block, as the rule
    checked: the value is `t.mul(m).add(u)`; `copy_(v)` in the chain gives `v`."""
    import libcst as cst

    from breaklint.rewrites import parenthesized

    lines: list[Any] = list(block.body)  # one call statement each, as the rule checked
    updates: list[tuple[Any, Any]] = []
    for line in lines:
        statement = line.body[0]
        if isinstance(statement, cst.AugAssign):  # `t += v`: the value is `t + v`
            operator = _BINARY[type(statement.operator).__name__]()
            operand = parenthesized_operand(statement.value)
            combined = cst.BinaryOperation(statement.target, operator, operand)
            updates.append((statement.target, combined))
            continue
        chain = []
        node = statement.value
        while isinstance(node, cst.Call):
            chain.append(node)
            node = node.func.value  # type: ignore[attr-defined]
        tensor, value = node, node
        for update in reversed(chain):
            name = update.func.attr.value  # type: ignore[attr-defined]
            if name == "copy_":
                value = update.args[0].value
                continue
            twin = cst.Attribute(parenthesized(value), cst.Name(name[:-1]))
            value = update.with_changes(func=twin)
        updates.append((tensor, value))
    return updates


# The binary operator of each augmented assignment `where-in-place` takes (`+=`: `+`).
_BINARY: dict[str, Any] = {}


def _binary_operators() -> None:
    import libcst as cst

    for name in ("Add", "Subtract", "Multiply", "Divide", "FloorDivide", "Power"):
        _BINARY[f"{name}Assign"] = getattr(cst, name)


def parenthesized_operand(value: cst.BaseExpression) -> cst.BaseExpression:
    """`value` as the right operand of a binary operation: in parentheses where it is itself
    an operation (`t *= a + b` is `t * (a + b)`)."""
    import libcst as cst

    operation = cst.BinaryOperation | cst.BooleanOperation | cst.Comparison | cst.IfExp
    if isinstance(value, operation | cst.Lambda) and not value.lpar:
        return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return value


# The functions the `while-loop` fix defines before the loop it replaces: its condition and
# its body, named so (the fix is offered only where the file uses neither name).
WHILE_FUNCTIONS = ("while_condition", "while_body")


def while_loop(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `while-loop` fix: `while cond:` over assignments becomes the condition and the body
    as functions of the names the body assigns (the carried values), and
    `names = torch.while_loop(condition, body, (names,))`. The body returns a copy of each
    value: `torch.while_loop` refuses a body that returns one of its inputs as it is."""
    import libcst as cst

    from breaklint.rewrites import call, graph_condition, method, torch_function

    if not isinstance(node, cst.While) or not isinstance(node.body, cst.IndentedBlock):
        return None
    names = [name for name, _ in cst_assignments(node.body)]
    parameters = cst.Parameters([cst.Param(cst.Name(name)) for name in names])

    def carried(values: list[cst.BaseExpression]) -> cst.Tuple:
        return cst.Tuple([cst.Element(value) for value in values])

    condition_name, body_name = WHILE_FUNCTIONS
    condition = cst.FunctionDef(
        cst.Name(condition_name),
        parameters,
        cst.IndentedBlock(
            [cst.SimpleStatementLine([cst.Return(graph_condition(node.test, fix.torch))])]
        ),
        leading_lines=node.leading_lines,
    )
    returned = carried([method(cst.Name(name), "clone") for name in names])
    if len(names) > 1:
        returned = returned.with_changes(lpar=[], rpar=[])
    body = cst.FunctionDef(
        cst.Name(body_name),
        parameters,
        node.body.with_changes(
            body=[*node.body.body, cst.SimpleStatementLine([cst.Return(returned)])]
        ),
    )
    loop = call(
        torch_function(fix.torch, "while_loop"),
        cst.Name(condition_name),
        cst.Name(body_name),
        carried([cst.Name(name) for name in names]),
    )
    targets = carried([cst.Name(name) for name in names])
    if len(names) > 1:  # `a, b = ...`; one name keeps its parentheses: `(a,) = ...`
        targets = targets.with_changes(lpar=[], rpar=[])
    assign = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(targets)], loop)])
    return cst.FlattenSentinel([condition, body, assign])


# Page examples of the fixes for values of submodules, shown before and after.


def _assigned(block: cst.BaseSuite) -> list[tuple[str, cst.BaseExpression]]:
    """The assignments of a block that only tells and assigns, in order."""
    import libcst as cst

    lines = [
        line
        for line in block.body
        if isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Assign)
    ]
    return cst_assignments(block.with_changes(body=lines))


def cst_assignments(block: cst.BaseSuite) -> list[tuple[str, cst.BaseExpression]]:
    """`_assignments` of the same block, read from libcst."""
    lines: list[Any] = list(block.body)  # simple statement lines, as `_assignments` checked
    return [(line.body[0].targets[0].target.value, line.body[0].value) for line in lines]


def stacked_truths(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `stacked` fix: `all(test for ...)` becomes `torch.stack([<test as a tensor> for ...]
    or [torch.as_tensor(True)]).all()`; `any` the same with `False` and `.any()`."""
    import libcst as cst

    from breaklint.rewrites import any_truth, call, method, torch_function

    if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Name):
        return None
    drawn = node.args[0].value
    if not isinstance(drawn, cst.GeneratorExp | cst.ListComp):
        return None
    builtin = node.func.value
    truths = cst.ListComp(elt=any_truth(drawn.elt, fix.torch), for_in=drawn.for_in)
    empty = cst.Name("True" if builtin == "all" else "False")
    fallback = cst.List([cst.Element(call(torch_function(fix.torch, "as_tensor"), empty))])
    either = cst.BooleanOperation(left=truths, operator=cst.Or(), right=fallback)
    stacked = call(torch_function(fix.torch, "stack"), either)
    return method(stacked, builtin).with_changes(lpar=node.lpar, rpar=node.rpar)


def number_test(rewrite: Callable[[cst.CSTNode, Fix], Rewritten | None]) -> Callable[..., Any]:
    """The fixes BL101 and BL102 offer for a branch on a test made of reads of numbers from
    tensors (`if t.item() > 0:`): the reads dropped from the test (`rewrites.tensor_test`),
    then `rewrite`, BL201's, of the branch on the tensors."""

    def rewritten(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
        import libcst as cst

        from breaklint.rewrites import tensor_test

        if isinstance(node, cst.FunctionDef) and isinstance(node.body, cst.IndentedBlock):
            # `where-return-early`: the function's last `if` is the branch
            statements = list(node.body.body)
            ifs = [i for i, statement in enumerate(statements) if isinstance(statement, cst.If)]
            if not ifs:
                return None
            branch = statements[ifs[-1]]
            assert isinstance(branch, cst.If)
            statements[ifs[-1]] = branch.with_changes(test=tensor_test(branch.test))
            return rewrite(node.with_changes(body=node.body.with_changes(body=statements)), fix)
        if not isinstance(node, cst.If | cst.IfExp):
            return None
        return rewrite(node.with_changes(test=tensor_test(node.test)), fix)

    return rewritten
