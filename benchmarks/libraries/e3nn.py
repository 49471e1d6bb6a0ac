"""e3nn (E(3)-equivariant neural networks, research code built on generated `torch.fx` code),
tiny, random weights (nothing is downloaded), on random point clouds, features and voxel grids
from `torch.randn`: the gated point-convolution networks (2101 with node attributes and graph
pooling, 2106's simple network and the network with edge attributes, both building their
radius graph inside `forward`), the voxel convolution, tensor products (fully connected with
weights from a radial network, elementwise, full, tensor square, the experimental full
product), linear maps between irreps, spherical harmonics, equivariant batch norm, gates,
norm activations, equivariant dropout, activations on the sphere and on SO(3) grids, and the
symmetric tensor reduction."""

import torch
from e3nn import nn, o3
from e3nn.nn.models.gate_points_2101 import Network
from e3nn.nn.models.v2103.voxel_convolution import Convolution as VoxelConvolution
from e3nn.nn.models.v2106.gate_points_networks import (
    NetworkForAGraphWithAttributes,
    SimpleNetwork,
)

PACKAGES = ("e3nn",)
MODES = ("eval", "train")

_NODES = 8
_FEATURES = o3.Irreps("4x0e + 2x1o")
_HIDDEN = o3.Irreps("4x0e + 4x0o + 2x1e + 2x1o")


def _points(graphs: int = 2):
    positions = torch.randn(_NODES, 3)
    batch = torch.arange(graphs).repeat_interleave(_NODES // graphs)
    return positions, batch


def _features(irreps: o3.Irreps, count: int = _NODES) -> torch.Tensor:
    return irreps.randn(count, -1)


def build_gate_points_2101():
    network = Network(
        irreps_in=_FEATURES,
        irreps_hidden=_HIDDEN,
        irreps_out="1o + 0e",
        irreps_node_attr="2x0e",
        irreps_edge_attr=o3.Irreps.spherical_harmonics(2),
        layers=2,
        max_radius=2.0,
        number_of_basis=5,
        radial_layers=1,
        radial_neurons=8,
        num_neighbors=3.0,
        num_nodes=4.0,
    )
    positions, batch = _points()
    data = {"pos": positions, "x": _features(_FEATURES), "z": torch.randn(_NODES, 2)}
    return network, (data | {"batch": batch},)


def build_simple_network():
    network = SimpleNetwork(
        "2x0e + 1x1o", "0e + 1o", max_radius=2.0, num_neighbors=3.0, num_nodes=4.0, mul=4, layers=2
    )
    positions, batch = _points()
    return network, ({"pos": positions, "x": _features(o3.Irreps("2x0e + 1x1o")), "batch": batch},)


def build_network_with_edge_attributes():
    network = NetworkForAGraphWithAttributes(
        irreps_node_input="0e + 1o",
        irreps_node_attr="2x0e",
        irreps_edge_attr="3x0e",
        irreps_node_output="0e",
        max_radius=2.0,
        num_neighbors=3.0,
        num_nodes=_NODES,
        mul=4,
        layers=1,
        lmax=1,
        pool_nodes=False,
    )
    positions, _ = _points(graphs=1)
    edges = torch.tensor([[0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6]])
    data = {
        "pos": positions,
        "node_input": _features(o3.Irreps("0e + 1o")),
        "node_attr": torch.randn(_NODES, 2),
        "edge_index": edges,
        "edge_attr": torch.randn(6, 3),
    }
    return network, (data,)


def build_voxel_convolution():
    convolution = VoxelConvolution("2x0e + 1x1o", "2x0e + 1x1e", irreps_sh="0e + 1o + 2e", size=3)
    # (batch, features, x, y, z)
    return convolution, (torch.randn(1, 5, 6, 6, 6),)


class _RadialTensorProduct(torch.nn.Module):
    """A tensor product whose weights a radial network computes per edge (a convolution's
    message)."""

    def __init__(self) -> None:
        super().__init__()
        sh = o3.Irreps.spherical_harmonics(2)
        self.product = o3.FullyConnectedTensorProduct(_FEATURES, sh, _HIDDEN, shared_weights=False)
        self.radial = nn.FullyConnectedNet([4, 16, self.product.weight_numel], torch.relu)
        self.sh = sh

    def forward(self, features, vectors):
        lengths = vectors.norm(dim=1, keepdim=True)
        embedding = torch.cat([lengths, lengths**2, torch.sin(lengths), torch.cos(lengths)], 1)
        harmonics = o3.spherical_harmonics(self.sh, vectors, normalize=True)
        return self.product(features, harmonics, self.radial(embedding))


def build_radial_tensor_product():
    return _RadialTensorProduct(), (_features(_FEATURES), torch.randn(_NODES, 3))


def build_elementwise_tensor_product():
    product = o3.ElementwiseTensorProduct("3x0e + 2x1o", "3x0e + 2x1e")
    return product, (_features(o3.Irreps("3x0e + 2x1o")), _features(o3.Irreps("3x0e + 2x1e")))


def build_full_tensor_product():
    product = o3.FullTensorProduct("2x0e + 1x1o", "1x1o + 1x2e")
    return product, (_features(o3.Irreps("2x0e + 1x1o")), _features(o3.Irreps("1x1o + 1x2e")))


def build_experimental_full_tensor_product():
    product = o3.FullTensorProductv2("2x0e + 1x1o", "1x1o + 1x2e")
    return product, (_features(o3.Irreps("2x0e + 1x1o")), _features(o3.Irreps("1x1o + 1x2e")))


def build_tensor_square():
    square = o3.TensorSquare("2x0e + 1x1o", "2x0e + 1x1e + 1x2e")
    return square, (_features(o3.Irreps("2x0e + 1x1o")),)


def build_linear_with_biases():
    linear = o3.Linear(_FEATURES, _HIDDEN, biases=True)
    return linear, (_features(_FEATURES),)


def build_spherical_harmonics():
    harmonics = o3.SphericalHarmonics([0, 1, 2, 3], normalize=True, normalization="integral")
    return harmonics, (torch.randn(_NODES, 3),)


def build_batch_norm_gate(mode):
    # Batch norm tracks running statistics in train mode and uses them in eval mode.
    irreps_scalars, irreps_gates, irreps_gated = o3.Irreps("4x0e"), o3.Irreps("2x0e"), "2x1o"
    gate = nn.Gate(irreps_scalars, [torch.tanh], irreps_gates, [torch.sigmoid], irreps_gated)
    network = torch.nn.Sequential(nn.BatchNorm(gate.irreps_in, instance=False), gate)
    return network, (_features(gate.irreps_in),)


def build_instance_norm_norm_activation():
    irreps = o3.Irreps("4x0e + 2x1o + 1x2e")
    network = torch.nn.Sequential(
        nn.BatchNorm(irreps, instance=True, reduce="max"),
        nn.NormActivation(irreps, torch.sigmoid, bias=True),
    )
    return network, (_features(irreps),)


def build_equivariant_dropout():
    network = torch.nn.Sequential(o3.Linear(_FEATURES, _HIDDEN), nn.Dropout(_HIDDEN, p=0.3))
    return network, (_features(_FEATURES),)


def build_sphere_activation():
    irreps = o3.Irreps.spherical_harmonics(2, p=1)
    activation = nn.S2Activation(irreps, torch.relu, res=12)
    return activation, (_features(irreps, 4),)


def build_so3_activation():
    activation = nn.SO3Activation(lmax_in=1, lmax_out=1, act=torch.relu, resolution=6)
    # One vector of the (2l+1)^2 Wigner coefficients per degree.
    return activation, (torch.randn(4, 1 + 9),)


def build_reduced_symmetric_tensor():
    reduction = o3.ReducedTensorProducts("ij=ji", i="1o")
    return reduction, (torch.randn(4, 3), torch.randn(4, 3))


def build_rotation_round_trip():
    def rotated_features(features, angles):
        alpha, beta, gamma = angles.unbind(-1)
        rotation = _FEATURES.D_from_angles(alpha, beta, gamma)
        back = o3.matrix_to_angles(o3.angles_to_matrix(alpha, beta, gamma))
        return features @ rotation.transpose(-1, -2), back

    return rotated_features, (_features(_FEATURES), torch.rand(3) * torch.pi)
