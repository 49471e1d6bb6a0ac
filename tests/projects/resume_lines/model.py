import torch
from graphs import neighbours
from scales import Scaled


class Net(Scaled):
    def __init__(self):
        super().__init__()
        self.basis = 10

    def forward(self, data):
        index = neighbours(data["x"])
        lengths = index.float().norm(dim=1)
        # A method call on a line after its object's: Dynamo 2.13 numbers the lines after
        # it 4 too far in the function it resumes in after the break above.
        embedding = torch.sin(
            lengths
            * 2.0
            + 1.0
        ).mul(super().scale())
        return embedding.sum(0) * int(index.max())


class Head(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width
