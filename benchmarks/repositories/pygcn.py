import os
import sys

import torch

# The repository installs a package `pygcn` (setup.py at its root).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pygcn.layers import GraphConvolution
from pygcn.models import GCN
from pygcn.utils import accuracy

NODES, FEATURES = 10, 6


def _graph(sparse=True):
    adjacency = (torch.rand(NODES, NODES) > 0.6).float() + torch.eye(NODES)
    adjacency = adjacency / adjacency.sum(1, keepdim=True)
    return torch.randn(NODES, FEATURES), adjacency.to_sparse() if sparse else adjacency


def probe_gcn_train():
    return GCN(FEATURES, 8, 3, dropout=0.5).train(), _graph()


def probe_gcn_eval_dense():
    return GCN(FEATURES, 8, 3, dropout=0.5).eval(), _graph(sparse=False)


def probe_graph_convolution():
    return GraphConvolution(FEATURES, 8).eval(), _graph()


def probe_accuracy():
    return accuracy, (torch.randn(NODES, 3).log_softmax(1), torch.randint(0, 3, (NODES,)))
