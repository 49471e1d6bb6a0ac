"""torchdiffeq (ODE solvers for neural ODEs, research code), tiny: a random two-layer MLP as
the vector field (random weights, nothing downloaded), a small random batch of states from
`torch.randn`, integrated over [0, 1] with loose tolerances so that the adaptive solvers take
few steps. Every solver family: the adaptive Runge-Kutta solvers (Dormand-Prince 5 and 8,
Bogacki-Shampine, Fehlberg, adaptive Heun) with their options (a custom norm, jump and grid
points), the fixed-grid ones (Euler, midpoint, RK4, Heun) with and without interpolation, the
Adams methods (explicit and predictor-corrector), a state that is a tuple of tensors, time
running backwards, the adjoint method, event handling and dense output."""

import torch
from torchdiffeq import odeint, odeint_adjoint, odeint_dense, odeint_event

PACKAGES = ("torchdiffeq",)
MODES = ("eval", "train")

_STATE = 4
_BATCH = 3


class _VectorField(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = torch.nn.Sequential(
            torch.nn.Linear(_STATE, 16), torch.nn.Tanh(), torch.nn.Linear(16, _STATE)
        )

    def forward(self, t: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return self.net(y) * torch.cos(t)


class _CoupledField(torch.nn.Module):
    """A second-order system written as a tuple state (position, velocity)."""

    def __init__(self) -> None:
        super().__init__()
        self.force = torch.nn.Linear(_STATE, _STATE)

    def forward(self, t, state):
        position, velocity = state
        return velocity, torch.tanh(self.force(position)) - 0.1 * velocity


class _NeuralODE(torch.nn.Module):
    """The state at each requested time, as a neural ODE layer computes it."""

    def __init__(self, method, options=None, adjoint=False, field=None, **tolerances):
        super().__init__()
        self.field = field if field is not None else _VectorField()
        self.method = method
        self.options = options
        self.integrate = odeint_adjoint if adjoint else odeint
        self.tolerances = tolerances or {"rtol": 1e-3, "atol": 1e-4}

    def forward(self, y0, t):
        return self.integrate(
            self.field, y0, t, method=self.method, options=self.options, **self.tolerances
        )


def _states() -> torch.Tensor:
    return torch.randn(_BATCH, _STATE)


def _times(count: int = 5) -> torch.Tensor:
    return torch.linspace(0.0, 1.0, count)


def _solve(method, options=None, times=None, **settings):
    return _NeuralODE(method, options, **settings), (
        _states(),
        _times() if times is None else times,
    )


def build_dopri5():
    return _solve("dopri5")


def build_dopri8():
    return _solve("dopri8")


def build_bosh3():
    return _solve("bosh3")


def build_fehlberg2():
    return _solve("fehlberg2")


def build_adaptive_heun():
    return _solve("adaptive_heun")


def build_dopri5_jump_and_grid_points():
    # Steps forced to land on given times: discontinuities at 0.3 and a step grid.
    options = {"jump_t": torch.tensor([0.3]), "step_t": torch.linspace(0.0, 1.0, 4)}
    return _solve("dopri5", options)


def build_dopri5_max_norm_first_step():
    options = {"norm": lambda tensor: tensor.abs().max(), "first_step": 0.1}
    return _solve("dopri5", options)


def build_euler():
    return _solve("euler", {"step_size": 0.25})


def build_midpoint_interpolated():
    # Step size that does not divide the output times: the solution is interpolated.
    return _solve("midpoint", {"step_size": 0.3, "interp": "cubic"})


def build_rk4_perturbed():
    return _solve("rk4", {"step_size": 0.25, "perturb": True})


def build_heun3_grid():
    return _solve("heun3", {"grid_constructor": lambda func, y0, t: torch.linspace(0, 1, 6)})


def build_explicit_adams():
    return _solve("explicit_adams", {"step_size": 0.125})


def build_implicit_adams():
    return _solve("implicit_adams", {"step_size": 0.125, "max_iters": 3})


def build_tuple_state():
    model = _NeuralODE("dopri5", field=_CoupledField())
    return model, ((_states(), torch.zeros(_BATCH, _STATE)), _times())


def build_reverse_time():
    return _solve("bosh3", times=torch.linspace(1.0, 0.0, 4))


def build_adjoint():
    return _solve("dopri5", adjoint=True)


def build_adjoint_fixed_grid():
    return _solve("rk4", {"step_size": 0.25}, adjoint=True)


class _Bounce(torch.nn.Module):
    """Integrates until the first coordinate of the state crosses zero (an event)."""

    def __init__(self) -> None:
        super().__init__()
        self.field = _VectorField()

    def forward(self, y0, t0):
        def crossed(t, y):
            return y[..., 0].sum() + 0.5

        return odeint_event(
            self.field, y0, t0, event_fn=crossed, method="dopri5", rtol=1e-3, atol=1e-4
        )


def build_event():
    return _Bounce(), (_states(), torch.tensor(0.0))


def build_dense_output():
    def dense_at(field, y0, t0, t1, query):
        return odeint_dense(field, y0, t0, t1, method="dopri5", rtol=1e-3, atol=1e-4)(query)

    return dense_at, (
        _VectorField(),
        _states(),
        torch.tensor(0.0),
        torch.tensor(1.0),
        torch.tensor(0.4),
    )
