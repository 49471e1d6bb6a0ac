import torch


class Jagged:
    def __init__(self, values: torch.Tensor, lengths: torch.Tensor):
        self.values = values
        self.lengths = lengths

    def first(self):
        end = self.lengths[0]
        return self.values[:end]
