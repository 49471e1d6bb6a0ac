from torch import nn


class Block(nn.Module):
    def __init__(self, strategy):
        super().__init__()
        self.strategy = strategy
