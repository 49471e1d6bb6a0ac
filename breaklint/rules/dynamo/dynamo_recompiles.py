"""A guard that failed on every new value of a probe's calls: found only by running Dynamo
(the join layer, `breaklint.dynamic.join`, makes the findings; this module holds the page)."""

from breaklint.findings import Severity
from breaklint.rule import Phase, Rule


class DynamoRecompiles(Rule):
    code = "BL910"
    phase = Phase.DYNAMIC
    name = "dynamo-recompiles"
    severity = Severity.WARNING  # an error once the recompile limit is reached
    recompiles = True
    message = "Dynamo compiles this function again for every new value"
    hint = "pass the value as a tensor, or hoist it out of the compiled region"
    fix_safety = """
No automatic fix: what recompiles is a value the compiled code is called with, seen by running
Dynamo, not a statement breaklint can rewrite.
"""
    what = """
Reports a guard that failed again on every new value while a probe's calls ran (its own call
and the variants breaklint derives from it: the call again, other values for each Python
number a guard of the first compile reads, other sizes for each dimension marked static or
dynamic; with `--all-variants`, other sizes for every tensor dimension), at the line that
installed the guard: an int bounding a `range()` loop (`n == 1`, `n == 2`...), a module
attribute changed in `forward` (`self.step == 0`...), a dimension marked static that varies.
The finding gives the guard, the failures and compiles over the calls, and is an error when
the recompile limit was reached (the function then runs eagerly). Guards that Dynamo
generalises (automatic dynamic: a new batch size or float compiles once more, then never
again) are only counted in the probe summary.
"""
    why = """
Dynamo guards every compiled graph on what it assumed: shapes, Python numbers, attributes. A
guard that fails compiles a new graph; automatic dynamic then makes the value symbolic, so a
second value is the last compile. Values Dynamo must know (a loop bound, an int attribute of a
module, a dimension marked static) fail their guard on every new value instead, until
`torch._dynamo.config.recompile_limit` (8) is reached and the function runs eagerly for good.
"""
    example = """
import torch


def total(x, n: int):
    for i in range(n):
        x = x + i
    return x
"""
    use_instead = """
import torch


def total(x, n: int):
    return x + n * (n - 1) // 2
"""
