from .base import FixedGrid


class Euler(FixedGrid):
    def step(self, t0, dt, y):
        return dt * self.func(t0, y)


class Midpoint(FixedGrid):
    def step(self, t0, dt, y):
        half = self.func(t0, y) * dt / 2
        return dt * self.func(t0 + dt / 2, y + half)
