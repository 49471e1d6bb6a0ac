from .base import Kernel


class ScaleKernel(Kernel):
    def forward(self, x):
        return x @ x.T * 2
