"""neuraloperator (neural operators for PDEs: Fourier layers over FFTs, research code), tiny models
with random weights on random fields from `torch.randn` (nothing is downloaded): Fourier neural
operators in one, two and three dimensions (dense, Tucker-, CP- and tensor-train-factorised
spectral weights, separable, with domain padding, adaptive instance normalisation, mixed
precision blocks, complex data, resolution scaling), the U-shaped operator, the uncertainty
quantifying wrapper, the graph-informed operators over point clouds (GINO, FNO-GNO), the
codomain attention operator (CODANO), and the losses a training step computes (relative Lp, H1
with finite differences, their weighted sum)."""

import torch
from neuralop.losses import H1Loss, LpLoss, WeightedSumLoss
from neuralop.models import CODANO, FNO, FNOGNO, GINO, TFNO, UNO, UQNO

PACKAGES = ("neuralop",)
MODES = ("eval",)

_BATCH = 2
_SIZE = 16


def _field(channels: int, *sizes: int) -> torch.Tensor:
    return torch.randn(_BATCH, channels, *sizes)


def _fno_2d(model=FNO, **options):
    """A two-layer operator on three input fields; `options` are what the probe varies."""
    model = model(
        n_modes=(6, 6), in_channels=3, out_channels=1, hidden_channels=8, n_layers=2, **options
    )
    return model, (_field(3, _SIZE, _SIZE),)


def _fno_1d(**options):
    model = FNO(
        n_modes=(8,), in_channels=2, out_channels=1, hidden_channels=8, n_layers=2, **options
    )
    return model, (_field(2, _SIZE),)


def build_fno_1d():
    return _fno_1d()


def build_fno_2d():
    return _fno_2d()


def build_fno_3d():
    model = FNO(n_modes=(4, 4, 4), in_channels=1, out_channels=1, hidden_channels=4, n_layers=1)
    return model, (_field(1, 8, 8, 8),)


def build_tucker_fno():
    return _fno_2d(TFNO, factorization="tucker", rank=0.4)


def build_cp_fno_reconstructed():
    return _fno_2d(factorization="cp", rank=0.5, implementation="reconstructed")


def build_tensor_train_fno():
    return _fno_1d(factorization="tt", rank=0.5)


def build_separable_preactivation_fno():
    return _fno_2d(separable=True, preactivation=True, channel_mlp_skip="linear")


def build_fno_domain_padding_group_norm():
    return _fno_2d(domain_padding=0.25, norm="group_norm")


def build_fno_resolution_scaling():
    return _fno_2d(resolution_scaling_factor=[1.0, 2.0])


def build_fno_tanh_stabilizer():
    return _fno_2d(stabilizer="tanh")


def build_fno_complex_data():
    model, _ = _fno_1d(complex_data=True, positional_embedding=None)
    return model, (torch.randn(_BATCH, 2, _SIZE, dtype=torch.cfloat),)


def build_u_shaped_operator():
    model = UNO(
        3,
        3,
        8,
        uno_out_channels=[8, 16, 8],
        uno_n_modes=[[4, 4], [4, 4], [4, 4]],
        uno_scalings=[[1.0, 1.0], [0.5, 0.5], [2, 2]],
        horizontal_skips_map={2: 0},
        n_layers=3,
        domain_padding=0.2,
        channel_mlp_skip="linear",
    )
    return model, (_field(3, _SIZE, _SIZE),)


def build_uncertainty_quantified_fno():
    def fno():
        return FNO(n_modes=(6, 6), in_channels=3, out_channels=1, hidden_channels=8, n_layers=1)

    return UQNO(base_model=fno(), residual_model=fno()), (_field(3, _SIZE, _SIZE),)


def build_graph_informed_operator():
    model = GINO(
        in_channels=3,
        out_channels=2,
        in_gno_radius=0.3,
        out_gno_radius=0.3,
        gno_coord_dim=2,
        in_gno_channel_mlp_hidden_layers=[8],
        out_gno_channel_mlp_hidden_layers=[8],
        fno_n_modes=(4, 4),
        fno_hidden_channels=8,
        fno_n_layers=2,
    )
    grid = torch.stack(torch.meshgrid([torch.linspace(0, 1, 8)] * 2, indexing="xy"), -1)
    kwargs = {
        "input_geom": torch.rand(40, 2),
        "latent_queries": grid,
        "output_queries": torch.rand(30, 2),
        "x": torch.randn(1, 40, 3),
    }
    return model, (), kwargs


def build_fno_graph_operator():
    model = FNOGNO(
        in_channels=3,
        out_channels=2,
        gno_radius=0.2,
        gno_coord_dim=2,
        gno_transform_type="nonlinear",
        fno_n_modes=(4, 4),
        fno_hidden_channels=8,
        fno_n_layers=2,
        gno_use_open3d=False,
    )
    points = torch.stack(torch.meshgrid([torch.linspace(0, 1, 8)] * 2, indexing="xy"), -1)
    return model, (points, torch.rand(30, 2), torch.randn(8, 8, 3))


def build_codomain_attention_operator():
    model = CODANO(
        output_variable_codimension=1,
        hidden_variable_codimension=2,
        lifting_channels=4,
        use_positional_encoding=True,
        positional_encoding_dim=2,
        positional_encoding_modes=[4, 4],
        use_horizontal_skip_connection=True,
        static_channel_dim=0,
        horizontal_skips_map={2: 0},
        variable_ids=["a", "b"],
        n_layers=3,
        n_heads=[2, 2, 2],
        n_modes=[[4, 4]] * 3,
        attention_scaling_factors=[0.5] * 3,
        per_layer_scaling_factors=[[1, 1], [0.5, 0.5], [2, 2]],
        enable_cls_token=False,
    )
    return model, (torch.randn(_BATCH, 2, _SIZE, _SIZE), None, ["a", "b"])


class _TrainingLoss(torch.nn.Module):
    """A model's prediction scored against a target, as the library's Trainer does."""

    def __init__(self, model, loss):
        super().__init__()
        self.model = model
        self.loss = loss

    def forward(self, field, target):
        return self.loss(self.model(field), target)


def _loss_probe(loss):
    model = FNO(n_modes=(6, 6), in_channels=3, out_channels=1, hidden_channels=8, n_layers=1)
    return _TrainingLoss(model, loss), (_field(3, _SIZE, _SIZE), _field(1, _SIZE, _SIZE))


def build_relative_lp_loss():
    return _loss_probe(LpLoss(d=2, p=2))


def build_h1_loss():
    return _loss_probe(H1Loss(d=2))


def build_weighted_sum_loss():
    return _loss_probe(WeightedSumLoss([LpLoss(d=2, p=2), H1Loss(d=2)], weights=[1.0, 0.5]))
