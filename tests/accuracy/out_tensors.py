"""`out=` into a tensor made empty in the frame: torch resizes it to the result, Dynamo breaks
("Shape mismatch with out= tensor variant"). An out tensor of the result's size, or one passed
in, is written in the graph; so is a local rebound to a result before the call."""

import torch


def gathered(x, idx):
    rows = x.new()
    torch.index_select(x, 0, idx, out=rows)  # BREAK BL305
    return rows * 2


def summed(x):
    total = torch.empty(0)
    torch.add(x, 1, out=total)  # BREAK BL305
    return total * 2


def typed(x):
    doubled = torch.FloatTensor()
    torch.mul(x, 2, out=doubled)  # BREAK BL305
    return doubled + 1


def sized(x, idx):
    rows = torch.empty(idx.shape[0], x.shape[1])
    torch.index_select(x, 0, idx, out=rows)
    return rows * 2


def passed(x, idx, rows):
    torch.index_select(x, 0, idx, out=rows)
    return rows * 2


def rebound(x, idx):
    rows = x.new()
    rows = x[:2].clone()
    torch.index_select(x, 0, idx, out=rows)
    return rows * 2


compiled_gathered = torch.compile(gathered)
compiled_summed = torch.compile(summed)
compiled_typed = torch.compile(typed)
compiled_sized = torch.compile(sized)
compiled_passed = torch.compile(passed)
compiled_rebound = torch.compile(rebound)


def probe_gathered():
    return gathered, (torch.randn(5, 3), torch.tensor([0, 2, 4]))


def probe_summed():
    return summed, (torch.randn(4),)


def probe_typed():
    return typed, (torch.randn(4),)


def probe_sized():
    return sized, (torch.randn(5, 3), torch.tensor([0, 2, 4]))


def probe_passed():
    return passed, (torch.randn(5, 3), torch.tensor([0, 2]), torch.empty(2, 3))


def probe_rebound():
    return rebound, (torch.randn(5, 3), torch.tensor([0, 2]))
