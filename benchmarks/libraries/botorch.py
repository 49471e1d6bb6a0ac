"""BoTorch (Bayesian optimisation on GPyTorch models), tiny: Gaussian process surrogates fitted to
nothing (random training data from `torch.rand`, hyperparameters at their initial values, nothing
is downloaded), in double precision as BoTorch recommends. What an optimisation loop calls: a
model's posterior (single-task, multi-task, multi-fidelity, mixed categorical, a model list, input
normalisation and outcome standardisation), analytic acquisition functions (expected improvement,
its log form, upper confidence bound, posterior mean), Monte Carlo
ones on quasi-random samples (qEI, qLogNEI, qUCB, qSimpleRegret, noisy EI with cached Cholesky),
multi-objective hypervolume improvement, a knowledge gradient, posterior sampling, a synthetic
test function, and the acquisition value's gradient as the optimiser computes it."""

import torch
from botorch.acquisition import (
    ExpectedImprovement,
    LogExpectedImprovement,
    PosteriorMean,
    UpperConfidenceBound,
    qExpectedImprovement,
    qKnowledgeGradient,
    qLogNoisyExpectedImprovement,
    qNoisyExpectedImprovement,
    qSimpleRegret,
    qUpperConfidenceBound,
)
from botorch.acquisition.multi_objective import qLogExpectedHypervolumeImprovement
from botorch.models import (
    ModelListGP,
    MultiTaskGP,
    SingleTaskGP,
    SingleTaskMultiFidelityGP,
)
from botorch.models.gp_regression_mixed import MixedSingleTaskGP
from botorch.models.transforms import Normalize, Standardize
from botorch.sampling import SobolQMCNormalSampler
from botorch.test_functions import Hartmann
from botorch.utils.multi_objective.box_decompositions import FastNondominatedPartitioning

PACKAGES = ("botorch",)
MODES = ("eval",)

_POINTS = 8
_DIMS = 3
_DOUBLE = torch.float64


def _training(outputs: int = 1):
    inputs = torch.rand(_POINTS, _DIMS, dtype=_DOUBLE)
    targets = torch.stack([torch.sin(3 * inputs).sum(-1) + k for k in range(outputs)], -1)
    return inputs, targets


def _single_task(outputs: int = 1):
    inputs, targets = _training(outputs)
    model = SingleTaskGP(inputs, targets, outcome_transform=Standardize(m=outputs))
    return model.eval(), targets


def _candidates(q: int = 2):
    return (torch.rand(4, q, _DIMS, dtype=_DOUBLE),)


def _sampler():
    return SobolQMCNormalSampler(sample_shape=torch.Size([16]), seed=0)


class _Posterior(torch.nn.Module):
    """A model's posterior mean and variance at new points."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, points):
        posterior = self.model.posterior(points)
        return posterior.mean, posterior.variance


class _PosteriorSamples(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.sampler = _sampler()

    def forward(self, points):
        return self.sampler(self.model.posterior(points))


class _AcquisitionGradient(torch.nn.Module):
    """The value and its gradient with respect to the candidates, as `optimize_acqf` asks."""

    def __init__(self, acquisition):
        super().__init__()
        self.acquisition = acquisition

    def forward(self, points):
        points = points.detach().requires_grad_(True)
        value = self.acquisition(points).sum()
        (gradient,) = torch.autograd.grad(value, points)
        return value, gradient


def build_single_task_posterior():
    model, _ = _single_task()
    return _Posterior(model), (torch.rand(5, _DIMS, dtype=_DOUBLE),)


def build_normalized_inputs_posterior():
    inputs, targets = _training()
    model = SingleTaskGP(
        inputs * 10, targets, input_transform=Normalize(d=_DIMS), outcome_transform=Standardize(m=1)
    )
    return _Posterior(model.eval()), (torch.rand(5, _DIMS, dtype=_DOUBLE) * 10,)


def build_multi_task_posterior():
    inputs, targets = _training()
    tasks = torch.randint(0, 2, (_POINTS, 1)).to(_DOUBLE)
    model = MultiTaskGP(torch.cat([inputs, tasks], -1), targets, task_feature=-1)
    return _Posterior(model.eval()), (torch.rand(5, _DIMS, dtype=_DOUBLE),)


def build_multi_fidelity_posterior():
    inputs, targets = _training()
    model = SingleTaskMultiFidelityGP(inputs, targets, data_fidelities=[_DIMS - 1])
    return _Posterior(model.eval()), (torch.rand(5, _DIMS, dtype=_DOUBLE),)


def build_mixed_categorical_posterior():
    inputs, targets = _training()
    inputs[:, 0] = torch.randint(0, 3, (_POINTS,)).to(_DOUBLE)
    model = MixedSingleTaskGP(inputs, targets, cat_dims=[0])
    points = torch.rand(5, _DIMS, dtype=_DOUBLE)
    points[:, 0] = 1.0
    return _Posterior(model.eval()), (points,)


def build_model_list_posterior():
    inputs, targets = _training(2)
    models = [SingleTaskGP(inputs, targets[:, k : k + 1]) for k in range(2)]
    return _Posterior(ModelListGP(*models).eval()), (torch.rand(5, _DIMS, dtype=_DOUBLE),)


def build_posterior_samples():
    model, _ = _single_task()
    return _PosteriorSamples(model), (torch.rand(3, _DIMS, dtype=_DOUBLE),)


def build_expected_improvement():
    model, targets = _single_task()
    return ExpectedImprovement(model, best_f=targets.max()), (
        torch.rand(6, 1, _DIMS, dtype=_DOUBLE),
    )


def build_log_expected_improvement():
    model, targets = _single_task()
    return LogExpectedImprovement(model, best_f=targets.max()), (
        torch.rand(6, 1, _DIMS, dtype=_DOUBLE),
    )


def build_upper_confidence_bound():
    model, _ = _single_task()
    return UpperConfidenceBound(model, beta=0.2), (torch.rand(6, 1, _DIMS, dtype=_DOUBLE),)


def build_posterior_mean():
    model, _ = _single_task()
    return PosteriorMean(model), (torch.rand(6, 1, _DIMS, dtype=_DOUBLE),)


def build_q_expected_improvement():
    model, targets = _single_task()
    return qExpectedImprovement(model, best_f=targets.max(), sampler=_sampler()), _candidates()


def build_q_noisy_expected_improvement():
    model, _ = _single_task()
    acquisition = qNoisyExpectedImprovement(
        model, X_baseline=model.train_inputs[0], sampler=_sampler(), cache_root=True
    )
    return acquisition, _candidates()


def build_q_log_noisy_expected_improvement():
    model, _ = _single_task()
    acquisition = qLogNoisyExpectedImprovement(
        model, X_baseline=model.train_inputs[0], sampler=_sampler()
    )
    return acquisition, _candidates()


def build_q_upper_confidence_bound():
    model, _ = _single_task()
    return qUpperConfidenceBound(model, beta=0.2, sampler=_sampler()), _candidates()


def build_q_simple_regret():
    model, _ = _single_task()
    return qSimpleRegret(model, sampler=_sampler()), _candidates()


def build_q_log_hypervolume_improvement():
    inputs, targets = _training(2)
    model = SingleTaskGP(inputs, targets).eval()
    reference = targets.min(0).values - 0.1
    partitioning = FastNondominatedPartitioning(ref_point=reference, Y=targets)
    acquisition = qLogExpectedHypervolumeImprovement(
        model, ref_point=reference.tolist(), partitioning=partitioning, sampler=_sampler()
    )
    return acquisition, _candidates()


def build_q_knowledge_gradient():
    model, _ = _single_task()
    acquisition = qKnowledgeGradient(model, num_fantasies=4)
    return acquisition, (torch.rand(2, 1 + 4, _DIMS, dtype=_DOUBLE),)


def build_log_noisy_improvement_gradient():
    model, _ = _single_task()
    acquisition = qLogNoisyExpectedImprovement(
        model, X_baseline=model.train_inputs[0], sampler=_sampler()
    )
    return _AcquisitionGradient(acquisition), _candidates()


def build_hartmann_test_function():
    return Hartmann(dim=6, noise_std=0.1), (torch.rand(5, 6, dtype=_DOUBLE),)
