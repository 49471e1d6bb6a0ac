"""gpytorch (Gaussian processes on lazy linear operators), tiny, random data from `torch.rand`,
hyperparameters at their initial values (nothing is trained or downloaded). Models are
written as gpytorch's users write them (a subclass whose `forward` returns a
`MultivariateNormal`), then driven the two ways gpytorch is used: in eval mode the predictive
distribution of the likelihood at test points (posterior caches, Cholesky solves, settings
context managers), in train mode the negative marginal log likelihood or ELBO on the training
data (priors and added loss terms included). Exact GPs (scaled RBF with priors, spectral
mixture, deep kernel, KISS-GP grid interpolation, multitask), variational
GPs (SVGP with a Cholesky variational distribution, Bernoulli classification, LMC multitask),
and kernel matrices evaluated on their own (product, additive and periodic kernels). Not SGPR
(`InducingPointKernel`): Dynamo 2.13 fails inside it (a fake-tensor shape mismatch,
TorchRuntimeError), and a failed probe records no truth.
`linear_operator`, which gpytorch computes with, is linted beside it."""

import gpytorch
import torch
from gpytorch.distributions import MultitaskMultivariateNormal, MultivariateNormal

PACKAGES = ("gpytorch", "linear_operator")
MODES = ("eval", "train")

_TRAIN = 24
_TEST = 10


def _inputs(count: int, dims: int = 1) -> torch.Tensor:
    return torch.rand(count, dims)


def _targets(inputs: torch.Tensor) -> torch.Tensor:
    return torch.sin(6.0 * inputs.sum(-1)) + 0.1 * torch.randn(len(inputs))


class _ExactGP(gpytorch.models.ExactGP):
    def __init__(self, inputs, targets, likelihood, kernel, features=None):
        super().__init__(inputs, targets, likelihood)
        self.mean_module = gpytorch.means.ConstantMean()
        self.covar_module = kernel
        self.features = features

    def forward(self, x):
        if self.features is not None:
            x = self.features(x)
        return MultivariateNormal(self.mean_module(x), self.covar_module(x))


class _MultitaskGP(gpytorch.models.ExactGP):
    def __init__(self, inputs, targets, likelihood, tasks):
        super().__init__(inputs, targets, likelihood)
        self.mean_module = gpytorch.means.MultitaskMean(gpytorch.means.ConstantMean(), tasks)
        self.covar_module = gpytorch.kernels.MultitaskKernel(
            gpytorch.kernels.RBFKernel(), num_tasks=tasks, rank=1
        )

    def forward(self, x):
        return MultitaskMultivariateNormal(self.mean_module(x), self.covar_module(x))


class _VariationalGP(gpytorch.models.ApproximateGP):
    def __init__(self, inducing_points):
        distribution = gpytorch.variational.CholeskyVariationalDistribution(len(inducing_points))
        strategy = gpytorch.variational.VariationalStrategy(
            self, inducing_points, distribution, learn_inducing_locations=True
        )
        super().__init__(strategy)
        self.mean_module = gpytorch.means.ConstantMean()
        self.covar_module = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel())

    def forward(self, x):
        return MultivariateNormal(self.mean_module(x), self.covar_module(x))


class _LMCGP(gpytorch.models.ApproximateGP):
    def __init__(self, inducing_points, latents, tasks):
        distribution = gpytorch.variational.CholeskyVariationalDistribution(
            inducing_points.size(-2), batch_shape=torch.Size([latents])
        )
        strategy = gpytorch.variational.LMCVariationalStrategy(
            gpytorch.variational.VariationalStrategy(
                self, inducing_points, distribution, learn_inducing_locations=True
            ),
            num_tasks=tasks,
            num_latents=latents,
            latent_dim=-1,
        )
        super().__init__(strategy)
        batch = torch.Size([latents])
        self.mean_module = gpytorch.means.ConstantMean(batch_shape=batch)
        self.covar_module = gpytorch.kernels.ScaleKernel(
            gpytorch.kernels.RBFKernel(batch_shape=batch), batch_shape=batch
        )

    def forward(self, x):
        return MultivariateNormal(self.mean_module(x), self.covar_module(x))


class _Predict(torch.nn.Module):
    """The predictive distribution's mean and variance, as a user reads them."""

    def __init__(self, model, likelihood, fast=False):
        super().__init__()
        self.model = model
        self.likelihood = likelihood
        self.fast = fast

    def forward(self, x):
        with gpytorch.settings.fast_pred_var(self.fast):
            predictive = self.likelihood(self.model(x))
        return predictive.mean, predictive.variance


class _Loss(torch.nn.Module):
    """The loss a training step minimises: the negative (approximate) marginal log likelihood."""

    def __init__(self, mll):
        super().__init__()
        self.mll = mll

    def forward(self, x, y):
        return -self.mll(self.mll.model(x), y).sum()


def _exact(mode: str, kernel, dims: int = 1, features=None, fast=False):
    inputs = _inputs(_TRAIN, dims)
    targets = _targets(inputs)
    likelihood = gpytorch.likelihoods.GaussianLikelihood()
    model = _ExactGP(inputs, targets, likelihood, kernel, features)
    if mode == "train":
        mll = gpytorch.mlls.ExactMarginalLogLikelihood(likelihood, model)
        return _Loss(mll), (inputs, targets)
    return _Predict(model, likelihood, fast), (_inputs(_TEST, dims),)


def _variational(mode: str, model, likelihood, inputs, targets, test_inputs):
    if mode == "train":
        mll = gpytorch.mlls.VariationalELBO(likelihood, model, num_data=len(targets))
        return _Loss(mll), (inputs, targets)
    return _Predict(model, likelihood), (test_inputs,)


def build_exact_rbf_with_priors(mode):
    kernel = gpytorch.kernels.ScaleKernel(
        gpytorch.kernels.RBFKernel(lengthscale_prior=gpytorch.priors.GammaPrior(3.0, 6.0)),
        outputscale_prior=gpytorch.priors.GammaPrior(2.0, 0.15),
    )
    return _exact(mode, kernel)


def build_exact_matern_fast_predictive_variance(mode):
    kernel = gpytorch.kernels.ScaleKernel(gpytorch.kernels.MaternKernel(nu=2.5, ard_num_dims=2))
    return _exact(mode, kernel, dims=2, fast=True)


def build_exact_spectral_mixture(mode):
    return _exact(mode, gpytorch.kernels.SpectralMixtureKernel(num_mixtures=3))


def build_exact_deep_kernel(mode):
    features = torch.nn.Sequential(
        torch.nn.Linear(3, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2), torch.nn.Tanh()
    )
    kernel = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel(ard_num_dims=2))
    return _exact(mode, kernel, dims=3, features=features)


def build_exact_grid_interpolation(mode):
    kernel = gpytorch.kernels.ScaleKernel(
        gpytorch.kernels.GridInterpolationKernel(
            gpytorch.kernels.RBFKernel(), grid_size=32, num_dims=1
        )
    )
    return _exact(mode, kernel)


def build_exact_periodic_times_rbf(mode):
    kernel = gpytorch.kernels.ScaleKernel(
        gpytorch.kernels.PeriodicKernel() * gpytorch.kernels.RBFKernel()
    )
    return _exact(mode, kernel)


def build_exact_multitask(mode):
    tasks = 2
    inputs = _inputs(_TRAIN)
    targets = torch.stack([_targets(inputs), _targets(inputs)], -1)
    likelihood = gpytorch.likelihoods.MultitaskGaussianLikelihood(num_tasks=tasks)
    model = _MultitaskGP(inputs, targets, likelihood, tasks)
    if mode == "train":
        return _Loss(gpytorch.mlls.ExactMarginalLogLikelihood(likelihood, model)), (inputs, targets)
    return _Predict(model, likelihood), (_inputs(_TEST),)


def build_variational_regression(mode):
    inputs = _inputs(_TRAIN)
    model = _VariationalGP(inputs[:8].clone())
    likelihood = gpytorch.likelihoods.GaussianLikelihood()
    return _variational(mode, model, likelihood, inputs, _targets(inputs), _inputs(_TEST))


def build_variational_classification(mode):
    inputs = _inputs(_TRAIN)
    labels = (_targets(inputs) > 0).float()
    model = _VariationalGP(inputs[:8].clone())
    likelihood = gpytorch.likelihoods.BernoulliLikelihood()
    return _variational(mode, model, likelihood, inputs, labels, _inputs(_TEST))


def build_variational_lmc_multitask(mode):
    tasks, latents = 3, 2
    inputs = _inputs(_TRAIN)
    targets = torch.stack([_targets(inputs) for _ in range(tasks)], -1)
    model = _LMCGP(torch.rand(latents, 8, 1), latents, tasks)
    likelihood = gpytorch.likelihoods.MultitaskGaussianLikelihood(num_tasks=tasks)
    return _variational(mode, model, likelihood, inputs, targets, _inputs(_TEST))


def _dense_kernel(kernel, x1, x2):
    return kernel(x1, x2).to_dense()


def build_kernel_matrix_additive_product():
    kernel = gpytorch.kernels.AdditiveStructureKernel(
        gpytorch.kernels.RBFKernel(), num_dims=3
    ) + gpytorch.kernels.ProductStructureKernel(gpytorch.kernels.MaternKernel(nu=1.5), num_dims=3)
    return _dense_kernel, (kernel, _inputs(12, 3), _inputs(9, 3))


def build_kernel_matrix_rational_quadratic_linear():
    kernel = gpytorch.kernels.RQKernel() + gpytorch.kernels.LinearKernel()
    return _dense_kernel, (kernel, _inputs(12, 2), _inputs(12, 2))
