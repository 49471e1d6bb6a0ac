import torch
import torch.distributions as D
from torch.distributions import Categorical, Independent, Normal


def gaussian(mean, log_scale):
    return Normal(mean, log_scale.exp(), validate_args=True)


def gaussian_unchecked(mean, log_scale):
    return Normal(mean, log_scale.exp(), validate_args=False)


def gaussian_default(mean, log_scale):
    return Normal(mean, log_scale.exp())


def diagonal(mean, log_scale):
    # `Independent` checks no parameter of its own: only the inner distribution validates.
    inner = Normal(mean, log_scale.exp(), validate_args=False)
    return Independent(inner, 1, validate_args=True)


def categorical(logits):
    return D.categorical.Categorical(logits=logits, validate_args=True)


def categorical_default(logits):
    return Categorical(logits=logits)


def quiet(x):
    D.Distribution.set_default_validate_args(False)
    return torch.tanh(x)
