import torch
from checks import exporting


class Model(torch.nn.Module):
    def forward(self, x):
        traced = torch.jit.is_tracing() and bool(x.sum() > 0)
        compiled = torch.compiler.is_compiling() or x.sum().item() > 0
        eager = not torch.compiler.is_compiling() and print(x.tolist())
        exported = exporting() and int(x.max()) > 0
        nested = x.dim() > 1 and (torch.compiler.is_compiling() or print(x))
        deeper = torch.jit.is_scripting() or x.dim() > 1 and bool(x.max() > 0)
        arm = x.tolist() if torch.jit.is_tracing() else x.shape[0]
        other = x.shape[0] if torch.compiler.is_compiling() else int(x.max())
        first = bool(x.sum() > 0) and torch.compiler.is_compiling()
        flags = [traced, compiled, eager, exported, nested, deeper, arm, other, first]
        return x + len(flags)
