import torch
from utils import tracing
from utils.tracing import compiled, eager_mode, exporting, fast_path, is_tracing, on_host


class Model(torch.nn.Module):
    def forward(self, x):
        if is_tracing():
            x = x[: int(x.sum())]
        if not eager_mode():
            print(x.tolist())
        if exporting() and x.max() > 0:
            x = x.nonzero()
        if eager_mode() or x.max() > 0:
            x = x * 2
        for _ in range(2):
            if tracing.exporting():
                x = x + len(tracing.onnx_sizes(x))
            x = x + 1
        y = x.nonzero() if tracing.is_tracing() else x - 1
        if on_host(x):
            y = y + x.nonzero().sum()
        if y.sum() > 0:
            y = y + 1
        if not compiled(y):
            y = y + y.sum().item()
        if not fast_path():
            print(y.tolist())
        return y
