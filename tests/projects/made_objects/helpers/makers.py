import torch


class Counter:
    def count(self, x: torch.Tensor):
        print("counting")
        return x * 3


def make_counter():
    return Counter()
