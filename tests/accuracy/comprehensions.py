"""After a graph break, a comprehension that yields one of the function's tensors as it is
while iterating a list or a dict makes Dynamo skip the rest of the function, where the rest
computes nothing on a tensor and breaks no more: Dynamo then runs it eagerly, and compiles the
comprehension as a frame of its own."""

import torch


def per_label(x, labels: torch.Tensor):
    y = x * 2
    return {k: y for k in labels.tolist()}  # BREAK BL103 BL203


def per_name(x, names: dict):
    y = x * 2
    print("heads")  # BREAK BL401
    return {name: (y, name) for name in names.keys()}  # BREAK BL203


def computed(x, names: dict):
    y = x * 2
    print("heads")  # BREAK BL401
    shifted = [y + n for n in names.values()]
    return shifted, tuple(y for _ in names), [y for _ in range(2)]


def sized(x, names: dict):
    y = x * 2
    print("heads")  # BREAK BL401
    heads = {name: y for name in names.keys()}  # BREAK BL203
    return heads, y.shape[0] + 1


def used_after(x, names: dict):
    y = x * 2
    print("heads")  # BREAK BL401
    heads = {name: y for name in names.keys()}
    return heads, y + 1


def broken_after(x, names: dict):
    y = x * 2
    print("heads")  # BREAK BL401
    heads = {name: y for name in names.keys()}
    print("done")  # BREAK BL401
    return heads


def unbroken(x, names: dict):
    y = x * 2
    return {name: y for name in names.keys()}


compiled_per_label = torch.compile(per_label)
compiled_per_name = torch.compile(per_name)
compiled_computed = torch.compile(computed)
compiled_unbroken = torch.compile(unbroken)
compiled_after = [torch.compile(f) for f in (sized, used_after, broken_after)]


def probe_tolist_then_comprehension():
    return per_label, (torch.randn(4, 3), torch.tensor([0, 1, 1, 2]))


def probe_break_then_comprehension():
    return per_name, (torch.randn(4, 3), {"q": 1, "k": 2})


def probe_comprehensions_that_compute():
    return computed, (torch.randn(4, 3), {"q": 1, "k": 2})


def probe_comprehension_without_a_break():
    return unbroken, (torch.randn(4, 3), {"q": 1, "k": 2})


def probe_comprehension_then_sizes():
    return sized, (torch.randn(4, 3), {"q": 1, "k": 2})


def probe_comprehension_then_arithmetic():
    return used_after, (torch.randn(4, 3), {"q": 1, "k": 2})


def probe_comprehension_then_break():
    return broken_after, (torch.randn(4, 3), {"q": 1, "k": 2})
