import ast

from breaklint.findings import Severity
from breaklint.rule import Rule, called

SEEDING = frozenset(
    {
        "torch.manual_seed", "torch.seed", "torch.random.manual_seed", "torch.random.seed",
        "torch.cuda.manual_seed", "torch.cuda.manual_seed_all",
        # Saving and restoring the state is a skipped function too (GB0007, measured on 2.13).
        "torch.get_rng_state", "torch.set_rng_state", "torch.random.get_rng_state",
        "torch.random.set_rng_state",
    }
)  # fmt: skip


class ManualSeed(Rule):
    code = "BL502"
    name = "manual-seed"
    words = called(*SEEDING)
    severity = Severity.ERROR
    message = (
        "`{call}()` {verb} the global RNG state, which Dynamo cannot record in a graph; it "
        "breaks the graph here"
    )
    hint = "seed once outside the compiled code"
    fix_safety = """
No automatic fix: seeding changes the global random state that the draws after it read: moving
it out of the compiled function, or skipping it while compiling, changes which numbers they
draw.
"""
    what = """
Flags `torch.manual_seed`, `torch.seed` and the CUDA seeding functions in compiled code, and
saving or restoring the generator's state with `torch.get_rng_state()` and `set_rng_state()`.
"""
    why = """
Seeding mutates the global random number generator. A graph captures random ops, not changes
to the generator's state, so Dynamo breaks the graph and seeds eagerly; reading the state, or
restoring it, is a function Dynamo skips as well (GB0007, measured on 2.13).
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
            verb = "reads" if name.endswith("get_rng_state") else "resets"
            self.report(node, self.message.format(call=name, verb=verb))
