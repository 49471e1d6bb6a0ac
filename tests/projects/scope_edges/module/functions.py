import torch


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print("clamping")  # Dynamo traces `forward` where `Clamp.apply` is called
        return x.clamp(0, 1)

    @staticmethod
    def backward(ctx, grad):
        return grad
