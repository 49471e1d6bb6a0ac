import torch
from models import Counter, scaled, total, total_of_tensor, widened

from breaklint import Call, Calls


def probe_counter():
    # A low recompile limit, as a training run may set: reached on the third call.
    return Calls(Counter(), [Call(torch.randn(4))] * 6, recompile_limit=2)


def probe_total():
    # Variants derived from this one call: other sizes for x, other values for n.
    return total, (torch.randn(4), 3)


def probe_total_of_tensor():
    return Calls(total_of_tensor, [Call(torch.randn(4), torch.tensor(n)) for n in range(1, 6)])


def probe_batch_and_float():
    calls = [(2, 0.5), (3, 1.5), (4, 2.5), (5, 3.5)]
    return Calls(scaled, [Call(torch.randn(batch, 3), scale) for batch, scale in calls])


def probe_static_batch():
    x = torch.randn(2, 3)
    torch._dynamo.mark_static(x, 0)  # the variants keep the mark, and vary the batch
    return widened, (x,)
