import torch
from torch import nn


class Recurrent(nn.Module):
    """Truncated backpropagation: the state is cut from the graph and kept for the next call."""

    def __init__(self) -> None:
        super().__init__()
        self.cell = nn.Linear(3, 3)
        self.state = torch.zeros(2, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.cell(x) + self.state)
        self.state = h.detach().requires_grad_()
        return h.sum()


class Remembering(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.cell = nn.Linear(3, 3)
        self.saved: dict[str, torch.Tensor] = {}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.cell(x))
        leaf = h.detach().requires_grad_()
        self.saved["h"] = leaf
        return h.sum()


def with_adjoint_hook(cell: nn.Module, x: torch.Tensor) -> torch.Tensor:
    z = cell(x)
    z0 = z.detach().requires_grad_()
    f0 = cell(z0)

    def adjoint(grad: torch.Tensor) -> torch.Tensor:
        return torch.autograd.grad(f0, z0, grad, retain_graph=True)[0] + grad

    z.register_hook(adjoint)
    return z


def called_inside(cell: nn.Module, x: torch.Tensor) -> torch.Tensor:
    z0 = cell(x).detach().requires_grad_()

    def twice() -> torch.Tensor:
        return cell(z0) * 2

    return twice().detach() + x
