"""zuko (normalizing flows as lazy `torch.distributions`, research code), tiny, random weights
(nothing is downloaded), on random data and contexts from `torch.randn`. Flows are used as
zuko's users use them: `flow(context)` builds a distribution; in eval mode samples are drawn
from it with their log density, in train mode the negative log likelihood of data is the loss.
Autoregressive (MAF, neural spline, circular spline, sum-of-squares and Bernstein
polynomial, neural and unconstrained neural autoregressive), coupling (NICE, RealNVP),
Gaussianization flows, a continuous flow (FFJORD on zuko's own adaptive ODE solver), Gaussian
mixtures, and a Bayesian wrapper sampling a flow's weights."""

import torch
import zuko
from zuko.bayesian import BayesianModel
from zuko.distributions import NormalizingFlow
from zuko.mixtures import GMM

PACKAGES = ("zuko",)
MODES = ("eval", "train")

_FEATURES = 3
_CONTEXT = 4
_BATCH = 6
_HIDDEN = {"hidden_features": (16, 16)}


class _FlowUse(torch.nn.Module):
    """eval: samples and their log density; train: the negative log likelihood of data."""

    def __init__(self, flow):
        super().__init__()
        self.flow = flow

    def forward(self, data, context=None):
        distribution = self.flow() if context is None else self.flow(context)
        if self.training:
            return -distribution.log_prob(data).mean()
        shape = (data.size(0),) if context is None else ()
        if isinstance(distribution, NormalizingFlow):
            return distribution.rsample_and_log_prob(shape)
        samples = distribution.sample(shape)
        return samples, distribution.log_prob(samples)


def _conditional(flow):
    return _FlowUse(flow), (torch.randn(_BATCH, _FEATURES), torch.randn(_BATCH, _CONTEXT))


def _unconditional(flow):
    return _FlowUse(flow), (torch.randn(_BATCH, _FEATURES),)


def build_maf():
    return _conditional(zuko.flows.MAF(_FEATURES, _CONTEXT, transforms=3, **_HIDDEN))


def build_maf_passes_residual():
    # Coupling-like passes and residual networks inside the autoregressive transform.
    flow = zuko.flows.MAF(_FEATURES, _CONTEXT, transforms=2, passes=2, residual=True, **_HIDDEN)
    return _conditional(flow)


def build_neural_spline():
    return _conditional(zuko.flows.NSF(_FEATURES, _CONTEXT, bins=6, transforms=2, **_HIDDEN))


def build_neural_circular_spline():
    return _unconditional(zuko.flows.NCSF(_FEATURES, bins=6, transforms=2, **_HIDDEN))


def build_sum_of_squares_polynomial():
    return _conditional(zuko.flows.SOSPF(_FEATURES, _CONTEXT, degree=3, polynomials=2, **_HIDDEN))


def build_bernstein_polynomial():
    return _unconditional(zuko.flows.BPF(_FEATURES, degree=8, transforms=2, **_HIDDEN))


def build_neural_autoregressive():
    # Inverted by bisection when sampling.
    flow = zuko.flows.NAF(
        _FEATURES, _CONTEXT, transforms=2, signal=4, network={"hidden_features": (8,)}
    )
    return _conditional(flow)


def build_unconstrained_neural_autoregressive():
    # Its inverse integrates the network numerically inside a bisection: one transform.
    flow = zuko.flows.UNAF(
        _FEATURES, _CONTEXT, transforms=1, signal=2, network={"hidden_features": (8,)}
    )
    return _conditional(flow)


def build_nice():
    return _conditional(zuko.flows.NICE(_FEATURES, _CONTEXT, transforms=3, **_HIDDEN))


def build_realnvp_unconditional():
    return _unconditional(zuko.flows.RealNVP(_FEATURES, transforms=3, **_HIDDEN))


def build_gaussianization():
    return _conditional(zuko.flows.GF(_FEATURES, _CONTEXT, transforms=2, components=4, **_HIDDEN))


def build_continuous_ffjord():
    flow = zuko.flows.CNF(_FEATURES, _CONTEXT, atol=1e-3, rtol=1e-3, **_HIDDEN)
    return _conditional(flow)


def build_gaussian_mixture():
    return _conditional(GMM(_FEATURES, _CONTEXT, components=3, **_HIDDEN))


def build_gaussian_mixture_diagonal_tied():
    mixture = GMM(_FEATURES, components=3, covariance_type="diagonal", tied=True)
    return _unconditional(mixture)


class _BayesianFlow(torch.nn.Module):
    """One draw of a flow's weights from their variational posterior, then the flow's loss and
    the weights' KL divergence to the prior."""

    def __init__(self) -> None:
        super().__init__()
        self.bayesian = BayesianModel(zuko.flows.MAF(_FEATURES, _CONTEXT, transforms=2, **_HIDDEN))

    def forward(self, data, context):
        with self.bayesian.reparameterize() as flow:
            loss = -flow(context).log_prob(data).mean()
        return loss + 1e-3 * self.bayesian.kl_divergence()


def build_bayesian_flow():
    return _BayesianFlow(), (torch.randn(_BATCH, _FEATURES), torch.randn(_BATCH, _CONTEXT))
