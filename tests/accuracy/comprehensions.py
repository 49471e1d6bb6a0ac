"""After a graph break, a comprehension that yields one of the function's tensors as it is
while iterating a list or a dict makes Dynamo skip the rest of the function."""

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


def unbroken(x, names: dict):
    y = x * 2
    return {name: y for name in names.keys()}


compiled_per_label = torch.compile(per_label)
compiled_per_name = torch.compile(per_name)
compiled_computed = torch.compile(computed)
compiled_unbroken = torch.compile(unbroken)


def probe_tolist_then_comprehension():
    return per_label, (torch.randn(4, 3), torch.tensor([0, 1, 1, 2]))


def probe_break_then_comprehension():
    return per_name, (torch.randn(4, 3), {"q": 1, "k": 2})


def probe_comprehensions_that_compute():
    return computed, (torch.randn(4, 3), {"q": 1, "k": 2})


def probe_comprehension_without_a_break():
    return unbroken, (torch.randn(4, 3), {"q": 1, "k": 2})
