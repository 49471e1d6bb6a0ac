"""The project's answers do not depend on the order they are asked in: the call summaries
(`breaklint.call_breaks`) reuse the call targets the scope found, asked in another order."""

import ast
import textwrap

from breaklint.index import build_index
from breaklint.scope import Project

# `far` reaches `Impl.__call__` through more makers than values are followed through
# (`scope._MAX_DEPTH`), `near` through few enough.
_MAKERS = "\n".join(f"def make{i}():\n    return make{i + 1}()\n" for i in range(7))
SOURCE = (
    textwrap.dedent("""
    class Impl:
        def __call__(self, x):
            return x

    def make7():
        return Impl()

    def near(x):
        y = make4()
        return y(x)

    def far(x):
        y = make0()
        return y(x)
""")
    + _MAKERS
)


def _targets(asked: list[str]) -> dict[str, list[str]]:
    path = "/project/chain.py"
    project = Project({path: build_index(path, ast.parse(SOURCE), [])}, {path: "chain"})
    functions = project.by_module["chain"].functions
    return {
        name: [t.ref.qualname for t in project.call_targets("chain", functions[name], "y")]
        for name in asked
    }


def test_a_call_reaches_the_same_targets_whatever_was_asked_before() -> None:
    alone = _targets(["far"])["far"]
    after_near = _targets(["near", "far"])
    assert after_near["near"] == ["Impl.__call__"]
    assert after_near["far"] == alone == []


CYCLE = textwrap.dedent("""
    def helper(x):
        return x

    def swap(x, n):
        a = helper
        b = a
        c = b
        for _ in range(n):
            a = b
        a(x)
        return c(x)
""")


def _cycle_targets(asked: list[str]) -> dict[str, list[str]]:
    path = "/project/cycle.py"
    project = Project({path: build_index(path, ast.parse(CYCLE), [])}, {path: "cycle"})
    swap = project.by_module["cycle"].functions["swap"]
    return {
        name: [t.ref.qualname for t in project.call_targets("cycle", swap, name)] for name in asked
    }


def test_a_local_in_a_cycle_of_bindings_holds_the_same_whatever_was_asked_before() -> None:
    # `a` holds `b`, which holds `a`: found from `a`, `b` is cut where it reaches `a` again.
    assert _cycle_targets(["c"]) == {"c": ["helper"]}
    assert _cycle_targets(["a", "c"]) == {"a": ["helper"], "c": ["helper"]}
