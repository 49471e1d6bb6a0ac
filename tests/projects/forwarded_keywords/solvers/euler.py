from solvers.base import Solver


class Euler(Solver):
    def __init__(self, sde, **kwargs):
        super().__init__(sde=sde, **kwargs)
