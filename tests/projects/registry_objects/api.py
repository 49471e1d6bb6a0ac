from solvers import SOLVERS
from solvers.fixed import Euler

_SHARED = {}


def shared_euler(func, y0):
    # May hand back a solver made by an earlier call: not an object made here.
    return _SHARED.setdefault(id(func), Euler(func, y0))


MAKERS = {"euler": Euler, "shared": shared_euler}


def odeint(func, y0, t, method):
    solver = SOLVERS[method](func, y0)
    return solver.integrate(t)


def odeint_made(func, y0, t, method):
    solver = MAKERS[method](func, y0)
    return solver.integrate(t)
