import torch


class Kernel(torch.nn.Module):
    def __call__(self, x):
        out = self.forward(x)
        self.last_peak = float(out.abs().max())
        return out
