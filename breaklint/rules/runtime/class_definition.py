import ast

from breaklint.findings import Severity
from breaklint.rule import Rule


class ClassDefinition(Rule):
    code = "BL513"
    name = "class-definition"
    words = frozenset({"class"})
    severity = Severity.ERROR
    message = (
        "a `class` statement runs `__build_class__`, which Dynamo does not trace: it breaks the "
        "graph here"
    )
    hint = (
        "define the class at module level and pass what it reads from this function to its "
        "`__init__`"
    )
    what = """
Flags a `class` statement in the body of a function in compiled code: a class made each time
the function runs (a local subclass of an argument's class, a small record or strategy class).
Classes defined in a function nested in it are left to that function.
"""
    why = """
Python makes a class by calling `builtins.__build_class__` with the class body as a function.
Dynamo 2.13 does not trace that call (`torch._dynamo.config.enable_trace_load_build_class` is
False by default), whatever the body holds and whatever the bases are, so it breaks the graph
at the statement (GB8977, "Invalid call to __build_class__") and makes the class eagerly.
"""
    example = """
import torch


def shifted(x, offset):
    class Shift:
        def apply(self, y):
            return y + offset

    return Shift().apply(x * 2)


compiled = torch.compile(shifted)
"""
    use_instead = """
import torch


class Shift:
    def __init__(self, offset):
        self.offset = offset

    def apply(self, y):
        return y + self.offset


def shifted(x, offset):
    return Shift(offset).apply(x * 2)


compiled = torch.compile(shifted)
"""
    probe = "(shifted, (torch.randn(8), 1.5))"
    gb_ids = ("GB8977",)
    fix_safety = """
No automatic fix: a class body may read the function's locals (a closure), and which of them
the class needs, and how its methods reach them once it moves to module level, is a design
choice the rewrite cannot make for the author.
"""

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if self.context.facts.in_outer_function:
            self.report(_header(node))


def _header(node: ast.ClassDef) -> ast.stmt:
    """Where the statement is reported: its header, `class Name(bases)`, not the whole body."""
    header = ast.Pass(lineno=node.lineno, col_offset=node.col_offset)
    parts: list[ast.expr | ast.keyword] = [*node.bases, *node.keywords]
    last = max(
        parts,
        key=lambda part: (part.end_lineno or 0, part.end_col_offset or 0),
        default=None,
    )
    if last is None or last.end_lineno is None or last.end_col_offset is None:
        header.end_lineno = node.lineno
        header.end_col_offset = node.col_offset + len(f"class {node.name}")
    else:  # past the closing parenthesis
        header.end_lineno = last.end_lineno
        header.end_col_offset = last.end_col_offset + 1
    return header
