import ast

from breaklint.findings import Severity
from breaklint.rule import Rule, called

SEEDING = frozenset(
    {
        "torch.manual_seed", "torch.seed", "torch.random.manual_seed", "torch.random.seed",
        "torch.cuda.manual_seed", "torch.cuda.manual_seed_all",
    }
)  # fmt: skip


class ManualSeed(Rule):
    code = "BL502"
    name = "manual-seed"
    words = called(*SEEDING)
    severity = Severity.ERROR
    message = (
        "`{call}()` resets the global RNG state, which Dynamo cannot record in a graph; it "
        "breaks the graph here"
    )
    hint = "seed once outside the compiled code"
    fix_safety = """
No automatic fix: seeding changes the global random state that the draws after it read: moving
it out of the compiled function, or skipping it while compiling, changes which numbers they
draw.
"""
    what = """
Flags `torch.manual_seed`, `torch.seed` and the CUDA seeding functions in compiled code.
"""
    why = """
Seeding mutates the global random number generator. A graph captures random ops, not changes
to the generator's state, so Dynamo breaks the graph and seeds eagerly.
"""
    example = """
import torch


def noisy(x):
    y = x * 2
    torch.manual_seed(0)
    return y + torch.randn_like(y)


compiled = torch.compile(noisy)
"""
    use_instead = """
import torch


def noisy(x):
    y = x * 2
    return y + torch.randn_like(y)


torch.manual_seed(0)
compiled = torch.compile(noisy)
"""
    probe = "(noisy, (torch.randn(8),))"

    def visit_Call(self, node: ast.Call) -> None:
        name = self.context.facts.resolve(node.func)
        if name in SEEDING:
            self.report(node, self.message.format(call=name))
