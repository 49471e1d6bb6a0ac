import torch
from torch import nn


class GraphConv(nn.Module):
    def __init__(self, features, hidden):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features, hidden))

    def forward(self, x, adj):
        support = torch.mm(x, self.weight)
        output = torch.spmm(adj, support)
        print("spread", output.shape)
        return output


def dense_spread(x, weights):
    # `torch.mm`: no sparse matrix
    return torch.mm(weights, x)
