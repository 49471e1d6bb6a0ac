"""torch-geometric (PyG): graph networks, tiny, random weights, on random graphs (node features
from `torch.randn`, edges from `torch.randint`, two graphs per batch): the basic GNN models
(GCN, GAT and GATv2 with edge features, GraphSAGE, GIN with jumping knowledge, EdgeCNN),
message-passing layers (PointNet, graph transformer, relational GCN, PNA, a DeepGCN block),
readouts and pooling (a `Sequential` GCN with a global mean pool, Set2Set, attentional
aggregation, top-k pooling), the GPS graph transformer and an MLP. (SchNet,
DimeNet and knn-graph models were left out: their radius and knn graphs need pyg-lib's
compiled ops, which the CPU environment does not have; Graph U-Net, because Dynamo fails on its
sparse CSR adjacency with an IndexError.)"""

import torch
from torch_geometric.nn import (
    GCNConv,
    GENConv,
    GINConv,
    GPSConv,
    PNAConv,
    PointNetConv,
    RGCNConv,
    Sequential,
    TopKPooling,
    TransformerConv,
    global_mean_pool,
)
from torch_geometric.nn.aggr import AttentionalAggregation, Set2Set
from torch_geometric.nn.models import (
    GAT,
    GCN,
    GIN,
    MLP,
    DeepGCNLayer,
    EdgeCNN,
    GraphSAGE,
)
from torch_geometric.utils import degree

PACKAGES = ("torch_geometric",)
MODES = ("eval", "train")

_NODES = 12  # per graph
_EDGES = 40  # per graph
_FEATURES = 8
_HIDDEN = 16
_CLASSES = 4
_EDGE_FEATURES = 3


def _edge_index() -> torch.Tensor:
    """Two graphs of _NODES nodes each, batched as PyG batches them: one node range per graph."""
    first = torch.randint(0, _NODES, (2, _EDGES))
    return torch.cat([first, torch.randint(0, _NODES, (2, _EDGES)) + _NODES], dim=1)


def _nodes() -> torch.Tensor:
    return torch.randn(2 * _NODES, _FEATURES)


def _batch() -> torch.Tensor:
    return torch.arange(2).repeat_interleave(_NODES)


def build_gcn():
    model = GCN(_FEATURES, _HIDDEN, num_layers=2, out_channels=_CLASSES, dropout=0.5)
    return model, (_nodes(), _edge_index())


def build_gat():
    model = GAT(_FEATURES, _HIDDEN, num_layers=2, out_channels=_CLASSES, heads=2, dropout=0.5)
    return model, (_nodes(), _edge_index())


def build_gatv2_edge_features():
    model = GAT(
        _FEATURES,
        _HIDDEN,
        num_layers=2,
        out_channels=_CLASSES,
        v2=True,
        heads=2,
        edge_dim=_EDGE_FEATURES,
    )
    edge_attr = torch.randn(2 * _EDGES, _EDGE_FEATURES)
    return model, (_nodes(), _edge_index()), {"edge_attr": edge_attr}


def build_graph_sage():
    model = GraphSAGE(_FEATURES, _HIDDEN, num_layers=2, out_channels=_CLASSES, aggr="max")
    return model, (_nodes(), _edge_index())


def build_gin_jumping_knowledge():
    model = GIN(_FEATURES, _HIDDEN, num_layers=3, out_channels=_CLASSES, jk="cat", norm="batch")
    return model, (_nodes(), _edge_index())


def build_edge_cnn():
    return EdgeCNN(_FEATURES, _HIDDEN, num_layers=2, out_channels=_CLASSES), (
        _nodes(),
        _edge_index(),
    )


def build_mlp():
    model = MLP([_FEATURES, _HIDDEN, _HIDDEN, _CLASSES], dropout=0.2, norm="layer_norm")
    return model, (_nodes(),)


def build_pointnet_conv():
    local_nn = MLP([_FEATURES + 3, _HIDDEN, _HIDDEN])
    global_nn = MLP([_HIDDEN, _CLASSES])
    model = PointNetConv(local_nn, global_nn)
    return model, (_nodes(), torch.randn(2 * _NODES, 3), _edge_index())


def build_transformer_conv():
    model = TransformerConv(_FEATURES, _HIDDEN, heads=2, edge_dim=_EDGE_FEATURES, beta=True)
    edge_attr = torch.randn(2 * _EDGES, _EDGE_FEATURES)
    return model, (_nodes(), _edge_index(), edge_attr)


def build_rgcn():
    model = RGCNConv(_FEATURES, _HIDDEN, num_relations=3, num_bases=2)
    edge_type = torch.randint(0, 3, (2 * _EDGES,))
    return model, (_nodes(), _edge_index(), edge_type)


def build_pna():
    edge_index = _edge_index()
    in_degree = degree(edge_index[1], num_nodes=2 * _NODES, dtype=torch.long)
    histogram = torch.bincount(in_degree)
    model = PNAConv(
        _FEATURES,
        _HIDDEN,
        aggregators=["mean", "min", "max", "std"],
        scalers=["identity", "amplification", "attenuation"],
        deg=histogram,
        edge_dim=_EDGE_FEATURES,
        towers=2,
    )
    return model, (_nodes(), edge_index, torch.randn(2 * _EDGES, _EDGE_FEATURES))


def build_deep_gcn_layer():
    conv = GENConv(_FEATURES, _FEATURES, aggr="softmax", t=1.0, learn_t=True, num_layers=2)
    norm = torch.nn.LayerNorm(_FEATURES)
    layer = DeepGCNLayer(conv, norm, torch.nn.ReLU(), block="res+", dropout=0.1)
    return layer, (_nodes(), _edge_index())


def build_gcn_mean_pool_readout():
    model = Sequential(
        "x, edge_index, batch",
        [
            (GCNConv(_FEATURES, _HIDDEN), "x, edge_index -> x"),
            torch.nn.ReLU(inplace=True),
            (GCNConv(_HIDDEN, _HIDDEN), "x, edge_index -> x"),
            (global_mean_pool, "x, batch -> x"),
            torch.nn.Linear(_HIDDEN, _CLASSES),
        ],
    )
    return model, (_nodes(), _edge_index(), _batch())


def build_set2set():
    return Set2Set(_FEATURES, processing_steps=2), (_nodes(), _batch())


def build_attentional_aggregation():
    gate = MLP([_FEATURES, _HIDDEN, 1])
    features = MLP([_FEATURES, _HIDDEN, _HIDDEN])
    return AttentionalAggregation(gate, features), (_nodes(), _batch())


def build_topk_pooling():
    model = TopKPooling(_FEATURES, ratio=0.5)
    return model, (_nodes(), _edge_index()), {"batch": _batch()}


def build_gps():
    local = GINConv(MLP([_HIDDEN, _HIDDEN, _HIDDEN]))
    model = GPSConv(_HIDDEN, local, heads=2, dropout=0.1, attn_type="multihead")
    return model, (torch.randn(2 * _NODES, _HIDDEN), _edge_index(), _batch())
