"""`math.prod` and `math.fsum` given a generator expression: Dynamo cannot pass it a generator,
breaks at the call with the generator alive, and skips the frame. Not given a list."""

import math

import torch


def mean_over(x, dims: tuple):
    count = math.prod(x.shape[i] for i in dims)  # SKIP BL501 BL210
    return x.sum() / count


def total_over(x, dims: tuple):
    count = math.fsum(x.shape[i] for i in dims)  # SKIP BL501 BL210
    return x.sum() / count


def mean_over_list(x, dims: tuple):
    count = math.prod([x.shape[i] for i in dims])
    return x.sum() / count


compiled = [torch.compile(f) for f in (mean_over, total_over, mean_over_list)]


def probe_prod_of_generator():
    return mean_over, (torch.randn(3, 4), (0, 1))


def probe_fsum_of_generator():
    return total_over, (torch.randn(3, 4), (0, 1))


def probe_prod_of_list():
    return mean_over_list, (torch.randn(3, 4), (0, 1))
