"""What Dynamo 2.13 really does with an `autograd.Function` that keeps a view on `ctx` while its
forward mutates a container it was given (measured in session 22 on reformer-pytorch, a library
breaklint had never seen: its reversible layers' `_ReversibleFunction` stores `ctx.y =
x.detach()` and its blocks set items of the keyword dictionaries passed through `apply`; 10 of
the 28 probes, every eval-mode language model, fail to compile). Not a graph break: compiling
raises `InternalTorchDynamoError` ("An intermediate tensor ... created inside a higher-order op
subgraph aliases an input or output"), and only where an input requires gradients and both
halves are there. The facts a rule for it (free code BL521) would rest on; no rule yet."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="Dynamo decides what compiles: needs torch")

ALIAS_MESSAGE = "created inside a higher-order op subgraph aliases an input or output"


def _function(mutates: bool, keep):
    weight = torch.nn.Parameter(torch.randn(8))

    class Scaled(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, options):
            if mutates:
                options["reverse"] = False  # a side effect on an argument of `apply`
            y = x * weight
            if keep == "saved":
                ctx.save_for_backward(y)
            else:
                ctx.kept = keep(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            kept = ctx.saved_tensors[0] if keep == "saved" else ctx.kept
            return grad * kept, None

    def compiled(x):
        return Scaled.apply(x, {}) + 1

    return compiled


def _compiles(function, requires_grad: bool) -> str:
    """ "ok", or the first line of what compiling (a recording backend: no inductor) raised."""
    torch._dynamo.reset()
    x = torch.randn(8, requires_grad=requires_grad)
    try:
        torch.compile(function, backend=lambda gm, inputs: gm.forward)(x)
    except Exception as error:  # the exception is what is measured
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"
    return "ok"


def _detached(y):
    return y.detach()


def _viewed(y):
    return y.view(-1)


def _detached_product(y):
    return (y * 3).detach()


def _cloned(y):
    return y.clone()


def _itself(y):
    return y


def _product(y):
    return y * 3


@pytest.mark.parametrize("keep", [_detached, _viewed, _detached_product])
def test_a_view_on_ctx_with_a_mutated_argument_makes_compiling_raise(keep) -> None:
    outcome = _compiles(_function(True, keep), requires_grad=True)
    assert outcome.startswith("InternalTorchDynamoError")
    assert ALIAS_MESSAGE in outcome


@pytest.mark.parametrize(
    ("mutates", "keep", "requires_grad"),
    [
        (False, _detached, True),  # no side effect in the forward
        (True, _detached, False),  # no input requires gradients
        (True, _cloned, True),  # a copy, not a view
        (True, _itself, True),  # the output itself
        (True, _product, True),  # a new tensor
        (True, "saved", True),  # `save_for_backward`
    ],
)
def test_without_either_half_it_compiles(mutates, keep, requires_grad) -> None:
    assert _compiles(_function(mutates, keep), requires_grad) == "ok"
