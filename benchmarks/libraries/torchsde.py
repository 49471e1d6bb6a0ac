"""torchsde (SDE solvers and Brownian motion samplers for neural SDEs, research code), tiny:
drift and diffusion from small random networks (nothing is downloaded), a random batch of
states from `torch.randn`, integrated over [0, 1] with a coarse step. The solvers for Ito SDEs
(Euler-Maruyama, Milstein in both forms, stochastic Runge-Kutta) and Stratonovich SDEs
(midpoint, Heun, reversible Heun, log-ODE), each noise type (diagonal, additive, scalar,
general), adaptive stepping, the three Brownian motion samplers (interval with Levy area,
path, tree), the adjoint method, the KL penalty of a latent SDE (`logqp`), and drift and
diffusion under other method names."""

import torch
import torchsde

PACKAGES = ("torchsde",)
MODES = ("eval", "train")

_STATE = 3
_BATCH = 4
_NOISE = 2


class _SDE(torch.nn.Module):
    def __init__(self, noise_type="diagonal", sde_type="ito"):
        super().__init__()
        self.noise_type = noise_type
        self.sde_type = sde_type
        self.drift = torch.nn.Sequential(
            torch.nn.Linear(_STATE + 1, 16), torch.nn.Tanh(), torch.nn.Linear(16, _STATE)
        )
        width = {"diagonal": _STATE, "additive": _STATE * _NOISE, "scalar": _STATE}
        self.diffusion = torch.nn.Linear(_STATE + 1, width.get(noise_type, _STATE * _NOISE))

    def _with_time(self, t, y):
        return torch.cat([y, t.expand(y.size(0), 1)], dim=1)

    def f(self, t, y):
        return self.drift(self._with_time(t, y))

    def g(self, t, y):
        sigma = torch.sigmoid(self.diffusion(self._with_time(t, y)))
        if self.noise_type == "diagonal":
            return sigma
        if self.noise_type == "scalar":
            return sigma.unsqueeze(-1)
        if self.noise_type == "additive":
            sigma = torch.sigmoid(self.diffusion(self._with_time(t, torch.zeros_like(y))))
        return sigma.view(y.size(0), _STATE, _NOISE)


class _LatentSDE(_SDE):
    """A posterior drift `f`, a prior drift `h`: `logqp` integrates the KL penalty between them."""

    def __init__(self) -> None:
        super().__init__()
        self.prior = torch.nn.Linear(_STATE, _STATE)

    def h(self, t, y):
        return self.prior(y)


class _RenamedSDE(_SDE):
    def drift_at(self, t, y):
        return self.f(t, y)

    def noise_at(self, t, y):
        return self.g(t, y)


class _Solve(torch.nn.Module):
    """The sampled paths at the requested times, as a neural SDE layer computes them."""

    def __init__(self, sde, brownian=None, adjoint=False, **settings):
        super().__init__()
        self.sde = sde
        self.brownian = brownian
        self.integrate = torchsde.sdeint_adjoint if adjoint else torchsde.sdeint
        self.settings = {"dt": 0.1} | settings

    def forward(self, y0, ts):
        return self.integrate(self.sde, y0, ts, bm=self.brownian, **self.settings)


def _states() -> torch.Tensor:
    return torch.randn(_BATCH, _STATE)


def _times() -> torch.Tensor:
    return torch.linspace(0.0, 1.0, 4)


def _solve(sde, **settings):
    return _Solve(sde, **settings), (_states(), _times())


def build_euler_diagonal():
    return _solve(_SDE(), method="euler")


def build_milstein_diagonal():
    return _solve(_SDE(), method="milstein")


def build_milstein_derivative_free():
    return _solve(_SDE(), method="milstein", options={"grad_free": True})


def build_srk_diagonal_interval_levy_area():
    brownian = torchsde.BrownianInterval(
        t0=0.0, t1=1.0, size=(_BATCH, _STATE), levy_area_approximation="space-time"
    )
    return _solve(_SDE(), method="srk", brownian=brownian)


def build_srk_additive():
    brownian = torchsde.BrownianInterval(
        t0=0.0, t1=1.0, size=(_BATCH, _NOISE), levy_area_approximation="space-time"
    )
    return _solve(_SDE("additive"), method="srk", brownian=brownian)


def build_euler_scalar():
    return _solve(_SDE("scalar"), method="euler")


def build_euler_general_brownian_path():
    brownian = torchsde.BrownianPath(t0=0.0, w0=torch.zeros(_BATCH, _NOISE))
    return _solve(_SDE("general"), method="euler", brownian=brownian)


def build_midpoint_stratonovich():
    return _solve(_SDE(sde_type="stratonovich"), method="midpoint")


def build_heun_stratonovich_brownian_tree():
    brownian = torchsde.BrownianTree(t0=0.0, t1=1.0, w0=torch.zeros(_BATCH, _STATE), tol=1e-3)
    return _solve(_SDE(sde_type="stratonovich"), method="heun", brownian=brownian)


def build_reversible_heun():
    return _solve(_SDE(sde_type="stratonovich"), method="reversible_heun")


def build_log_ode_general():
    brownian = torchsde.BrownianInterval(
        t0=0.0, t1=1.0, size=(_BATCH, _NOISE), levy_area_approximation="foster"
    )
    return _solve(_SDE("general", "stratonovich"), method="log_ode", brownian=brownian)


def build_adaptive_milstein():
    return _solve(_SDE(), method="milstein", adaptive=True, rtol=1e-2, atol=1e-2, dt_min=0.05)


def build_adjoint_euler():
    return _solve(_SDE(), method="euler", adjoint=True)


def build_adjoint_reversible_heun():
    return _solve(
        _SDE(sde_type="stratonovich"),
        method="reversible_heun",
        adjoint=True,
        adjoint_method="adjoint_reversible_heun",
    )


def build_latent_kl_penalty():
    return _solve(_LatentSDE(), method="euler", logqp=True)


def build_renamed_drift_diffusion():
    return _solve(
        _RenamedSDE(), method="euler", names={"drift": "drift_at", "diffusion": "noise_at"}
    )
