"""Forms of known breaks that look alike but break differently."""

import torch


def make_leaf(x):
    noise = torch.zeros_like(x)
    noise.requires_grad = True  # BREAK BL503
    return x + noise


def leaf_kept_inside(x):
    weights = torch.ones_like(x).requires_grad_()
    return (x * weights).sum().detach()


def leaf_returned(x):
    weights = torch.ones_like(x)
    weights.requires_grad_()  # BREAK BL503
    return x * weights


def noise_kept_constant(x):
    # Made here, it requires no gradient already: turning the flag off changes nothing.
    noise = torch.randn_like(x)
    noise.requires_grad_(False)
    return x + noise


def leaf_made(x):
    probe = torch.zeros_like(x, requires_grad=True)  # BREAK BL503
    return x + probe


def leaf_made_by_a_method(x):
    probe = x.new_zeros(x.shape, requires_grad=True)
    return x + probe


def toggled(x, weights):
    # A flag that changes on every call: one the first call set would change nothing after.
    for weight in weights:
        weight.requires_grad_(not weight.requires_grad)  # BREAK BL202 BL503
    return x * weights[0]


class ZeroLoss(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("zero", torch.tensor(0.0))

    def forward(self, x):
        # The buffer keeps the flag the first call sets: only the first call breaks.
        loss = self.zero
        loss.requires_grad_()  # BREAK BL503
        return x * 2, loss


class CommitmentLoss(torch.nn.Module):
    # A leaf that requires gradients only in training: a break where `self.training` is true.
    def forward(self, x):
        loss = torch.tensor([0.0], requires_grad=self.training)  # BREAK BL503
        return x * 2, loss + x.pow(2).mean()


def lazily_weighted(x):
    weight = torch.nn.Parameter(torch.ones(x.shape[-1]))  # BREAK BL503
    return x * weight


def weighted_by_input(x):
    weight = torch.nn.Parameter(x, requires_grad=False)
    return weight * 2


def padded(x):
    lengths = (x > 0).sum(-1)
    batch, width = x.shape
    return torch.zeros((batch, lengths.max(), width))  # BREAK BL304


def positions(x):
    lengths = (x > 0).sum(-1)
    return torch.arange(lengths.max()) + x.shape[0]  # BREAK BL304


def sliced(x):
    n = (x > 0).sum()
    return x.flatten()[:n]  # BREAK BL304


def checked_twice(x):
    y = x * 2
    assert (y == y).all() and y.sum() != 0  # BREAK BL201
    return y + 1


def checked_once(x):
    y = x * 2
    assert (y == y).all(), "nan in y"
    return y + 1


compiled_make_leaf = torch.compile(make_leaf)
compiled_leaf_kept_inside = torch.compile(leaf_kept_inside)
compiled_leaf_returned = torch.compile(leaf_returned)
compiled_leaf_made = torch.compile(leaf_made)
compiled_noise_kept_constant = torch.compile(noise_kept_constant)
compiled_leaf_made_by_a_method = torch.compile(leaf_made_by_a_method)
compiled_toggled = torch.compile(toggled)
compiled_lazily_weighted = torch.compile(lazily_weighted)
compiled_weighted_by_input = torch.compile(weighted_by_input)
compiled_padded = torch.compile(padded)
compiled_positions = torch.compile(positions)
compiled_sliced = torch.compile(sliced)
compiled_checked_twice = torch.compile(checked_twice)
compiled_checked_once = torch.compile(checked_once)


def probe_requires_grad_assignment():
    return make_leaf, (torch.randn(4, 3),)


def probe_requires_grad_on_a_fresh_tensor():
    return leaf_kept_inside, (torch.randn(4, 3),)


def probe_requires_grad_returned():
    return leaf_returned, (torch.randn(4, 3),)


def probe_requires_grad_turned_off_on_a_fresh_tensor():
    return noise_kept_constant, (torch.randn(4, requires_grad=True),)


def probe_leaf_made_with_requires_grad():
    return leaf_made, (torch.randn(4, 3),)


def probe_leaf_made_in_training():
    return CommitmentLoss().train(), (torch.randn(4, 3),)


def probe_leaf_made_by_a_tensor_method():
    return leaf_made_by_a_method, (torch.randn(4, 3),)


def probe_requires_grad_on_the_elements_of_an_input():
    return toggled, (torch.randn(3), [torch.randn(3, requires_grad=True) for _ in range(2)])


def probe_requires_grad_on_a_buffer():
    return ZeroLoss(), (torch.randn(4, 3),)


def probe_parameter_made_inside():
    return lazily_weighted, (torch.randn(4, 3),)


def probe_parameter_of_an_input():
    return weighted_by_input, (torch.randn(4, 3),)


def probe_tensor_as_size():
    return padded, (torch.randn(4, 3),)


def probe_tensor_as_bound():
    return positions, (torch.randn(4, 3),)


def probe_tensor_as_slice_bound():
    return sliced, (torch.randn(4, 3),)


def probe_assert_with_and():
    return checked_twice, (torch.randn(4, 3),)


def probe_plain_assert():
    return checked_once, (torch.randn(4, 3),)
