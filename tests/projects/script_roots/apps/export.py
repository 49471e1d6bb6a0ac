import torch
from lib.ops import project  # the repository run from its root: `lib` is a package there
from model import head  # apps/model.py, beside this script (not models/model.py)
from models.model import Block  # a folder that is no package, under the repository's root


class Exporter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x: torch.Tensor):
        return project(self.block(head(x)))
