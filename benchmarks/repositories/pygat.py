import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from layers import GraphAttentionLayer, SpGraphAttentionLayer
from models import GAT, SpGAT

NODES, FEATURES = 10, 6


def _graph():
    adjacency = (torch.rand(NODES, NODES) > 0.6).float()
    adjacency = ((adjacency + adjacency.t() + torch.eye(NODES)) > 0).float()
    return torch.randn(NODES, FEATURES), adjacency


def probe_gat_train():
    return GAT(FEATURES, 8, 3, dropout=0.1, alpha=0.2, nheads=2).train(), _graph()


def probe_gat_eval():
    return GAT(FEATURES, 8, 3, dropout=0.1, alpha=0.2, nheads=2).eval(), _graph()


def probe_sparse_gat_train():
    return SpGAT(FEATURES, 8, 3, dropout=0.1, alpha=0.2, nheads=2).train(), _graph()


def probe_attention_layer():
    return GraphAttentionLayer(FEATURES, 8, dropout=0.1, alpha=0.2).eval(), _graph()


def probe_sparse_attention_layer():
    return SpGraphAttentionLayer(FEATURES, 8, dropout=0.1, alpha=0.2).eval(), _graph()
