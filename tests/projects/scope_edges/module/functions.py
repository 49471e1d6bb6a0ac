import torch


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print("clamping")  # Dynamo traces `forward` where `Clamp.apply` is called
        return x.clamp(0, 1)

    @staticmethod
    def backward(ctx, grad):
        return grad


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        print("scaling")  # ...and `backward` too, when an input requires grad
        return grad * 2
