"""Pyro (probabilistic programs on effect handlers), tiny models with random parameters
(nothing is downloaded), on random data from `torch.randn`. What a training or inference step
calls: variational losses (Trace_ELBO on a Bayesian regression with a plate and a hand-written
guide, a mean-field ELBO with an automatic guide, enumeration of a discrete mixture), a trace's
log joint, posterior predictive sampling, a Bayesian neural network of PyroModule layers,
normalizing flows as transformed distributions (affine and neural autoregressive, spline
coupling, planar; log densities and reparameterised samples), the autoregressive network on its
own, Gaussian process regression and a sparse one, distribution log densities (batched,
independent, zero-inflated, mixtures), and the library's tensor statistics."""

import pyro
import pyro.distributions as dist
import pyro.distributions.transforms as T
import torch
from pyro import poutine
from pyro.contrib import gp
from pyro.infer import SVI, Predictive, Trace_ELBO, TraceEnum_ELBO, TraceMeanField_ELBO, autoguide
from pyro.nn import AutoRegressiveNN, PyroModule, PyroSample

PACKAGES = ("pyro",)
MODES = ("eval",)

_BATCH = 16
_DIMS = 3


def _regression_data():
    features = torch.randn(_BATCH, _DIMS)
    return features, features @ torch.tensor([1.0, -2.0, 0.5]) + 0.1 * torch.randn(_BATCH)


def _regression_model(features, targets=None):
    weight = pyro.sample("weight", dist.Normal(torch.zeros(_DIMS), 1.0).to_event(1))
    bias = pyro.sample("bias", dist.Normal(0.0, 1.0))
    noise = pyro.sample("noise", dist.HalfNormal(1.0))
    with pyro.plate("data", features.shape[0]):
        return pyro.sample("y", dist.Normal(features @ weight + bias, noise), obs=targets)


def _regression_guide(features, targets=None):
    location = pyro.param("weight_loc", torch.zeros(_DIMS))
    scale = pyro.param("weight_scale", torch.ones(_DIMS), constraint=dist.constraints.positive)
    pyro.sample("weight", dist.Normal(location, scale).to_event(1))
    pyro.sample("bias", dist.Normal(pyro.param("bias_loc", torch.tensor(0.0)), 1.0))
    pyro.sample("noise", dist.LogNormal(pyro.param("noise_loc", torch.tensor(0.0)), 0.5))


def build_trace_elbo_loss():
    pyro.clear_param_store()
    loss = Trace_ELBO().differentiable_loss
    return loss, (_regression_model, _regression_guide, *_regression_data())


def build_mean_field_elbo_autoguide():
    pyro.clear_param_store()
    guide = autoguide.AutoNormal(_regression_model)
    data = _regression_data()
    guide(*data)  # the guide's parameters are made on its first call
    return TraceMeanField_ELBO().differentiable_loss, (_regression_model, guide, *data)


def build_diagonal_normal_guide():
    pyro.clear_param_store()
    guide = autoguide.AutoDiagonalNormal(_regression_model)
    data = _regression_data()
    guide(*data)
    return guide, data


def _log_joint(features, targets):
    return poutine.trace(_regression_model).get_trace(features, targets).log_prob_sum()


def build_trace_log_joint():
    return _log_joint, _regression_data()


def build_svi_step():
    pyro.clear_param_store()
    svi = SVI(_regression_model, _regression_guide, pyro.optim.Adam({"lr": 0.01}), Trace_ELBO())
    return svi.evaluate_loss, _regression_data()


def build_posterior_predictive():
    pyro.clear_param_store()
    predictive = Predictive(_regression_model, guide=_regression_guide, num_samples=4)
    return predictive, (_regression_data()[0],)


def _mixture_model(data):
    weights = pyro.param("weights", torch.ones(2) / 2, constraint=dist.constraints.simplex)
    locations = pyro.param("locations", torch.tensor([-1.0, 1.0]))
    with pyro.plate("data", len(data)):
        component = pyro.sample("component", dist.Categorical(weights))
        pyro.sample("obs", dist.Normal(locations[component], 1.0), obs=data)


def _empty_guide(data):
    pass


def build_enumerated_mixture():
    pyro.clear_param_store()
    model = pyro.infer.config_enumerate(_mixture_model)
    elbo = TraceEnum_ELBO(max_plate_nesting=1)
    return elbo.differentiable_loss, (model, _empty_guide, torch.randn(_BATCH))


class _BayesianNetwork(PyroModule):
    def __init__(self):
        super().__init__()
        self.hidden = PyroModule[torch.nn.Linear](_DIMS, 8)
        self.hidden.weight = PyroSample(dist.Normal(0.0, 1.0).expand([8, _DIMS]).to_event(2))
        self.output = PyroModule[torch.nn.Linear](8, 1)
        self.output.weight = PyroSample(dist.Normal(0.0, 1.0).expand([1, 8]).to_event(2))

    def forward(self, features):
        return self.output(torch.relu(self.hidden(features))).squeeze(-1)


def build_bayesian_network():
    return _BayesianNetwork(), (_regression_data()[0],)


def _flow(transform):
    base = dist.Normal(torch.zeros(_DIMS), torch.ones(_DIMS))
    return dist.TransformedDistribution(base, [transform])


def build_affine_autoregressive_flow():
    return _flow(T.affine_autoregressive(_DIMS, hidden_dims=[8])).log_prob, (
        torch.randn(_BATCH, _DIMS),
    )


def build_neural_autoregressive_flow():
    # No inverse: it is only sampled from.
    flow = _flow(T.neural_autoregressive(_DIMS, hidden_dims=[8], width=4))
    return flow.rsample, (torch.Size([_BATCH]),)


def build_spline_coupling_flow():
    flow = _flow(T.spline_coupling(_DIMS, hidden_dims=[8], count_bins=4))
    return flow.log_prob, (torch.randn(_BATCH, _DIMS),)


def build_planar_flow_samples():
    return _flow(T.planar(_DIMS)).rsample, (torch.Size([_BATCH]),)


def build_autoregressive_network():
    return AutoRegressiveNN(_DIMS, [8, 8], param_dims=[1, 1]), (torch.randn(_BATCH, _DIMS),)


def build_gp_regression():
    features = torch.randn(_BATCH, 1)
    kernel = gp.kernels.RBF(input_dim=1)
    model = gp.models.GPRegression(
        features, features.squeeze(-1).sin(), kernel, noise=torch.tensor(0.1)
    )
    return model, (torch.randn(4, 1),), {"full_cov": True}


def build_sparse_gp_regression():
    features = torch.randn(_BATCH, 1)
    kernel = gp.kernels.Matern52(input_dim=1)
    model = gp.models.SparseGPRegression(
        features, features.squeeze(-1).sin(), kernel, Xu=features[:4].clone(), approx="VFE"
    )
    return model.model, ()


def _distribution_log_densities(values, counts):
    normal = dist.Normal(torch.zeros(_DIMS), 1.0).expand([_BATCH, _DIMS]).to_event(1)
    zero_inflated = dist.ZeroInflatedPoisson(torch.tensor(2.0), gate=torch.tensor(0.3))
    mixture = dist.MixtureSameFamily(
        dist.Categorical(torch.ones(2)), dist.Normal(torch.tensor([-1.0, 1.0]), 1.0)
    )
    return (
        normal.log_prob(values).sum()
        + zero_inflated.log_prob(counts).sum()
        + mixture.log_prob(values).sum()
    )


def build_distribution_log_densities():
    return _distribution_log_densities, (
        torch.randn(_BATCH, _DIMS),
        torch.randint(0, 5, (_BATCH,)).float(),
    )


def build_tensor_statistics():
    return pyro.ops.stats.autocorrelation, (torch.randn(2, 32),), {"dim": -1}
