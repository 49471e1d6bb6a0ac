from torch import Tensor, nn


class Flow(nn.Module):
    def __init__(self, flows):
        super().__init__()
        self.flows = nn.ModuleList(flows)

    def forward(self, z: Tensor):
        for i in range(len(self.flows) - 1, -1, -1):
            z = self.flows[i].inverse(z)  # a method of an element, by index
        return z


class Chain(nn.Module):
    def __init__(self, steps):
        super().__init__()
        self.steps = list(steps)

    def forward(self, z: Tensor):
        for step in reversed(self.steps):
            z = step.step(z)  # a method of an element, iterated
        return z
