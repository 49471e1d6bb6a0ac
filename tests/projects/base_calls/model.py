from torch import nn

from layers.checked import CheckedLinear
from layers.prepped import Prepped


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre = Prepped()
        self.lin = CheckedLinear(3, 3)

    def forward(self, x):
        return self.lin(self.pre(x))
