"""egnn-pytorch (E(n)-equivariant graph networks), tiny layers with random weights on random
point clouds (nothing is downloaded). The dense layer on all pairs, with a node mask, with
nearest neighbours (a top-k over distances, masked, within a radius), with neighbours taken
from a sparse adjacency matrix only (their number read from the matrix), with edge features,
Fourier distance features, soft edges, mean pooling and clamped coordinate weights; the
network over token ids with positions, edge tokens, N-degree adjacency embeddings and global
linear attention; and the sparse layer and network over an edge index (torch_geometric's
message passing, batched clouds; the sparse network with edge features: it needs
them, and its global attention does not run in this version)."""

import torch
from egnn_pytorch import EGNN, EGNN_Network, EGNN_Sparse, EGNN_Sparse_Network

PACKAGES = ("egnn_pytorch",)
MODES = ("eval", "train")

_BATCH = 2
_NODES = 8
_DIM = 8


def _cloud(dim: int = _DIM):
    return torch.randn(_BATCH, _NODES, dim), torch.randn(_BATCH, _NODES, 3)


def _mask() -> torch.Tensor:
    mask = torch.ones(_BATCH, _NODES).bool()
    mask[1, -3:] = False
    return mask


def _chain_adjacency() -> torch.Tensor:
    # A chain: each node bonded to the next one.
    index = torch.arange(_NODES)
    return (index[:, None] - index[None, :]).abs() == 1


def build_egnn_dense():
    return EGNN(dim=_DIM), _cloud()


def build_egnn_masked_mean():
    layer = EGNN(dim=_DIM, m_pool_method="mean", norm_feats=True, norm_coors=True)
    return layer, _cloud(), {"mask": _mask()}


def build_egnn_nearest_neighbours():
    layer = EGNN(dim=_DIM, num_nearest_neighbors=3, valid_radius=4.0, soft_edges=True)
    return layer, _cloud(), {"mask": _mask()}


def build_egnn_sparse_neighbours_only():
    layer = EGNN(dim=_DIM, only_sparse_neighbors=True)
    return layer, _cloud(), {"adj_mat": _chain_adjacency()}


def build_egnn_edges_fourier():
    layer = EGNN(
        dim=_DIM, edge_dim=4, fourier_features=2, coor_weights_clamp_value=2.0, dropout=0.1
    )
    return layer, _cloud(), {"edges": torch.randn(_BATCH, _NODES, _NODES, 4)}


def build_egnn_features_only():
    return EGNN(dim=_DIM, update_coors=False), _cloud()


def build_network_tokens_positions():
    network = EGNN_Network(
        num_tokens=10, num_positions=_NODES, dim=_DIM, depth=2, num_nearest_neighbors=4
    )
    tokens = torch.randint(0, 10, (_BATCH, _NODES))
    return network, (tokens, torch.randn(_BATCH, _NODES, 3)), {"mask": _mask()}


def build_network_adjacency_degrees():
    network = EGNN_Network(
        num_tokens=10,
        num_edge_tokens=3,
        edge_dim=4,
        dim=_DIM,
        depth=2,
        num_adj_degrees=3,
        adj_dim=2,
    )
    tokens = torch.randint(0, 10, (_BATCH, _NODES))
    edges = torch.randint(0, 3, (_BATCH, _NODES, _NODES))
    arguments = (tokens, torch.randn(_BATCH, _NODES, 3))
    return network, arguments, {"edges": edges, "adj_mat": _chain_adjacency()}


def build_network_global_attention():
    network = EGNN_Network(
        dim=_DIM,
        depth=2,
        global_linear_attn_every=1,
        global_linear_attn_heads=2,
        global_linear_attn_dim_head=4,
        num_global_tokens=2,
    )
    return network, _cloud(), {"mask": _mask(), "return_coor_changes": True}


def _graph():
    # Two clouds of four points, each a ring; x holds coordinates first, then features.
    x = torch.randn(_NODES, 3 + _DIM)
    source = torch.tensor([0, 1, 2, 3, 4, 5, 6, 7])
    target = torch.tensor([1, 2, 3, 0, 5, 6, 7, 4])
    edge_index = torch.stack([torch.cat([source, target]), torch.cat([target, source])])
    batch = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
    return x, edge_index, batch


def build_sparse_layer():
    x, edge_index, batch = _graph()
    return (
        EGNN_Sparse(feats_dim=_DIM, m_dim=8, fourier_features=2),
        (x, edge_index),
        {"batch": batch},
    )


def build_sparse_layer_soft_edges_mean():
    x, edge_index, batch = _graph()
    layer = EGNN_Sparse(feats_dim=_DIM, m_dim=8, soft_edge=1, norm_feats=True, aggr="mean")
    return layer, (x, edge_index), {"batch": batch}


def build_sparse_network():
    x, edge_index, batch = _graph()
    network = EGNN_Sparse_Network(n_layers=2, feats_dim=_DIM, m_dim=8, edge_attr_dim=2)
    return network, (x, edge_index, batch, torch.randn(edge_index.shape[1], 2))
