import torch

from layers.scales import Counter, Offset, Scale, Stepped


def prepare(x: torch.Tensor):
    stepped = Stepped(0.5)
    plain = Scale(2.0)
    counter = Counter(0)
    print("prepared")
    return stepped.step(x) * plain.factor + counter.count


def offset_steps(x: torch.Tensor) -> torch.Tensor:
    offset = Offset(1.0)  # traced in the first graph: the break below splits the frame first
    n = x.sum().item()
    for _ in range(2):
        print("step")
        x = x + offset.shift
    return x * n
