import torch

from layers.scales import Counter, Scale, Stepped


def prepare(x: torch.Tensor):
    stepped = Stepped(0.5)
    plain = Scale(2.0)
    counter = Counter(0)
    print("prepared")
    return stepped.step(x) * plain.factor + counter.count
