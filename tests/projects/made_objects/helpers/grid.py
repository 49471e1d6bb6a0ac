import torch


class Lookup:
    def find(self, x: torch.Tensor):
        if x.sum().item() > 0:
            return x * 2
        return x


class Plain:
    def find(self, x: torch.Tensor):
        return x + 1
