import ast

from breaklint.findings import Severity
from breaklint.rule import Rule, RuleContext


class RangeBoundArgument(Rule):
    code = "BL812"
    name = "range-bound-argument"
    words = frozenset({"range"})
    severity = Severity.ERROR
    breaks_graph = False
    recompiles = True
    message = (
        "`range({argument})` bounds a loop by an int argument of the compiled function: Dynamo "
        "unrolls the loop and guards on `{argument} == N`, so every new value compiles again, "
        "until the recompile limit (8) makes the function run eagerly"
    )
    hint = (
        "compute without a Python loop over `{argument}` (tensor ops, `torch.arange`), or fix "
        "the count when the module is built"
    )
    fix_safety = """
No automatic fix: the unrolled loop needs its count; removing the recompiles means computing
without a Python loop (tensor ops) or fixing the count when the module is built, which depends
on what the loop computes.
"""
    what = """
Flags `range(n)` in a compile root (a `forward`, a function passed to `torch.compile`) where
`n` is one of the root's own parameters taken as a Python int: annotated `int`, given an int
default, or unannotated and not used as a tensor.
"""
    why = """
Dynamo traces a Python loop by unrolling it, so the number of iterations is part of the
graph: it guards on the argument's value (`n == 1`), and every call with another value
compiles again. `dynamic=True` does not help (the unrolled loop still needs the value);
after `torch._dynamo.config.recompile_limit` (8) compilations the function runs eagerly.
"""
    example = """
import torch


def total(x, n: int):
    for i in range(n):
        x = x + i
    return x


compiled = torch.compile(total)
"""
    use_instead = """
import torch


def total(x, n: int):
    return x + n * (n - 1) // 2


compiled = torch.compile(total)
"""
    probe = "(total, [(torch.randn(4), n) for n in range(1, 7)])"

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self.integers: set[str] = set()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self.context.root and self.context.facts.in_outer_function:
            tensors = self.context.facts.used_as_tensors
            self.integers = _integer_parameters(node.args) - tensors

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node: ast.Call) -> None:
        if not (
            self.integers
            and self.context.facts.in_outer_function
            and isinstance(node.func, ast.Name)
            and self.context.facts.resolve(node.func) == "range"
        ):
            return
        for argument in node.args:
            if isinstance(argument, ast.Name) and argument.id in self.integers:
                name = argument.id
                self.report(
                    node,
                    self.message.format(argument=name),
                    hint=self.hint and self.hint.format(argument=name),
                )
                return

    def visit_Assign(self, node: ast.Assign) -> None:
        # A parameter rebound in the body no longer holds the argument.
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.integers.discard(target.id)


def _integer_parameters(arguments: ast.arguments) -> set[str]:
    """Parameters annotated `int`, with an int default, or with neither (unless the body uses
    them as tensors)."""
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
    pairs = [
        *zip(positional, [*defaults, *arguments.defaults], strict=True),
        *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
    ]
    return {
        parameter.arg
        for parameter, default in pairs
        if (
            parameter.annotation is None
            and default is None
            and parameter.arg not in ("self", "cls")
        )
        or (isinstance(parameter.annotation, ast.Name) and parameter.annotation.id == "int")
        or (isinstance(default, ast.Constant) and type(default.value) is int)
    }
