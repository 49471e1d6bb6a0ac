"""normflows (normalizing flows, research code), tiny, random weights (nothing is downloaded),
on random samples from `torch.randn`. Flows are driven the two ways the library's examples
drive them: in eval mode the log density of data, or samples drawn from the model; in train
mode the loss (forward KL divergence on data, reverse KL divergence against a target
density). RealNVP (masked affine coupling with ActNorm), masked autoregressive flows, neural
spline flows (coupling and autoregressive, with LU permutations), circular splines on a
torus, residual flows (Lipschitz networks, power series log-determinant), planar and radial
flows, a class-conditional multiscale Glow on tiny images, a conditional flow, batch norm
flows, and Metropolis-Hastings steps inside a flow."""

import normflows as nf
import torch

PACKAGES = ("normflows",)
MODES = ("eval", "train")

_DIMS = 4
_BATCH = 8


def _data(dims: int = _DIMS) -> torch.Tensor:
    return torch.randn(_BATCH, dims)


def _driven(mode, model, data, *extra):
    # eval: the log density of data; train: the forward KL divergence (the training loss).
    if mode == "train":
        return model.forward_kld, (data, *extra)
    return model.log_prob, (data, *extra)


def _coupling_mlp(dims: int, zero_init: bool) -> nf.nets.MLP:
    return nf.nets.MLP([dims, 16, dims], init_zeros=zero_init)


def build_real_nvp(mode):
    mask = torch.tensor([1.0, 0.0] * (_DIMS // 2))
    flows = []
    for index in range(4):
        scale = _coupling_mlp(_DIMS, zero_init=True)
        shift = _coupling_mlp(_DIMS, zero_init=True)
        flows += [nf.flows.MaskedAffineFlow(mask if index % 2 else 1 - mask, shift, scale)]
        flows += [nf.flows.ActNorm(_DIMS)]
    model = nf.NormalizingFlow(nf.distributions.DiagGaussian(_DIMS), flows)
    return _driven(mode, model, _data())


def build_masked_autoregressive(mode):
    flows = []
    for _ in range(3):
        flows += [nf.flows.MaskedAffineAutoregressive(_DIMS, 16, num_blocks=2)]
        flows += [nf.flows.Permute(_DIMS, mode="swap")]
    model = nf.NormalizingFlow(nf.distributions.DiagGaussian(_DIMS), flows)
    return _driven(mode, model, _data())


def build_neural_spline_coupling(mode):
    flows = []
    for _ in range(2):
        flows += [nf.flows.CoupledRationalQuadraticSpline(_DIMS, 2, 16, num_bins=6)]
        flows += [nf.flows.LULinearPermute(_DIMS)]
    model = nf.NormalizingFlow(nf.distributions.DiagGaussian(_DIMS, trainable=False), flows)
    return _driven(mode, model, _data())


def build_neural_spline_autoregressive(mode):
    flows = [nf.flows.AutoregressiveRationalQuadraticSpline(_DIMS, 2, 16, num_bins=6)]
    flows += [nf.flows.LULinearPermute(_DIMS)]
    model = nf.NormalizingFlow(nf.distributions.DiagGaussian(_DIMS), flows)
    return _driven(mode, model, _data())


def build_circular_spline_torus(mode):
    # Two angles on [-pi, pi) and one real coordinate.
    dims, circular = 3, [0, 1]
    base = nf.distributions.UniformGaussian(dims, circular, torch.tensor([1.0, 1.0, 2 * torch.pi]))
    flows = []
    for index in range(2):
        flows += [
            nf.flows.CircularAutoregressiveRationalQuadraticSpline(
                dims, 1, 16, circular, tail_bound=torch.tensor([torch.pi, torch.pi, 5.0])
            ),
            nf.flows.PeriodicShift(circular, bound=torch.pi, shift=0.5 * index),
        ]
    model = nf.NormalizingFlow(base, flows)
    data = torch.cat([torch.rand(_BATCH, 2) * 2 * torch.pi - torch.pi, torch.randn(_BATCH, 1)], 1)
    return _driven(mode, model, data)


def build_residual_flow(mode):
    flows = []
    for _ in range(2):
        network = nf.nets.LipschitzMLP([_DIMS, 16, _DIMS], init_zeros=True, lipschitz_const=0.9)
        flows += [nf.flows.Residual(network, reduce_memory=True), nf.flows.ActNorm(_DIMS)]
    model = nf.NormalizingFlow(nf.distributions.DiagGaussian(_DIMS), flows)
    return _driven(mode, model, _data())


def build_planar_radial_reverse_kl(mode):
    # Variational inference against an unnormalised target: samples from the flow.
    flows = [nf.flows.Planar((2,)) for _ in range(3)] + [nf.flows.Radial((2,)) for _ in range(2)]
    model = nf.NormalizingFlow(nf.distributions.DiagGaussian(2), flows, nf.distributions.TwoMoons())
    if mode == "train":
        return model.reverse_kld, (), {"num_samples": _BATCH}
    return model.sample, (_BATCH,)


def build_glow_multiscale(mode):
    levels, blocks, channels, size, classes = 2, 2, 1, 8, 3
    base, flows, merges = [], [], []
    for level in range(levels):
        flows += [
            [
                nf.flows.GlowBlock(channels * 2 ** (levels + 1 - level), 8, split_mode="channel")
                for _ in range(blocks)
            ]
            + [nf.flows.Squeeze()]
        ]
        if level > 0:
            merges += [nf.flows.Merge()]
            scale = 2 ** (levels - level)
            latent = (channels * scale, size // scale, size // scale)
        else:
            latent = (channels * 2 ** (levels + 1), size // 2**levels, size // 2**levels)
        base += [nf.distributions.ClassCondDiagGaussian(latent, classes)]
    model = nf.MultiscaleFlow(base, flows, merges)
    images = torch.rand(2, channels, size, size)
    labels = torch.tensor([0, 2])
    return _driven(mode, model, images, labels)


def build_conditional_spline(mode):
    context = 3
    flows = [
        nf.flows.AutoregressiveRationalQuadraticSpline(
            _DIMS, 2, 16, num_context_channels=context, num_bins=6
        ),
        nf.flows.LULinearPermute(_DIMS),
    ]
    model = nf.ConditionalNormalizingFlow(nf.distributions.DiagGaussian(_DIMS), flows)
    return _driven(mode, model, _data(), torch.randn(_BATCH, context))


def build_batch_norm_affine_coupling(mode):
    # BatchNorm has no inverse: the flow is only sampled from (reverse KL in training), and its
    # statistics are batch estimates in train mode, running ones in eval mode.
    flows = []
    for _ in range(2):
        network = nf.nets.MLP([1, 16, 2], init_zeros=True)
        flows += [nf.flows.AffineCouplingBlock(network), nf.flows.BatchNorm()]
        flows += [nf.flows.Permute(2)]
    model = nf.NormalizingFlow(nf.distributions.DiagGaussian(2), flows, nf.distributions.TwoMoons())
    if mode == "train":
        return model.reverse_kld, (), {"num_samples": _BATCH}
    return model.sample, (_BATCH,)


def build_metropolis_hastings_in_flow(mode):
    target = nf.distributions.TwoMoons()
    proposal = nf.distributions.DiagGaussianProposal((2,), 0.1)
    flows = [nf.flows.Planar((2,)), nf.flows.MetropolisHastings(target, proposal, steps=3)]
    model = nf.NormalizingFlow(nf.distributions.DiagGaussian(2), flows, target)
    if mode == "train":
        return model.reverse_alpha_div, (), {"num_samples": _BATCH, "alpha": 0.5}
    return model.sample, (_BATCH,)
