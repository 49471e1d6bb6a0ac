"""More of breaklint's example corpus: transformer and MoE layers, losses and normalization.

Same convention as models.py: `# BREAK BL...` ends a line where Dynamo 2.13 breaks the graph,
`# SKIP BL...` a line that makes it skip the whole function, `# HOOK BL701` a hook registration,
`# LIBRARY BL516` a call into an installed library (tests/libraries) that breaks inside;
the codes are the rules that flag the line. Every other line is something Dynamo traces.
"""

import copy
import functools
import json
import logging
import os
import random
import time
import warnings
from typing import TypedDict

import numpy as np
import torch
import torch.nn.functional as F
from calibration import centred, peak_scaled
from torch import nn
from torch.quasirandom import SobolEngine

logger = logging.getLogger("corpus.layers")


@torch.compiler.disable
def record_router_stats(counts: torch.Tensor) -> None:
    """Bookkeeping that must stay eager."""
    record_router_stats.last = counts.detach()


class Attention(nn.Module):
    """Self-attention with a padding mask and a few checks Dynamo resolves while tracing."""

    def __init__(self, dim: int = 8, heads: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.calls = 0

    def forward(self, x: torch.Tensor, lengths: torch.Tensor | None = None) -> torch.Tensor:
        logger.debug("attention on %s", tuple(x.shape))  # BREAK BL402
        self.calls += 1  # RECOMPILE BL811
        batch, seq, dim = x.shape
        assert dim == self.heads * self.head_dim
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(batch, seq, self.heads, self.head_dim).transpose(1, 2)
        k = k.view(batch, seq, self.heads, self.head_dim).transpose(1, 2)
        v = v.view(batch, seq, self.heads, self.head_dim).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / self.head_dim**0.5
        if lengths is not None:
            keep = torch.arange(seq) < lengths[:, None]
            scores = scores.masked_fill(~keep[:, None, None, :], float("-inf"))
        if scores.dtype == torch.float16:
            scores = scores.float()
        weights = scores.softmax(dim=-1)
        longest = int(lengths.max()) if lengths is not None else seq  # BREAK BL102
        context = (weights @ v).transpose(1, 2).reshape(batch, seq, dim)
        return self.out(context[:, :longest])


class MLP(nn.Module):
    """A feed-forward block with an activation statistic and a truncation to the peak."""

    def __init__(self, dim: int = 8, hidden: int = 16) -> None:
        super().__init__()
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.gelu(self.up(x))
        sparsity = float((h == 0).float().mean())  # BREAK BL102
        if sparsity > 0.9:
            h = h * 2
        out = self.down(h)
        peak = out.abs().sum(dim=(0, 2))
        return out[:, : int(peak.argmax()) + 1]  # BREAK BL102


class MoERouter(nn.Module):
    """Top-1 routing: the token groups have data-dependent sizes."""

    def __init__(self, dim: int = 8, experts: int = 4) -> None:
        super().__init__()
        self.gate = nn.Linear(dim, experts)
        self.experts = experts

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        probs = self.gate(x).softmax(dim=-1)
        top = probs.argmax(dim=-1)
        used = torch.unique(top)  # BREAK BL301
        chosen = probs.max(dim=-1).values
        routed = x[top == used[0]]  # BREAK BL302
        counts = torch.bincount(top, minlength=self.experts)  # BREAK BL301
        record_router_stats(counts)  # BREAK BL505
        order = torch.arange(self.experts).repeat_interleave(counts)  # BREAK BL303
        first = torch.where(top == order[0])  # BREAK BL301
        strong = torch.nonzero(chosen > 0.3)  # BREAK BL301
        kept = torch.masked_select(chosen, chosen > 0.3)  # BREAK BL301
        weighted = torch.where(chosen[:, None] > 0.3, x * chosen[:, None], x)
        balance = routed.sum() + kept.sum() + first[0].sum() + strong.sum()
        return weighted + balance


def smoothed_nll(logits: torch.Tensor, target: torch.Tensor, eps: float) -> torch.Tensor:
    log_probs = logits.log_softmax(dim=-1)
    nll = -log_probs.gather(-1, target[:, None]).squeeze(-1)
    smooth = -log_probs.mean(dim=-1)
    loss = ((1 - eps) * nll + eps * smooth).mean()
    if loss.isnan().any():  # BREAK BL201
        loss = torch.zeros_like(loss)
    if eps > 0.3:
        warnings.warn("label smoothing above 0.3 hides the target", stacklevel=2)  # BREAK BL403
    return loss


class LabelSmoothingLoss(nn.Module):
    """A loss module whose helper breaks, plus value-dependent logging of the loss."""

    def __init__(self, eps: float = 0.4) -> None:
        super().__init__()
        self.eps = eps
        self.history: list[float] = []

    def forward(self, logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        if logits.dim() != 2 or target.dtype != torch.long:
            raise ValueError("expected (batch, classes) logits and long targets")
        loss = smoothed_nll(logits, target, self.eps)
        per_class = logits.softmax(dim=-1).mean(dim=0).tolist()  # BREAK BL103
        self.history.append(per_class[0])  # RECOMPILE BL910
        scale = 0.5 if loss > 10 else 1.0  # BREAK BL201
        if self.eps == 0.0:
            return loss
        elif loss.mean() < 0:  # BREAK BL201
            loss = -loss
        confident = bool(loss < 0.1)  # BREAK BL102
        return loss * scale * (2 if confident else 1)


class RMSNorm(nn.Module):
    """Root-mean-square normalization that halves outliers until they fit."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        while x.abs().max() > 100:  # BREAK BL201
            x = x / 2
        norm = x.pow(2).mean(dim=-1, keepdim=True).add(1e-6).rsqrt()
        gain = self.weight if self.training else self.weight.detach()
        bias = x.mean() > 0 and 0.1  # BREAK BL201
        return x * norm * gain + bias


class NoisyTraining(nn.Module):
    """Runtime calls that Dynamo does not trace, one per line. The file opened in a `with`
    ends it all: Dynamo cannot resume inside that context manager and skips the rest."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.config = {"scale": 1.0}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        torch.manual_seed(0)  # BREAK BL502
        h = self.proj(x)
        started = time.time()  # BREAK BL501
        jitter = random.random()  # BREAK BL501
        tag = json.dumps(self.config)  # BREAK BL501
        frozen = copy.deepcopy(self.config)
        h = h.detach().requires_grad_()  # BREAK BL503
        torch._dynamo.graph_break()  # BREAK BL504
        with open(os.devnull, "w") as sink:  # SKIP BL404
            sink.write(tag)
        return h * frozen["scale"] + jitter * 0 + (started - started)


class Resampler(nn.Module):
    """numpy inside forward: traced functions next to one torch._numpy lacks."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # RECOMPILE BL910
        arr = x.detach().numpy()
        total = np.sum(arr) + np.linalg.norm(arr)
        grid = np.interp(np.linspace(0, 1, arr.shape[-1]), [0.0, 1.0], [0.0, 2.0])  # BREAK BL601
        return x * torch.from_numpy(grid).float() + torch.as_tensor(total)


class Chunker(nn.Module):
    """A generator forward: Dynamo never compiles its frame."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor):
        h = self.proj(x)
        yield h[:1]  # SKIP BL801
        yield h[1:]


def clamp_output(module: nn.Module, inputs: tuple, output: torch.Tensor) -> torch.Tensor:
    return output.clamp(-1, 1)


def log_input_norm(module: nn.Module, inputs: tuple) -> None:
    logger.info("input norm %s", inputs[0].norm().item())  # BREAK BL402 BL101


class HookedStack(nn.Module):
    """A pure tensor-math hook (inlined) and a logging pre-hook (breaks)."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.first = nn.Linear(dim, dim)
        self.second = nn.Linear(dim, dim)
        self.first.register_forward_hook(clamp_output)
        self.second.register_forward_pre_hook(log_input_norm)  # HOOK BL701

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.second(self.first(x).relu())


class LengthPadder(nn.Module):
    """A tensor used as a size: Dynamo reads its value, a data-dependent operator."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        lengths = (x > 0).sum(-1)
        padded = x.new_zeros(x.shape[0], lengths.max())  # BREAK BL304
        return padded.sum() + x.sum()


class RecurrentTagger(nn.Module):
    """A recurrent submodule: Dynamo does not wrap nn.LSTM by default."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        output, _ = self.lstm(x * 2)  # SKIP BL506
        return self.head(output)


class RecurrentEncoder(nn.Module):
    """Reading a recurrent submodule's attribute: Dynamo refuses to wrap it there already."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.gru = nn.GRU(dim, dim, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = x.new_zeros(self.gru.num_layers, x.shape[0], x.shape[-1])  # SKIP BL506
        output, _ = self.gru(x * 2, hidden)
        return output.sum(1)


class GuardedScale(nn.Module):
    """A break in a `try` body: Dynamo cannot resume there and runs forward eagerly, so the
    later `.item()` is no break of its own."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x * 2
        try:
            scale = int(y.abs().sum())  # SKIP BL102 BL204
        except RuntimeError:
            scale = 1
        return y * scale + y.max().item()


class DeterministicPool(nn.Module):
    """A backend flag switched inside forward: Dynamo cannot enter cudnn.flags()."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.backends.cudnn.flags(enabled=False):  # SKIP BL507
            pooled = torch.nn.functional.avg_pool1d(x, 3)
        return pooled * 2


class NoisyProjection(nn.Module):
    """Noise drawn from a generator of its own: Dynamo cannot pass a generator to a graph."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.generator = torch.Generator()
        self.generator.manual_seed(0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.proj(x)
        noise = torch.randn(h.shape, generator=self.generator)  # BREAK BL508
        return h + noise


class BucketedCache(nn.Module):
    """A hash of a tensor used as a number: Dynamo only has a placeholder for it."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x * 2
        bucket = hash(h) % 4  # SKIP BL104
        return h + bucket


class PerHead(nn.Module):
    """After a break, a dict comprehension over a list that yields a tensor as it is."""

    def forward(self, x: torch.Tensor, names: list) -> dict:
        h = x * 2
        print("heads", names)  # BREAK BL401
        return {name: h for name in sorted(names)}  # SKIP BL203


class OrderedParts(nn.Module):
    """A break in a loop skips the frame, so forward runs eagerly from its start: with Python
    before 3.12 the comprehension before the loop, which reads the function's tensors, is a
    frame of its own that Dynamo compiles alone and skips too."""

    def forward(self, x: torch.Tensor, order: list) -> torch.Tensor:
        parts = [x, x + 1]
        picked = [parts[i] for i in sorted(order)]  # SKIP BL205
        for _ in range(2):
            x = x + int(x.sum())  # SKIP BL102 BL202
        return picked[0] * x


class CachedDistance(nn.Module):
    """A shortcut for equal inputs: the comparison answers with a Python bool."""

    def forward(self, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
        d = torch.cdist(x1, x2)
        if torch.equal(x1, x2):  # BREAK BL105
            d = d * 0.5
        return d


class EnergyForces(nn.Module):
    """Forces as the gradient of an energy, taken inside the forward."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.energy = nn.Linear(dim, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        energy = self.energy(x).sum()
        (force,) = torch.autograd.grad(energy, x, create_graph=True)  # BREAK BL509
        return -force


class AllPositive(nn.Module):
    """A break inside a generator expression that `all()` consumes: Dynamo cannot rebuild the
    generator to resume after it, and skips the frame at the call."""

    def forward(self, x: torch.Tensor, parts: tuple[torch.Tensor, ...]) -> torch.Tensor:
        ok = all(t.sum().item() > 0 for t in parts)  # SKIP BL101 BL206
        return x * 2 if ok else x


class QuietScale(nn.Module):
    """A break inside `with warnings.catch_warnings()`: Dynamo cannot enter the context manager
    again to resume after it, and skips the frame at the break."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with warnings.catch_warnings():
            scale = x.abs().sum().item()  # SKIP BL101 BL207
        return x * scale


class Shifter:
    def shift(self, x: torch.Tensor) -> torch.Tensor:
        return x + x.sum().item()  # BREAK BL101


class FreshShift(nn.Module):
    """A method that breaks, called on an object made in the same expression: Dynamo cannot
    rebuild the bound method to resume after it, and skips the frame at the call."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return Shifter().shift(x * 2)  # SKIP BL208


class Integrator:
    def __init__(self, scale: float) -> None:
        self.scale = scale
        self.step = self.euler  # a bound method of its own

    def euler(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.scale


class HeldStep(nn.Module):
    """An object made in `forward` whose attribute holds one of its bound methods, used after
    a break: Dynamo cannot rebuild it to resume, and skips the frame at the break."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        integrator = Integrator(0.5)
        print("integrating")  # SKIP BL401 BL209
        return integrator.step(x)


class TaggedTotal(nn.Module):
    """A tensor written as text: its text is its values."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        total = x.sum()
        label = "total " + str(total)  # BREAK BL107
        return x * len(label)


def weighted(x: torch.Tensor, **terms: torch.Tensor) -> torch.Tensor:
    total = x
    ordered = sorted(terms.items())  # BREAK BL106
    for _, term in ordered:
        total = total + term
    return total


class KeywordTerms(nn.Module):
    """Keyword arguments sorted as (name, value) pairs: Dynamo cannot sort tensors."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return weighted(x, b=x + 1, a=x * 2)


class SelfTuning(nn.Module):
    """An optimizer the module holds, used in its forward: torch.optim's methods break."""

    def __init__(self) -> None:
        super().__init__()
        self.scale = nn.Linear(8, 8)
        self.optimizer = torch.optim.SGD(self.scale.parameters(), lr=0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.optimizer.zero_grad()  # BREAK BL510
        return self.scale(x)


def recompute(func, inputs: tuple, params) -> torch.Tensor:
    """A checkpointing helper that logs each recomputation."""
    print("recomputing", len(inputs))  # BREAK BL401
    return func(*inputs)


class CheckpointedBlock(nn.Module):
    """A helper given `self.parameters()` breaks inside: Dynamo cannot rebuild the generator to
    resume after the break, and skips the frame at the call."""

    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return recompute(self.inner, (x,), self.parameters())  # SKIP BL210

    def inner(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(x).relu()


class Normaliser:
    """A value cached per object with `functools.cached_property`: its lock (Python < 3.12)."""

    def __init__(self, scale: torch.Tensor) -> None:
        self.scale = scale

    @functools.cached_property
    def inverse(self) -> torch.Tensor:
        return 1 / self.scale

    def apply(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.inverse  # SKIP BL511


class FreshNormaliser(nn.Module):
    """A new `Normaliser` on every call computes its cached property while compiling."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return Normaliser(x.std()).apply(x)  # SKIP BL208


class LocalOffset(nn.Module):
    """A class made in `forward` to close over a value: Dynamo does not trace `class`."""

    def forward(self, x: torch.Tensor, offset: float = 0.5) -> torch.Tensor:
        class Offset:  # SKIP BL513
            def apply(self, y: torch.Tensor) -> torch.Tensor:
                return y + offset

        return Offset().apply(x * 2)


class Rescale(nn.Module):
    """Made in a frame Dynamo skips: its `__init__` runs eagerly, a frame Dynamo skips too."""

    def __init__(self, factor: float) -> None:
        super().__init__()  # SKIP BL211
        self.factor = factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.factor


class RescaledSteps(nn.Module):
    """A break in a loop skips `forward`, so the `Rescale` each step makes runs eagerly."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for step in range(2):
            print("rescaling", step)  # SKIP BL202 BL401
            x = Rescale(2.0)(x)
        return x


def _sparse_rows(weights: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    scale = x.shape[0]
    return torch.sparse.mm(weights, x) * scale  # SKIP BL512


class SparseSpread(nn.Module):
    """A sparse tensor made in `forward`: each frame it reaches is skipped at its first read."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        index = torch.tensor([[0, 1], [1, 0]])
        weights = torch.sparse_coo_tensor(index, torch.ones(2), (2, 2))  # BREAK BL509
        h = x * 2
        return _sparse_rows(weights, h) + 1  # SKIP BL512


class _Location:
    def __init__(self, loc: torch.Tensor) -> None:
        self.loc = loc

    @property
    def centre(self) -> torch.Tensor:
        return self.loc


class _ShiftedLocation(_Location):
    @property
    def centre(self) -> torch.Tensor:
        centre = super().centre
        return centre + 1  # SKIP BL514

    def moved(self, x: torch.Tensor) -> torch.Tensor:
        return x - self.centre


class Recentred(nn.Module):
    """A property's getter that extends its base's through `super()`: Dynamo gets the
    `property` object, and skips the getter where it is used."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        location = _ShiftedLocation(x.mean())
        return location.moved(x) * 2


class _Routed(TypedDict, total=False):
    hidden: torch.Tensor
    expert: int


class Routed(nn.Module):
    """A TypedDict with optional keys made in `forward`: Dynamo cannot make it."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        routed = _Routed(hidden=x * 2, expert=1)  # BREAK BL515
        return routed["hidden"] + routed["expert"]


class GatheredRows(nn.Module):
    """Rows gathered into a buffer made empty beforehand (`x.new()`), as older code preallocates:
    torch resizes an out= tensor to the result, Dynamo does not."""

    def forward(self, x: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
        rows = x.new()
        torch.index_select(x, 0, idx, out=rows)  # BREAK BL305
        return rows * 2


class TrainableSum(nn.Module):
    """The trainable terms picked with `filter` before a log line and added after it: the
    resumed frame gets a `filter` object Dynamo did not make, and cannot iterate it."""

    def __init__(self) -> None:
        super().__init__()
        self.scale = nn.Parameter(torch.ones(8))
        self.offset = torch.zeros(8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        trainable = filter(lambda t: t.requires_grad, (self.scale, self.offset))
        logger.info("summing trainable terms")  # BREAK BL402
        return x + torch.stack([*trainable]).sum(0)  # SKIP BL212


class Calibrated(nn.Module):
    """Calls into an installed library (tests/libraries/calibration): Dynamo inlines its code,
    and breaks at the call where that code breaks (`peak_scaled` reads a tensor's value)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scaled = peak_scaled(x)  # LIBRARY BL516
        return centred(scaled) * 2


class GaussianHead(nn.Module):
    """A policy head that asks torch.distributions to check its parameters: the constructor
    calls `constraints.is_dependent`, which Dynamo skips."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        policy = torch.distributions.Normal(x, x.exp(), validate_args=True)  # BREAK BL517
        return policy.rsample() * 2


class _Registered(type):
    def __call__(cls, *args, **kwargs):
        return super().__call__(*args, **kwargs)  # BREAK BL518


class _NoisyScale(metaclass=_Registered):
    def __init__(self, scale: torch.Tensor) -> None:
        print("noisy scale")  # BREAK BL401
        self.scale = scale


class NoisyScaled(nn.Module):
    """A scale object made in `forward` whose `__init__` prints: the making runs eagerly, and
    Dynamo compiles its metaclass's `__call__` as a frame of its own, where `super().__call__`
    is no function Dynamo can call."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * _NoisyScale(x.mean()).scale + 1


def _times(h: torch.Tensor, factor: float) -> torch.Tensor:
    return h * factor


class _bound(functools.partial):
    """A partial of the project's own: Dynamo traces `functools.partial`, not a subclass."""


class BoundScale(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        doubled = _bound(_times, factor=2.0)  # BREAK BL519
        return doubled(x) + 1


class QuasiNoise(nn.Module):
    """A quasi-random engine `__init__` makes: Dynamo skips torch's `quasirandom` module, so
    its `draw` is a call it refuses to trace."""

    def __init__(self) -> None:
        super().__init__()
        self.engine = SobolEngine(dimension=8, scramble=True, seed=0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x * 2
        points = self.engine.draw(x.shape[0])  # BREAK BL520
        return h + points


class Reordered(nn.Module):
    """A forward that only picks its inputs in an order traces no op: Dynamo skips its frame
    without a report, and with Python before 3.12 the comprehension, a frame of its own that
    reads the inputs, is compiled alone and skipped: Dynamo cannot step its list iterator."""

    def forward(self, parts: list[torch.Tensor], order: list[int]) -> list[torch.Tensor]:
        return [parts[i] for i in sorted(order)]  # SKIP BL523
