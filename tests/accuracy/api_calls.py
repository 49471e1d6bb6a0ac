"""Torch API calls of user code: `one_hot` sized by its labels, the operators whose output size
depends on the data (a least-squares solve, combinations), saving and restoring
the RNG state, and `checkpoint_sequential` break; `one_hot` with `num_classes`, `checkpoint`,
`multinomial`, `stft`, gradient hooks and weight-normed layers do not."""

import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


def encoded(labels):
    return F.one_hot(labels.argmax(-1)) + 1  # BREAK BL301


def encoded_sized(labels):
    return F.one_hot(labels.argmax(-1), num_classes=4) + F.one_hot(labels.argmin(-1), 4)


def fitted(basis, targets):
    coefficients = torch.linalg.lstsq(basis, targets).solution  # BREAK BL301
    return coefficients * 2


def paired(x):
    return torch.combinations(x.sin()).prod(-1).sum()  # BREAK BL301


def replayed(x):
    state = torch.get_rng_state()  # BREAK BL502
    y = x + torch.rand_like(x)
    torch.set_rng_state(state)  # BREAK BL502
    return y


def sampled(x):
    return torch.multinomial(x.softmax(-1), 1) + 1


def spectrum(x):
    window = torch.hann_window(16)
    return torch.stft(x, 16, hop_length=4, window=window, return_complex=True).abs()


def scaled_gradient(x):
    y = x * 2
    y.register_hook(lambda grad: grad * 0.5)
    return y.sin()


class Stack(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())
        self.conv = torch.nn.utils.parametrizations.weight_norm(torch.nn.Conv1d(4, 4, 1))

    def forward(self, x):
        y = checkpoint(self.layers, x, use_reentrant=False)
        y = self.conv(y.unsqueeze(-1)).squeeze(-1)
        return checkpoint_sequential(self.layers, 1, y, use_reentrant=False)  # BREAK BL509


compiled_encoded = torch.compile(encoded)
compiled_encoded_sized = torch.compile(encoded_sized)
compiled_fitted = torch.compile(fitted)
compiled_paired = torch.compile(paired)
compiled_replayed = torch.compile(replayed)
compiled_sampled = torch.compile(sampled)
compiled_spectrum = torch.compile(spectrum)
compiled_hooked = torch.compile(scaled_gradient)
compiled_stack = torch.compile(Stack())


def probe_encoded():
    return encoded, (torch.randn(3, 4),)


def probe_encoded_sized():
    return encoded_sized, (torch.randn(3, 4),)


def probe_fitted():
    return fitted, (torch.randn(6, 3), torch.randn(6, 2))


def probe_paired():
    return paired, (torch.randn(5),)


def probe_replayed():
    return replayed, (torch.randn(3),)


def probe_sampled():
    return sampled, (torch.randn(3, 4),)


def probe_spectrum():
    return spectrum, (torch.randn(2, 64),)


def probe_scaled_gradient():
    return scaled_gradient, (torch.randn(3, 4, requires_grad=True),)


def probe_stack():
    return Stack(), (torch.randn(2, 4, requires_grad=True),)
