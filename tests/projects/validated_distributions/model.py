from torch import nn

from policy import heads
from policy.heads import categorical, diagonal, gaussian_default, gaussian_unchecked


class Checked(nn.Module):
    def forward(self, x):
        policy = heads.gaussian(x * 2, x)
        return policy.rsample() + 1


class Unchecked(nn.Module):
    def forward(self, x):
        first = gaussian_unchecked(x * 2, x).log_prob(x)
        second = gaussian_default(x * 2, x).log_prob(x)
        return (first + second + diagonal(x, x).log_prob(x)) * 2


class Actions(nn.Module):
    def forward(self, x):
        probabilities = categorical(x * 2).probs
        return heads.categorical_default(x).probs + probabilities


class Quiet(nn.Module):
    def forward(self, x):
        return heads.quiet(x * 2) + 1
