from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import (
    CheckReads,
    check_fix,
    offer,
    only_notices,
    owns_its_lines,
    tensor_valued,
)
from breaklint.kinds import Kind
from breaklint.knowledge.answers import TENSOR_METHOD_NAMES, VALUE_UPDATE_METHODS
from breaklint.rule import FixExample, Rule, RuleContext
from breaklint.rules.control_flow._branch_rewrites import (
    CONDITION_NAME,
    FLAGGED,
    WHILE_FUNCTIONS,
    assert_in_graph,
    flagged,
    flagged_after,
    flagged_where_expression,
    logical_value,
    number_test,
    stacked_truths,
    unguarded,
    where_chain,
    where_expression,
    where_folded,
    where_hoisted,
    where_in_place,
    where_return,
    where_return_early,
    where_statement,
    where_store,
    where_told,
    while_loop,
)
from breaklint.syntax import dotted, excerpt, iter_nodes, negated, without_not

if TYPE_CHECKING:
    from breaklint.rewrites import Rewrite


_TRACKER = """
import torch


class Tracker(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("low", torch.tensor(float("inf")))
        self.register_buffer("high", torch.tensor(float("-inf")))

    def forward(self, x):
%s
        return (x - self.low) / (self.high - self.low)


def track(tracker, x):
    return tracker(x), tracker(x * 2)


compiled = torch.compile(track)
"""
_TRACKER_BRANCH = """\
        if self.low == float("inf"):
            self.low.copy_(x.min())
            self.high.copy_(x.max())
        else:
            self.low.lerp_(x.min(), 0.1)
            self.high.lerp_(x.max(), 0.1)"""
_TRACKER_WHERE = """\
        condition_holds = self.low == float("inf")
        self.low.copy_(torch.where(condition_holds, x.min(), self.low.lerp(x.min(), 0.1)))
        self.high.copy_(torch.where(condition_holds, x.max(), self.high.lerp(x.max(), 0.1)))"""


_GATE = """
import torch


class Block(torch.nn.Module):
    def forward(self, x):
        return x.tanh() * 3


class Gate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        h = x * 2
        if h.mean() > 0:
            out = self.block(h)
        else:
            out = h - 1
        return out


compiled = torch.compile(Gate())
"""
_GATE_BRANCH = """        if h.mean() > 0:
            out = self.block(h)
        else:
            out = h - 1
"""
_GATE_WHERE = """        out = torch.where(h.mean() > 0, self.block(h), h - 1)
"""
_LABELS = """
import warnings

import torch


def labels(y: torch.Tensor) -> torch.Tensor:
    if (y == -1).any():
        warnings.warn("labels in {-1, 1} are deprecated")
    else:
        y = y * 2 - 1
    return y * 3


compiled = torch.compile(labels)
"""
_LABELS_BRANCH = """\
    if (y == -1).any():
        warnings.warn("labels in {-1, 1} are deprecated")
    else:
        y = y * 2 - 1
"""
_LABELS_COMPILED = """\
    if torch.compiler.is_compiling():
        y = torch.where((y == -1).any(), y, y * 2 - 1)
    else:
        if (y == -1).any():
            warnings.warn("labels in {-1, 1} are deprecated")
        else:
            y = y * 2 - 1
"""
_RATES = """
import warnings

import torch


def notify(message, category=UserWarning):
    warnings.warn(message, category, stacklevel=3)


def rates(counts, scale):
    counts = torch.cat([torch.zeros(1), counts.cumsum(0)])
    if counts[-1] <= 0:
        notify(f"no positive {counts.dtype} samples: the rates are zero", RuntimeWarning)
        rate = torch.zeros_like(counts)
    else:
        rate = counts / counts[-1]
    return rate * scale


compiled = torch.compile(rates)
"""
_RATES_BRANCH = """\
    if counts[-1] <= 0:
        notify(f"no positive {counts.dtype} samples: the rates are zero", RuntimeWarning)
        rate = torch.zeros_like(counts)
    else:
        rate = counts / counts[-1]
"""
_RATES_COMPILED = """\
    if torch.compiler.is_compiling():
        rate = torch.where(counts[-1] <= 0, torch.zeros_like(counts), counts / counts[-1])
    else:
        if counts[-1] <= 0:
            notify(f"no positive {counts.dtype} samples: the rates are zero", RuntimeWarning)
            rate = torch.zeros_like(counts)
        else:
            rate = counts / counts[-1]
"""
_WEIGHTED = """
import torch


class Weighted(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)
        self.register_buffer("mix", torch.tensor(0.5))

    def gap(self, x, y):
        return (x - y).pow(2).mean()

    def forward(self, x):
        y = self.proj(x)
        zero = y.sum() * 0
        loss = self.gap(x, y) if self.training and self.mix != 0 else zero
        return y, self.mix * loss


compiled = torch.compile(Weighted())
"""
_WEIGHTED_CHOICE = "        loss = self.gap(x, y) if self.training and self.mix != 0 else zero\n"
_WEIGHTED_WHERE = (
    "        loss = torch.where(self.mix != 0, self.gap(x, y), zero) if self.training else zero\n"
)
_RESIDUAL = """
import torch


class Residual(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x):
        if x.abs().max() > 2:
            return self.proj(x)
        else:
            return x + self.proj(x)


compiled = torch.compile(Residual())
"""
_RESIDUAL_BRANCH = """        if x.abs().max() > 2:
            return self.proj(x)
        else:
            return x + self.proj(x)
"""
_RESIDUAL_WHERE = """        return torch.where(x.abs().max() > 2, self.proj(x), x + self.proj(x))
"""


_BUILT_MESSAGE = "an `assert` whose message is made at run time"


def _built_message(message: ast.expr | None) -> bool:
    """Whether an assert's message is made when it fails: neither absent nor a constant (an
    f-string without fields is one)."""
    if message is None or isinstance(message, ast.Constant):
        return False
    return not (
        isinstance(message, ast.JoinedStr)
        and all(isinstance(part, ast.Constant) for part in message.values)
    )


class DataDependentBranch(Rule):
    code = "BL201"
    name = "data-dependent-branch"
    # the constructs whose truth it reads: `if`, `elif`, `while`, `assert`, `and`, `or`, and
    # `any()` / `all()` (a conditional expression and a comprehension's filter write `if`)
    words = frozenset({"if", "elif", "while", "assert", "and", "or", "any", "all"})
    severity = Severity.ERROR
    message = (
        "{construct} decides on a tensor's value; Dynamo cannot know which way it goes while "
        "tracing, so it breaks the graph here"
    )
    hint = (
        "keep the choice in the graph: `torch.where(cond, a, b)` for values, "
        "`torch.cond(pred, true_fn, false_fn)` for branches; or decide on shapes or flags"
    )
    what = """
Flags `if`, `elif`, `while`, conditional expressions, comprehension filters and `and`/`or`
whose truth depends on tensor data (`if t.sum() > 0`, `if (t > 0).any()`, `if score > 0` where
`score` is a tensor). Shapes, dtypes, devices, `None` checks, `self.training` and config flags
are known while tracing and are never flagged; neither is `assert t` or `assert t, "text"`,
which Dynamo traces into the graph, but an `assert` whose message is made at run time is
(`assert t.min() >= 0, f"got {t.min()}"`: Dynamo recognises an assert only by a constant
message or none), and `and`, `or` and `not` inside an `assert` are (`assert (t > 0).all() and
t.sum() != 0` calls `bool()` on the first tensor), and so is a chained comparison of tensors
(`assert t0 <= t <= t1` is `t0 <= t and t <= t1`). So are the builtins `any()` and `all()`
drawing tensors, at the element: a generator or comprehension whose element is a tensor test
(`any(torch.isnan(t).any() for t in parts)`, also BL206 for a generator) or a tensor itself
(`all(mask)`, each row's truth); over Python values or sizes (`any(n == 0 for n in x.shape)`)
they are not.

A finding is an error when the value is certainly a tensor, and a warning when the break
depends on something else: the condition sits behind a trace-time test (`x.dtype ==
torch.float16 and not torch.isfinite(x).all()`, a branch under `if self.training:`), or its
only tensor is a parameter of the compiled function that no tensor operation has touched
(`if scale > 0` may compare a Python number; one used as only a tensor can be, `lengths[:,
None]` or `lengths.unsqueeze(1)`, is a tensor for certain). A bare parameter as a condition
(`if flag:`) is taken for a Python flag: the truth of a multi-element tensor raises even in
eager mode.
"""
    why = """
Python must call `bool()` on the tensor to pick a branch, which needs its value. Dynamo traces
with fake tensors and cannot know it, so it ends the graph at the jump (GB0170, "Data-dependent
branching"), runs the comparison eagerly and compiles each side separately.
"""
    example = """
import torch


def clip_positive(x):
    y = x * 2
    if y.sum() > 0:
        return y - 1
    return y + 1


compiled = torch.compile(clip_positive)
"""
    use_instead = """
import torch


def clip_positive(x):
    y = x * 2
    return torch.where(y.sum() > 0, y - 1, y + 1)


compiled = torch.compile(clip_positive)
"""
    probe = "(clip_positive, (torch.randn(8),))"
    gb_ids = ("GB0170",)
    fix_examples = (
        FixExample(
            before="""
import torch


def clip_positive(x):
    y = x * 2
    if y.sum() > 0:
        out = y - 1
    else:
        out = y + 1
    return out


compiled = torch.compile(clip_positive)
""",
            after="""
import torch


def clip_positive(x):
    y = x * 2
    out = torch.where(y.sum() > 0, y - 1, y + 1)
    return out


compiled = torch.compile(clip_positive)
""",
            probe="(clip_positive, (torch.randn(8),))",
        ),
        FixExample(
            before="""
import torch


def damp(x, limit):
    y = x * (x.abs() > limit).float()
    if y.mean() > 0.5:
        y = y / 2
    return y * 0.5 if y.max() > 1 else y


compiled = torch.compile(damp)
""",
            after="""
import torch


def damp(x, limit):
    y = x * (x.abs() > limit).float()
    y = torch.where(y.mean() > 0.5, y / 2, y)
    return torch.where(y.max() > 1, y * 0.5, y)


compiled = torch.compile(damp)
""",
            probe="(damp, (torch.randn(8) * 3, torch.tensor(1.0)))",
        ),
        FixExample(
            before="""
import torch


def checked_log(x):
    if (x <= 0).any():
        raise ValueError("log of a non-positive value")
    return torch.log(x)


compiled = torch.compile(checked_log)
""",
            after="""
import torch


def checked_log(x):
    torch._assert_async(torch.logical_not((x <= 0).any()), "log of a non-positive value")
    return torch.log(x)


compiled = torch.compile(checked_log)
""",
            probe="(checked_log, (torch.rand(8) + 0.1,))",
        ),
        FixExample(
            before="""
import torch


def interpolate(t0, y0, t1, y1, t):
    assert t0 <= t <= t1, f"t={t} outside [{t0}, {t1}]"
    return (t1 - t) / (t1 - t0) * y0 + (t - t0) / (t1 - t0) * y1


compiled = torch.compile(interpolate)
""",
            after="""
import torch


def interpolate(t0, y0, t1, y1, t):
    if torch.compiler.is_compiling():
        torch._assert_async(torch.logical_and(torch.as_tensor(t0 <= t), torch.as_tensor(t <= t1)), "t={t} outside [{t0}, {t1}]")
    else:
        assert t0 <= t <= t1, f"t={t} outside [{t0}, {t1}]"
    return (t1 - t) / (t1 - t0) * y0 + (t - t0) / (t1 - t0) * y1


compiled = torch.compile(interpolate)
""",  # noqa: E501
            probe=(
                "(interpolate, (torch.tensor(0.0), torch.randn(4), torch.tensor(1.0),"
                " torch.randn(4), torch.tensor(0.25)))"
            ),
        ),
        FixExample(
            before="""
import torch


def hit_rate(hits, seen):
    total = seen.sum()
    if total == 0:
        return torch.zeros_like(total)  # nothing seen yet
    return hits.sum() / total


compiled = torch.compile(hit_rate)
""",
            after="""
import torch


def hit_rate(hits, seen):
    total = seen.sum()
    # nothing seen yet
    return torch.where(total == 0, torch.zeros_like(total), hits.sum() / total)


compiled = torch.compile(hit_rate)
""",
            probe="(hit_rate, (torch.rand(8), torch.rand(8)))",
        ),
        FixExample(
            before="""
import torch


def span(t0, t1, y):
    if t0 > t1:
        raise ValueError(f"start {t0} after end {t1}")
    return y * (t1 - t0)


compiled = torch.compile(span)
""",
            after="""
import torch


def span(t0, t1, y):
    if torch.compiler.is_compiling():
        torch._assert_async(torch.logical_not(torch.as_tensor(t0 > t1)), "start {t0} after end {t1}")
    elif t0 > t1:
        raise ValueError(f"start {t0} after end {t1}")
    return y * (t1 - t0)


compiled = torch.compile(span)
""",  # noqa: E501
            probe="(span, (torch.tensor(0.0), torch.tensor(2.0), torch.randn(4)))",
        ),
        FixExample(
            before="""
import torch


def rising_gain(ts, y):
    rising = all(a < b for a, b in zip(ts[:-1], ts[1:]))
    return y * rising


compiled = torch.compile(rising_gain)
""",
            after="""
import torch


def rising_gain(ts, y):
    rising = torch.stack([torch.as_tensor(a < b) for a, b in zip(ts[:-1], ts[1:])] or [torch.as_tensor(True)]).all()
    return y * rising


compiled = torch.compile(rising_gain)
""",  # noqa: E501
            probe="(rising_gain, (torch.linspace(0, 1, 5), torch.randn(4)))",
        ),
        FixExample(
            before=_GATE,
            after=_GATE.replace(_GATE_BRANCH, _GATE_WHERE),
            probe="(Gate(), (torch.randn(4, 8),))",
        ),
        FixExample(
            before="""
import torch


def finite_or_0(x):
    y = x.exp()
    if not y.isfinite().all() or y.max() > 9:
        y = 0 * y
    if not (y >= 0).all():
        raise ValueError("negative exponential")
    return y


compiled = torch.compile(finite_or_0)
""",
            after="""
import torch


def finite_or_0(x):
    y = x.exp()
    y = torch.where(torch.logical_or(torch.logical_not(y.isfinite().all()), y.max() > 9), 0 * y, y)
    torch._assert_async((y >= 0).all(), "negative exponential")
    return y


compiled = torch.compile(finite_or_0)
""",
            probe="(finite_or_0, (torch.randn(8),))",
        ),
        FixExample(
            before="""
import torch


def both_positive(x, y):
    ready = (x > 0).any() and (y > 0).all()
    return torch.where(ready, x + y, x - y)


compiled = torch.compile(both_positive)
""",
            after="""
import torch


def both_positive(x, y):
    ready = torch.logical_and((x > 0).any(), (y > 0).all())
    return torch.where(ready, x + y, x - y)


compiled = torch.compile(both_positive)
""",
            probe="(both_positive, (torch.randn(8), torch.randn(8)))",
        ),
        FixExample(
            before=_RESIDUAL,
            after=_RESIDUAL.replace(_RESIDUAL_BRANCH, _RESIDUAL_WHERE),
            probe="(Residual(), (torch.randn(4, 8),))",
        ),
        FixExample(
            before="""
import torch


def settle(x):
    y = x.clamp(0, 1)
    previous = torch.zeros_like(y)
    while (y - previous).abs().max() > 1e-3:
        previous = y
        y = (y + y.mean()) / 2
    return y


compiled = torch.compile(settle)
""",
            after="""
import torch


def settle(x):
    y = x.clamp(0, 1)
    previous = torch.zeros_like(y)
    def while_condition(previous, y):
        return (y - previous).abs().max() > 1e-3
    def while_body(previous, y):
        previous = y
        y = (y + y.mean()) / 2
        return previous.clone(), y.clone()
    previous, y = torch.while_loop(while_condition, while_body, (previous, y))
    return y


compiled = torch.compile(settle)
""",
            probe="(settle, (torch.randn(16) * 3,))",
        ),
        FixExample(
            before="""
import torch


def bounded(x, limit):
    y = x.abs() * 2
    if y.max() > limit:
        # the message reads the values: Python formats it
        raise ValueError(f"{y.max():.2f} is over {limit}")
    return y


compiled = torch.compile(bounded)
""",
            after="""
import torch


def bounded(x, limit):
    y = x.abs() * 2
    if torch.compiler.is_compiling():
        torch._assert_async(torch.logical_not(y.max() > limit), "{y.max():.2f} is over {limit}")
    elif y.max() > limit:
        # the message reads the values: Python formats it
        raise ValueError(f"{y.max():.2f} is over {limit}")
    return y


compiled = torch.compile(bounded)
""",
            probe="(bounded, (torch.randn(8), 100.0))",
        ),
        FixExample(
            before=_WEIGHTED,
            after=_WEIGHTED.replace(_WEIGHTED_CHOICE, _WEIGHTED_WHERE),
            probe="(Weighted().train(), (torch.randn(4, 8),))",
        ),
        FixExample(
            before=_TRACKER % _TRACKER_BRANCH,
            after=_TRACKER % _TRACKER_WHERE,
            probe="(track, (Tracker(), torch.randn(8)))",
        ),
        FixExample(
            before=_LABELS,
            after=_LABELS.replace(_LABELS_BRANCH, _LABELS_COMPILED),
            probe="(labels, (torch.tensor([0.0, 1.0, 1.0]),))",
        ),
        FixExample(
            before=_RATES,
            after=_RATES.replace(_RATES_BRANCH, _RATES_COMPILED),
            probe="(rates, (torch.rand(6), 2.0))",
        ),
        FixExample(
            before="""
import torch


def checked(x):
    y = x.exp()
    if not torch.isfinite(y).all():
        print("overflow in exp")
    return y * 2


compiled = torch.compile(checked)
""",
            after="""
import torch


def checked(x):
    y = x.exp()
    if not torch.compiler.is_compiling():
        if not torch.isfinite(y).all():
            print("overflow in exp")
    return y * 2


compiled = torch.compile(checked)
""",
            probe="(checked, (torch.randn(8),))",
        ),
        FixExample(
            before="""
import torch


def rotary(positions, inv_freq, base_len):
    longest = positions.max() + 1
    # longer sequences than trained on: slower frequencies
    if longest > base_len:
        scale = longest / base_len
        freq = inv_freq / scale
    else:
        freq = inv_freq
    return positions.float().unsqueeze(-1) * freq


compiled = torch.compile(rotary)
""",
            after="""
import torch


def rotary(positions, inv_freq, base_len):
    longest = positions.max() + 1
    # longer sequences than trained on: slower frequencies
    scale = longest / base_len
    freq = torch.where(longest > base_len, inv_freq / scale, inv_freq)
    return positions.float().unsqueeze(-1) * freq


compiled = torch.compile(rotary)
""",
            probe="(rotary, (torch.randint(0, 16, (2, 8)), torch.rand(4), 4))",
        ),
        FixExample(
            before="""
import torch


def clipped(x, clip):
    y = x * 2
    if clip and y.abs().amax() > 1:  # only when asked
        peak = y.abs().amax()
        y = y / peak
    return y


compiled = torch.compile(clipped)
""",
            after="""
import torch


def clipped(x, clip):
    y = x * 2
    if clip:
        # only when asked
        peak = y.abs().amax()
        y = torch.where(y.abs().amax() > 1, y / peak, y)
    return y


compiled = torch.compile(clipped)
""",
            probe="(clipped, (torch.randn(8), True))",
        ),
        FixExample(
            before="""
import torch


def soft_sign(x):
    total = x.sum()
    if total > 1:
        y = x / total
    elif total < -1:  # negative
        y = -x / total
    else:
        y = x
    return y


compiled = torch.compile(soft_sign)
""",
            after="""
import torch


def soft_sign(x):
    total = x.sum()
    # negative
    y = torch.where(total > 1, x / total, torch.where(total < -1, -x / total, x))
    return y


compiled = torch.compile(soft_sign)
""",
            probe="(soft_sign, (torch.randn(8),))",
        ),
        FixExample(
            before="""
import torch


def log_or_zero(x):
    y = x.log()
    gaps = torch.isnan(y)
    if gaps.any():  # log of a negative
        y[gaps] = 0.0
    return y * 2


compiled = torch.compile(log_or_zero)
""",
            after="""
import torch


def log_or_zero(x):
    y = x.log()
    gaps = torch.isnan(y)
    # log of a negative
    y[gaps] = 0.0
    return y * 2


compiled = torch.compile(log_or_zero)
""",
            probe="(log_or_zero, (torch.randn(8),))",
        ),
        FixExample(
            before="""
import torch


def rescaled(x):
    y = x * 2
    if y.abs().amax() < 1e-3:
        return y
    # to unit range
    scale = y.abs().amax()
    return y / scale


compiled = torch.compile(rescaled)
""",
            after="""
import torch


def rescaled(x):
    y = x * 2
    # to unit range
    scale = y.abs().amax()
    return torch.where(y.abs().amax() < 1e-3, y, y / scale)


compiled = torch.compile(rescaled)
""",
            probe="(rescaled, (torch.randn(8),))",
        ),
        FixExample(
            before="""
import torch


def split_gain(x):
    y = x * 2
    if y.sum() > 0:
        s = y.abs().amax()
        low = y / s
        high = y * s
    else:
        low = y
        high = y + 1
    return low - high


compiled = torch.compile(split_gain)
""",
            after="""
import torch


def split_gain(x):
    y = x * 2
    condition_holds = y.sum() > 0
    s = y.abs().amax()
    low = torch.where(condition_holds, y / s, y)
    high = torch.where(condition_holds, y * s, y + 1)
    return low - high


compiled = torch.compile(split_gain)
""",
            probe="(split_gain, (torch.randn(8),))",
        ),
        FixExample(
            before="""
import torch


def clamp_border(x):
    x = torch.tanh(x) * 2
    if x[:, 0].abs().max() > 1:
        x[:, 0] = 0.0
        x[:, -1] = x[:, -1] / 2
    return x


compiled = torch.compile(clamp_border)
""",
            after="""
import torch


def clamp_border(x):
    x = torch.tanh(x) * 2
    condition_holds = x[:, 0].abs().max() > 1
    x[:, 0] = torch.where(condition_holds, 0.0, x[:, 0])
    x[:, -1] = torch.where(condition_holds, x[:, -1] / 2, x[:, -1])
    return x


compiled = torch.compile(clamp_border)
""",
            probe="(clamp_border, (torch.randn(4, 5),))",
        ),
        FixExample(
            before="""
import torch


def step(x, state):
    y = x * 2
    if y.norm() > 1:
        return y / y.norm(), state + 1
    return y, state


compiled = torch.compile(step)
""",
            after="""
import torch


def step(x, state):
    y = x * 2
    condition_holds = y.norm() > 1
    return torch.where(condition_holds, y / y.norm(), y), torch.where(condition_holds, state + 1, state)


compiled = torch.compile(step)
""",  # noqa: E501
            probe="(step, (torch.randn(8), torch.zeros(())))",
        ),
        FixExample(
            before="""
import torch


def mean_loss(losses, count):
    output = losses.sum() / count
    if torch.isnan(output) and losses.dtype == torch.float16:
        output = losses.nan_to_num().float().sum() / count
        output = output.half()
    return output


compiled = torch.compile(mean_loss)
""",
            after="""
import torch


def mean_loss(losses, count):
    output = losses.sum() / count
    if losses.dtype == torch.float16:
        output = torch.where(torch.isnan(output), (losses.nan_to_num().float().sum() / count).half(), output)
    return output


compiled = torch.compile(mean_loss)
""",  # noqa: E501
            probe="(mean_loss, (torch.tensor([1.5, float('nan'), 2.0]).half(), 3))",
        ),
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {
        "where": where_statement,
        "where-expression": where_expression,
        "where-expression-flagged": flagged_where_expression,
        "assert": assert_in_graph,
        "where-return": where_return,
        "where-return-early": where_return_early,
        "logical": logical_value,
        "while-loop": while_loop,
        "where-told": where_told,
        "where-in-place": where_in_place,
        "where-hoisted": where_hoisted,
        "where-chain": where_chain,
        "where-store": where_store,
        "unguarded": unguarded,
        "stacked": stacked_truths,
        # `if flag and cond:` (FLAGGED): `if flag:` around the fix of `if cond:`
        "flagged-where": flagged(where_statement),
        "flagged-where-hoisted": flagged(where_hoisted),
        "flagged-unguarded": flagged(unguarded),
        "flagged-where-in-place": flagged(where_in_place),
        "flagged-where-folded": flagged(where_folded),
        "where-folded": where_folded,
        # `if cond and flag:`: `if flag:` around the fix of `if cond:`
        "flagged-after-where": flagged_after(where_statement),
        "flagged-after-where-hoisted": flagged_after(where_hoisted),
        "flagged-after-unguarded": flagged_after(unguarded),
        "flagged-after-where-in-place": flagged_after(where_in_place),
        "flagged-after-where-folded": flagged_after(where_folded),
    }
    fix_safety = """
Unsafe fix: one per shape of branch whose condition is a tensor test, or tensor tests joined
by `not`, `and` and `or` (written `torch.logical_not`, `torch.logical_and`, `torch.logical_or`
by the fix, since `not t` still calls `bool()`; a test that mixes in a trace-time value, as
`x.dtype == torch.float16 or ...`, gets no fix, save `and`-joined flags (below), nor one
whose tensor is only guessed, as a parameter no tensor operation touched, which may be a
Python bool at run time):
- an `if`/`else` whose two branches only assign a value to the same names (and an `if` without
  `else` assigning a name already bound to a tensor, or a parameter the test reads as one,
  `if torch.isnan(x).any(): x = torch.nan_to_num(x)`) becomes `name = torch.where(cond, a, b)`
  (several names: `a, b = torch.where(...), torch.where(...)` after `condition_holds = cond`
  where the test is more than a name, offered where no value reads a name its branch
  assigned before it, since every value is now computed before any name is assigned);
  an `if`/`else` whose branches each only return a value becomes `return torch.where(cond,
  a, b)`, and so does a function that ends in `if cond: return a` (no `else`; also an `elif` chain
  of returns, nested) and `return b`
  (each `return` alone on its lines; the function is what the fix rewrites), also with plain
  assignments of tensors or numbers to names between them (`scale = y.abs().max()`), which
  then run on both ways, before the `return`: offered where they bind no name the test or
  `a` reads. Two tuples written out, of the same length (`return y, state` / `return y - 1,
  state0`, not an `elif` chain), give the tuple of one `torch.where` per element, after
  `condition_holds = cond` where the test is more than a name (offered where the file does
  not use that name); a
  conditional expression `a if cond else b` becomes `torch.where(cond, a, b)`. Both
  sides are now computed, which costs time and can raise where the untaken side used to be
  skipped, and Python numbers become tensors (broadcasting and type promotion are
  `torch.where`'s). `a if flag and cond else b`, whose operands before the tensor test are
  known while tracing (`self.training`), becomes `torch.where(cond, a, b) if flag else b`:
  the flags stay a Python choice. Offered when every value is a tensor (also the call of a
  `torch.nn` submodule of the class, or a name the test calls a tensor method on, `y` of `if
  y.mean() > 0:`, where the branch does not bind it again, and arithmetic of such names and
  numbers) or a number, or of no known kind (a project submodule's call)
  beside a certain tensor for the same name. The comments inside the `if` and its `else`
  are kept, each on a line of its own, above the statement the fix writes.
- an `if`/`else` (or an `if` alone) whose branches only assign plain names, some of them
  intermediate values one branch computes on the way (`scale = n / base` then `freq = f /
  scale`), becomes those intermediate assignments, each branch's in order, then `name =
  torch.where(cond, a, b)` for each name both branches assign (without `else`: the last
  statement's name, which keeps its value otherwise; after `condition_holds = cond` where
  there are several). Offered where no intermediate name is read anywhere else in the
  function or in the test, each is bound to a tensor or a number, the chosen values read
  no other chosen name, and no statement reads what the other branch's intermediates bind
  or what its own branch chose before it: the order of the reads is kept. Both branches'
  intermediates are now computed on every call (time, and an error where the untaken branch
  used to be skipped: a division by zero gives `inf` in the untaken side, which `where`
  then drops).
- an `if`/`else` whose branches only assign the same targets in the same order, some of
  them an element, a slice or an attribute (`x[:, 0] = 0.0`, `out["scale"] = s`,
  `self.scale = s`), becomes `target = torch.where(cond, a, b)` per target, in their order;
  without `else`, offered where each target holds a tensor already (a name or an attribute
  bound to one, or a slice of one by numbers and Python ints, `x[:, 1:n]`, never a mask or a
  tensor of indices), `b` being the target itself: where the test does not hold, each store
  writes back what it read. Where there are several, the condition is computed once before
  them (`condition_holds = cond`), since a store may change what it reads; a test that is the
  tensor a store writes gets no fix. Every target is now written on every call (in place for
  an element or a slice: autograd sees an in-place write where the untaken branch made none).
- an `if flag and cond:` without `else`, whose operands before the last are known while
  tracing (`self.training`, a Python flag) and whose `if cond:` alone would get the `where`
  fix (an assignment, intermediate values too, or updates in place) or the masked stores'
  one, becomes `if flag:`
  around that fix: the flags stay a Python choice. So does `if cond and flag:`, the flags
  after the tensor test, where each is built only of names, attributes and constants,
  compared or negated (`losses.dtype == torch.float16`, `not self.training`): they are now
  read before the test, where Python read them only once it held (a flag that is a property
  with side effects, or an attribute of `None` that raised only where the test held, behaves
  otherwise); a flag that calls anything gets no fix.
- an `if` without `else` that only assigns names, where a name is assigned again right after
  from a value that reads it once (`output = a` then `output = output.half()`), gets the
  `where` fix with each such run folded into one value, `torch.where(cond, a.half(), output)`
  (the earlier value in parentheses where it is an operation and not an argument); offered
  where no comment sits in the branch (its lines are merged) and the name is read once,
  outside a lambda or comprehension, with the `where` fix's caveats (every value computed on
  every call).
- an `if`/`elif`/`else` chain whose branches each only return a value, or each only assign
  the same names in the same order (the `else` may be missing where each name is bound to a
  tensor already, which then keeps its value), becomes one statement of nested `torch.where`s,
  the first test outermost: `y = torch.where(c1, a, torch.where(c2, b, c))`, or `return`
  of it. Every test is now computed, as is every branch's value; where several names are
  assigned, offered only where no test reads one of them.
- an `if` without `else` whose test is whether a mask holds anywhere (`m.any()`,
  `torch.any(m)`, `m.sum() > 0`, `m` a name bound to a tensor) and whose body only stores
  through that mask (`t[m] = v`, `t[m] += v`, each value a number or read through the same
  mask, `w[m]`) becomes its body: with an empty mask each store changes nothing. A value
  computed from the empty selection now runs where it was skipped (a reduction of it, as
  `w[m].max()`, raises); the stores themselves are BL302's to fix.
- an `if`/`else` whose branches only update the same tensors in place, in the same order
  (`self.low.copy_(x.min())` / `self.low.lerp_(x.min(), 0.1)`: each statement a chain of
  in-place methods that update values, on a name or an attribute bound to a tensor; an `if`
  without `else` too), becomes one `t.copy_(torch.where(cond, a, b))` per tensor, `a` and `b`
  each branch's chain with its methods' out-of-place twins (`self.low.lerp(x.min(), 0.1)`;
  `copy_(v)` gives `v`; `t` itself where there is no `else`); an augmented assignment to a
  tensor (`t += v`, `-=`, `*=`, `/=`, `//=`, `**=`), which updates it in place, counts as
  one such update, its value `t + v`. Where several tensors are
  updated, the condition is computed once before them, as `condition_holds = cond` (offered
  where the file does not use that name), since an update may change what it reads. Both
  branches are computed on every call; the twins compute in the promoted dtype and cast once
  at the `copy_`, where the in-place chain cast after each method (float tolerance); and a
  branch that raised (an in-place cast an integer tensor refuses) now does not. Methods that
  change a shape, a view, autograd state or draw random numbers (`resize_`, `t_`,
  `detach_`, `bernoulli_`, ...) get no fix.
- an `if` whose only statement raises an exception with a literal message (or none) becomes
  `torch._assert_async(torch.logical_not(cond), message)` (`torch._assert_async(c, ...)` for
  `if not c:`), which Dynamo keeps in the graph: the error is raised later (when the device
  syncs) and is a `RuntimeError`, not the exception the code raised. (`torch._check` is no
  way out in 2.13: given a tensor it raises `TypeError`, given `bool(t)` it breaks.)

- `a and b` / `a or b` used as a value, where every operand is a boolean tensor (a
  comparison, `.any()`, `.all()`, `isfinite`...), becomes `torch.logical_and(a, b)` /
  `torch.logical_or(a, b)`: the same truth, as a boolean tensor rather than one of the operands.

- a `while` loop on a tensor test whose body only assigns tensors to names bound to tensors
  before it becomes `torch.while_loop(while_condition, while_body, (names,))`, the condition
  and the body written as two functions of those names just before it (the fix is offered
  where the file uses neither name). The body returns a copy of each value (`.clone()`, one
  copy per name and step), since `torch.while_loop` refuses a body that returns an input as
  it is. `torch.while_loop` needs every value to keep its shape and dtype from step to step,
  which the code does not show: where one changes, Dynamo raises rather than breaks, and so
  does the eager call (it compiles the loop itself, whole); with probes, `--fix` undoes such a
  fix.

- an `if` whose body computes anything and ends in a `raise` (a message that reads values,
  say), with no `else` and no other way out, becomes `if torch.compiler.is_compiling():
  torch._assert_async(<not cond>, "<the message as written>")` followed by the `if` as it was,
  now an `elif`: eager runs check and raise exactly as before; compiled code checks in the
  graph and raises a `RuntimeError` with the message's text unformatted (an f-string's fields
  as written).

- the same for a raising `if` whose operands may be Python values at run time (a parameter
  no tensor operation touched, `if t0 > t1: raise ...`) or whose test is a chained comparison,
  with each operand made a tensor by `torch.as_tensor` and `a < b < c` written
  `torch.logical_and(torch.as_tensor(a < b), torch.as_tensor(b < c))` (offered where `b` is a
  name or an attribute, read twice); and for an `assert` whose test Python reads the truth of a
  tensor in (`assert not torch.isnan(e).any(), msg`, `assert t0 <= t <= t1`): `if
  torch.compiler.is_compiling(): torch._assert_async(<test as a tensor>, "<msg>")`, and the
  `assert` as written under `else:`. Compiled code checks in the graph and raises a
  `RuntimeError` (also under `python -O`, which drops the `assert`).

- `all(test for ...)` / `any(...)` over tensor truths (a generator or a list comprehension
  whose element `_assert_async` could take) becomes `torch.stack([torch.as_tensor(test) for
  ...] or [torch.as_tensor(True)]).all()` (`False` and `.any()` for `any`): the answer is a
  0-dim boolean tensor, not a Python bool (its truth is the same, but a caller that decides on
  it still reads it, and `is True` no longer holds); every element is computed, where the
  builtin stopped at the first that decided; and an element that is a tensor of several values,
  on which the builtin raised, now takes part in the reduction.

- an `if`/`else` whose branches tell and assign (a call that only tells: `warnings.warn`,
  `print`, or a function, not a method, given only a message: text, with warning categories
  and constants beside it, `notify(f"{t.dtype} overflows", RuntimeWarning)`; it is passed
  nothing the code computes but text) becomes `if torch.compiler.is_compiling():` with `name =
  torch.where(cond, a, b)` per name the branches assign (the same names in the same order, or
  one branch only tells and the other updates names bound to tensors: the name is kept where
  the telling branch ran), and the `if` as it was under `else:`: eager runs are unchanged;
  compiled code tells nothing. An `if` without `else` that only tells is guarded with `if not
  torch.compiler.is_compiling():`, whatever its test reads (also a tensor test joined with a
  Python flag, `if torch.isnan(y).any() and DEBUG:`, which `torch.where` could not take). A
  function given only a message is taken to only tell: one that changes state its text does
  not name (a global counter) would do so only eagerly now.

A value joined along a dimension (`torch.cat`, `torch.stack`, `torch.hstack`, ...) has another
shape than the tensors it joins, so `torch.where` cannot choose between them: a branch that
assigns or returns one gets no `torch.where` fix.
Branches that do more than assign or return get no fix: `torch.cond` traces them in 2.13 only
when both branches return tensors of the same shape and dtype, neither returns an input
unchanged or mutates one, and neither breaks (a `print`, an `.item()`); otherwise it raises
`UncapturedHigherOrderOpError` instead of breaking, which a fix cannot rule out from the code.
"""

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._tests: set[int] = set()  # conditions already judged as a whole
        self._elifs: dict[int, bool] = {}  # each `elif` to come: whether to judge its test
        self._parameters: set[str] = set()  # may hold None or a number whatever they become
        # The `any()`/`all()` call of each comprehension it draws from, by the comprehension's id.
        self._drawn: dict[int, ast.Call] = {}
        # The names the test of the branch being fixed reads as tensors (`_tested_tensor`).
        self._tested: set[str] = set()

    def _check(
        self,
        test: ast.expr,
        construct: str,
        fix: Callable[[], Fix | None] | None = None,
        tested: bool = False,
    ) -> None:
        """Report `test` if it reads a tensor's value, with the fix `fix` makes where it fits
        the test (`tested`: the caller checked that); made only for a report, as most tests
        read no tensor."""
        self._mark(test)
        facts = self.context.facts
        if not facts.reads_tensor_value(test):
            return
        # `x.dtype == torch.float16 and not torch.isfinite(x).all()`: Python stops at a false
        # trace-time operand, so the tensor is read only in the configurations that pass it
        # (not after one true while Dynamo traces: a flag every caller sets, `is_compiling()`).
        guarded = (
            isinstance(test, ast.BoolOp)
            and isinstance(test.op, ast.And)
            and not facts.reads_tensor_value(test.values[0])
            and not facts.compiling(test.values[0])
        )
        # `if scale > 0` where `scale` is a parameter never touched by a tensor operation:
        # quite possibly a Python number passed in, so a warning rather than an error.
        uncertain = guarded or facts.rests_on_guess(without_not(test))
        severity = Severity.WARNING if uncertain and self.severity is Severity.ERROR else None
        message = self.message.format(construct=construct)
        made = fix() if fix is not None and (tested or self._graph_test(test)) else None
        read = self._first_tensor_read(test)
        condition = excerpt(_logical(read))
        hint = (
            f"keep the choice in the graph: `torch.where({condition}, a, b)` for values, "
            f"`torch.cond({condition}, true_fn, false_fn)` for branches; or decide on shapes "
            "or flags"
        )
        self.report(read, message, severity=severity, fix=made, hint=None if made else hint)

    def _graph_test(self, test: ast.expr, top: bool = True) -> bool:
        """A condition `torch.where` or an assertion can take: one tensor test, or tensor
        tests joined by `not`, `and` and `or`, which the fix makes `torch.logical_*` (left
        as they are, they would still call `bool()`)."""
        if isinstance(test, ast.BoolOp):
            return all(self._graph_test(value, top=False) for value in test.values)
        if (operand := negated(test)) is not None:
            return self._graph_test(operand, top=False)
        # `a < b < c` reads the truth of `a < b` in Python, as `and` does.
        if any(_boolean(node) or _chained(node) for node in iter_nodes(test)):
            return False
        # A test whose tensor is only guessed (a parameter no tensor operation touched) may
        # be a Python bool at run time, which `torch.where` refuses.
        guessed = self.context.facts.rests_on_guess(test)
        return (top and not guessed) or self._certain_tensor_value(test)

    def _is_value(self, node: ast.expr) -> bool:
        """A value `torch.where` takes: a tensor, or a number."""
        if isinstance(node, ast.Constant):
            return type(node.value) in (int, float, bool)
        return tensor_valued(self.context, node) or self._tested_tensor(node)

    def _tested_tensor(self, node: ast.expr) -> bool:
        """A name the test of the branch being fixed reads as a tensor (`y` of `if y.mean() >
        0:`, a method of tensors called on it), which the branch does not bind: where the test
        ran, it holds one; a slice of one by numbers (`y[:, 0]`), or arithmetic of such values
        and numbers (`y * 2 - 1`)."""
        if not self._tested:
            return False
        if isinstance(node, ast.Name):
            return node.id in self._tested
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            return self._tested_tensor(node.operand)
        if isinstance(node, ast.Subscript):  # `y[:, 0]`: numbers and slices index a tensor
            index = node.slice
            parts = index.elts if isinstance(index, ast.Tuple) else [index]
            plain = all(
                isinstance(p, ast.Slice) or isinstance(_without_sign(p), ast.Constant)
                for p in parts
            )
            return plain and self._tested_tensor(node.value)
        if not isinstance(node, ast.BinOp) or not isinstance(node.op, _ARITHMETIC):
            return False
        operands = (node.left, node.right)
        return any(self._tested_tensor(o) for o in operands) and all(
            self._tested_tensor(o) or self._is_value(o) for o in operands
        )

    def _read_as_tensors(self, node: ast.If | ast.IfExp) -> set[str]:
        """The names `node`'s test reads as tensors that `node` does not bind."""
        test, resolve = node.test, self.context.facts.resolve
        bound = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not _loads(n)}
        return {n for n in _names_read(test) - bound if _reads_as_tensor(test, n, resolve)}

    def _certain_tensor_value(self, node: ast.expr) -> bool:
        facts = self.context.facts
        return tensor_valued(self.context, node) and not facts.rests_on_guess(node)

    def _may_be_tensor(self, node: ast.expr) -> bool:
        """A value of no known kind, which the same name takes where another branch gives
        it a tensor: a call of a submodule or of a project function, an attribute."""
        if self._is_value(node):
            return True
        if isinstance(node, ast.Constant | ast.Tuple | ast.List | ast.Dict | ast.Set):
            return False
        return self.context.facts.kind(node) is Kind.UNKNOWN

    def _values_fit(self, values: list[ast.expr]) -> bool:
        """Values `torch.where` can choose between: tensors and numbers, or values of no
        known kind beside a certain tensor (a name holds a tensor on every way or none); none
        joined along a dimension (`torch.cat`), which has another shape than what it joins."""
        if any(self._joined(value) for value in values):
            return False
        if all(self._is_value(value) for value in values):
            return True
        return any(self._certain_tensor_value(v) for v in values) and all(
            self._may_be_tensor(value) for value in values
        )

    def _returns_fit(self, values: list[ast.expr], test: ast.expr) -> bool:
        """Values two `return`s give that `torch.where` can choose between: values that fit
        (`_values_fit`), or tuples of the same length written out (`return a, b` / `return
        c, d`), each pair of elements fitting: one `torch.where` per element, the condition
        computed once before them unless it is a name or attribute."""
        if not all(isinstance(value, ast.Tuple) for value in values):
            return self._values_fit(values)
        elements = [value.elts for value in values]  # type: ignore[attr-defined]
        if len({len(e) for e in elements}) != 1 or len(elements[0]) < 2:
            return False
        if any(isinstance(e, ast.Starred) for each in elements for e in each):
            return False
        pairs = [list(pair) for pair in zip(*elements, strict=True)]
        if not all(self._values_fit(pair) for pair in pairs):
            return False
        return isinstance(test, ast.Name | ast.Attribute) or not self._names_the_condition()

    def _joined(self, value: ast.expr) -> bool:
        """`torch.cat([...])`, `torch.stack(...)` and the like: a tensor of another shape
        than the tensors it joins, which `torch.where` cannot choose against them."""
        if not isinstance(value, ast.Call):
            return False
        return self.context.facts.resolve(value.func) in _JOINS

    def _certain_tensor(self, name: str) -> bool:
        """A name bound to a tensor, not a parameter that may hold None or a number."""
        facts = self.context.facts
        reference = ast.Name(name)
        return facts.kind(reference).is_tensor and not facts.rests_on_guess(reference)

    def _updates_a_tensor(self, name: str, value: ast.expr, test: ast.expr) -> bool:
        """`name = value` under an `if` without `else`: `name` is kept otherwise, so it must
        hold a tensor already, or be bound (not a parameter, which may hold None) to a value
        of no known kind that the branch replaces with a certain tensor. A parameter the `if`
        test reads as a tensor (`if torch.isnan(x).any(): x = torch.nan_to_num(x)`) holds one
        wherever the test runs, and may be kept as well."""
        if self._joined(value):
            return False
        if self._certain_tensor(name):
            return self._may_be_tensor(value)
        facts = self.context.facts
        bound = facts.names.get(name) is Kind.UNKNOWN and name not in self._parameters
        read = name in self._parameters and _reads_as_tensor(test, name, facts.resolve)
        return (bound or read) and self._certain_tensor_value(value)

    def visit_arg(self, node: ast.arg) -> None:
        self._parameters.add(node.arg)

    def _if_fix(self, node: ast.If) -> Fix | None:
        context = self.context
        self._tested = self._read_as_tensors(node)
        if not self._graph_test(node.test):
            return self._any_check_fix(node) or self._guard_fix(node) or self._flagged_fix(node)
        lines = context.source.lines[node.lineno - 1 : node.end_lineno]
        # A comment the assertion would not keep in place (the other rewrites of the whole
        # `if` keep its comments above the statement they write).
        commented = any("#" in line for line in lines[1:])
        if _raises_literally(node) and not commented and owns_its_lines(context, node):
            message = "assert in the graph: `{torch}._assert_async(...)`"
            return offer(context, node, message, "assert", self.fix_applicability, needs_torch=True)
        if not any(_reads_a_number(n) for n in iter_nodes(node.test)):
            check = check_fix(context, node, self.fix_applicability)
            if check is not None:  # it keeps the `if` and its comments, for eager runs
                return check
        if not owns_its_lines(context, node):
            return None
        told = self._told_fix(node)  # it keeps the `if` and its comments, for eager runs
        if told is not None:
            return told
        returned = _returned_values(node)
        if returned is not None:
            alone = all(owns_its_lines(context, r) for r in (node.body[0], node.orelse[0]))
            if not alone or not self._returns_fit(returned, node.test):
                return None
            message = "return the choice made in the graph: `return {torch}.where(...)`"
            return offer(
                context, node, message, "where-return", self.fix_applicability, needs_torch=True
            )
        early = self._early_return_fix(node)
        if early is not None:
            return early
        if _elif_of(node) is not None:
            return self._chain_fix(node)
        hoisted = self._hoisted_fix(node) or self._masked_stores_fix(node)
        if hoisted is not None:
            return hoisted
        return self._where_fix(node)

    def _where_fix(self, node: ast.If) -> Fix | None:
        """`where`: an `if`/`else` assigning the same names, or an `if` updating a tensor."""
        context = self.context
        chosen = _assignments(node.body)
        if chosen is None:
            return self._folded_fix(node) or self._in_place_fix(node) or self._store_fix(node)
        if node.orelse:
            other = _assignments(node.orelse)
            if other is None or [n for n, _ in other] != [n for n, _ in chosen]:
                return None
            pairs = [[a, b] for (_, a), (_, b) in zip(chosen, other, strict=True)]
            if not all(self._values_fit(pair) for pair in pairs):
                return None
        elif not all(self._updates_a_tensor(*pair, node.test) for pair in chosen):
            return None  # a name keeps its value otherwise: `None` would not do
        if len(chosen) > 1:
            # All values are computed before any name is assigned (`a, b = ...`): none may
            # read a name its branch assigned before it.
            for block in (node.body, node.orelse):
                names = [name for name, _ in _assignments(block) or []]
                for index, (_, value) in enumerate(_assignments(block) or []):
                    if _names_read(value) & set(names[:index]):
                        return None
            named = isinstance(node.test, ast.Name | ast.Attribute)
            if not named and self._names_the_condition():
                return None  # the condition is computed once, into `condition_holds`
        message = "choose in the graph: `{torch}.where(...)`"
        return offer(context, node, message, "where", self.fix_applicability, needs_torch=True)

    def _folded_fix(self, node: ast.If) -> Fix | None:
        """`where-folded`: an `if` without `else` that only assigns plain names, where a name
        is assigned again right after, from a value that reads it once (`y = a` then `y =
        g(y)`): each such run becomes one value (`y = g(a)`), and the `if` the `where` fix of
        those assignments."""
        runs = _folded_assignments(node.body)
        if node.orelse or runs is None or all(len(values) == 1 for _, values in runs):
            return None
        lines = self.context.source.lines[node.lineno - 1 : node.end_lineno]
        if any("#" in line for line in lines[1:]):
            return None  # a comment on a line the folded assignment no longer has
        for name, values in runs:
            if not self._updates_a_tensor(name, values[0], node.test):
                return None
            if not all(self._may_be_tensor(v) and not self._joined(v) for v in values[1:]):
                return None
        if len(runs) > 1:
            names = [name for name, _ in runs]
            for index, (name, values) in enumerate(runs):
                read = _names_read(values[0]).union(*(_names_read(v) - {name} for v in values[1:]))
                if read & set(names[:index]):
                    return None
            named = isinstance(node.test, ast.Name | ast.Attribute)
            if not named and self._names_the_condition():
                return None
        message = "choose in the graph: `{torch}.where(...)`, each name's assignments folded in one"
        return offer(
            self.context, node, message, "where-folded", self.fix_applicability, needs_torch=True
        )

    def _store_fix(self, node: ast.If) -> Fix | None:
        """`where-store`: an `if`/`else` whose branches only assign the same targets in the
        same order, some of them an element or a slice (`x[:, 0] = v`, `out["a"] = v`) or an
        attribute (`self.scale = v`), becomes `target = torch.where(cond, a, b)` per target.
        Without `else` each target must hold a tensor already: an attribute or a name bound to
        one, or a slice of one by constants and Python ints (`x[:, 0]`), which then keeps its
        value. The stores run in their order, so each value reads what the stores before it
        left; the condition is computed once, before them (a store may change what it reads),
        where there are several: where it does not hold, each store writes back what it read."""
        body = _stores(node.body)
        if body is None or all(isinstance(t, ast.Name) for t, _ in body):
            return None
        if node.orelse:
            other = _stores(node.orelse)
            if other is None or [ast.dump(t) for t, _ in other] != [ast.dump(t) for t, _ in body]:
                return None
            if not all(
                self._values_fit([a, b]) for (_, a), (_, b) in zip(body, other, strict=True)
            ):
                return None
        elif not all(self._holds_a_tensor(target, value, node.test) for target, value in body):
            return None
        if isinstance(node.test, ast.Name | ast.Attribute):  # a tensor a store could change
            tested = dotted(node.test)
            if any(dotted(_stored_in(target)) == tested for target, _ in body):
                return None
        if len(body) > 1 and not isinstance(node.test, ast.Name) and self._names_the_condition():
            return None
        message = "choose in the graph: `target = {torch}.where(...)`"
        return offer(
            self.context, node, message, "where-store", self.fix_applicability, needs_torch=True
        )

    def _holds_a_tensor(self, target: ast.expr, value: ast.expr, test: ast.expr) -> bool:
        """Whether `target`, assigned `value` on one way only, holds a tensor the other way:
        a name (`_updates_a_tensor`), an attribute bound to a tensor, or a slice of one by
        constants and Python ints (`x[:, 0]`, `x[..., :n]`, never a tensor of indices)."""
        if isinstance(target, ast.Name):
            return self._updates_a_tensor(target.id, value, test)
        if not self._may_be_tensor(value) or self._joined(value):
            return False
        if isinstance(target, ast.Attribute):
            return self._certain_tensor_value(_loaded(target))
        assert isinstance(target, ast.Subscript)  # its value is read (`Load`)
        index = target.slice
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        facts = self.context.facts
        for part in parts:
            bounds = [part.lower, part.upper, part.step] if isinstance(part, ast.Slice) else [part]
            for bound in bounds:
                if bound is None or isinstance(_without_sign(bound), ast.Constant):
                    continue
                if not isinstance(bound, ast.Name) or facts.kind(bound) is not Kind.PYTHON:
                    return False
        base = target.value
        return self._certain_tensor_value(base) or self._tested_tensor(base)

    def _hoisted_fix(self, node: ast.If) -> Fix | None:
        """`where-hoisted`: an `if` (and its `else`) that only assigns plain names, some of
        them only intermediate values of one branch (`scale = m / n` then `f = f0 / scale`):
        those statements run before, whatever the test, and each name the branches choose
        (`_hoisting`) is `torch.where(cond, a, b)`. An intermediate name must be read nowhere
        else in the function (nor in the test), and bound to a tensor or a number."""
        split = _hoisting(node)
        line = self.context.source.lines[node.lineno - 1].lstrip()
        if split is None or not line.startswith("if"):
            return None
        outputs, temporaries = split
        function = self.context.definition
        inside = {id(n) for n in ast.walk(node)}
        read_elsewhere = {
            n.id
            for n in ast.walk(function)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in inside
        } | _names_read(node.test)
        if any(t.targets[0].id in read_elsewhere for t in temporaries):  # type: ignore[attr-defined]
            return None
        if not self._computed_values([(t.targets[0].id, t.value) for t in temporaries]):  # type: ignore[attr-defined]
            return None
        body = _assignments(node.body) or []
        other = dict(_assignments(node.orelse) or [])
        chosen = dict(body)
        for name in outputs:
            if node.orelse:
                if not self._values_fit([chosen[name], other[name]]):
                    return None
            elif not self._updates_a_tensor(name, chosen[name], node.test):
                return None
        if len(outputs) > 1 and self._names_the_condition():
            return None
        message = "choose in the graph: `{torch}.where(...)`, intermediate values computed before"
        return offer(
            self.context, node, message, "where-hoisted", self.fix_applicability, needs_torch=True
        )

    def _early_return_fix(self, node: ast.If) -> Fix | None:
        """`where-return-early`: the function ends in `if cond: return a` (no `else`) and
        `return b`, each alone on its lines; `return torch.where(cond, a, b)` ends it instead.
        The fix rewrites the function (its last two statements)."""
        function = self.context.definition
        body = function.body
        at = next((i for i, statement in enumerate(body) if statement is node), None)
        if at is None or at == len(body) - 1 or node.orelse or len(node.body) != 1:
            return None
        first, last = node.body[0], body[-1]
        if not (isinstance(first, ast.Return) and isinstance(last, ast.Return)):
            return None
        if first.value is None or last.value is None:
            return None
        if not owns_its_lines(self.context, last) or not owns_its_lines(self.context, first):
            return None
        # Plain assignments between the `if` and the last `return` now run first, on both
        # ways: they must not bind what the test or the early value reads.
        between = body[at + 1 : -1]
        assigned = _assignments(between)
        if assigned is None or any(isinstance(s, ast.If) for s in between):
            return None
        read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        if read & {name for name, _ in assigned}:
            return None
        if not all(owns_its_lines(self.context, s) for s in between):
            return None
        if not self._computed_values(assigned):
            return None
        if not self._returns_fit([first.value, last.value], node.test):
            return None
        return self._returned_where(function)

    def _returned_where(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> Fix | None:
        """`where-return-early`, which rewrites the function's last statements."""
        message = "return the choice made in the graph: `return {torch}.where(...)`"
        return offer(
            self.context,
            function,
            message,
            "where-return-early",
            self.fix_applicability,
            needs_torch=True,
        )

    def _in_place_fix(self, node: ast.If) -> Fix | None:
        """`where-in-place`: an `if` (and its `else`) whose statements only update tensors in
        place, the same tensors in the same order in both branches (`self.low.copy_(x.min())`
        / `self.low.mul_(m).add_(x.min())`): each becomes one `copy_` of the choice made in
        the graph. Where it updates several, the condition is computed once, before them (an
        update may change what it reads), into a name the file must not use."""
        chosen = _in_place_updates(node.body)
        if chosen is None:
            return None
        if node.orelse:
            other = _in_place_updates(node.orelse)
            if other is None or [ast.dump(t) for t, _ in other] != [ast.dump(t) for t, _ in chosen]:
                return None
        if not all(self._certain_tensor_value(target) for target, _ in chosen):
            return None
        if len(chosen) > 1 and self._names_the_condition():
            return None
        message = "update in the graph: `t.copy_({torch}.where(...))`"
        return offer(
            self.context, node, message, "where-in-place", self.fix_applicability, needs_torch=True
        )

    def _chain_fix(self, node: ast.If) -> Fix | None:
        """`where-chain`: an `if`/`elif`.../`else` chain whose branches each only return a
        value, or each only assign the same names in the same order (the `else` may be left
        out where each name is bound to a tensor already), becomes one statement of nested
        `torch.where`s, the first test outermost."""
        links = [node]
        while (link := _elif_of(links[-1])) is not None:
            links.append(link)
        facts = self.context.facts
        tests = [link.test for link in links[1:]]
        if not all(facts.reads_tensor_value(t) and self._graph_test(t) for t in tests):
            return None  # a test `torch.where` cannot take (a Python flag, a shape)
        final = links[-1].orelse
        blocks = [link.body for link in links] + ([final] if final else [])
        returned = [_only_returned(block) for block in blocks]
        if all(value is not None for value in returned):
            if not final:
                return self._early_chain_fix(links, returned)  # type: ignore[arg-type]
            if not self._values_fit(returned):  # type: ignore[arg-type]
                return None
            message = "return the choice made in the graph: `return {torch}.where(...)`"
            return offer(
                self.context, node, message, "where-chain", self.fix_applicability, needs_torch=True
            )
        assigned = [_assignments(block) for block in blocks]
        if any(a is None for a in assigned):
            return None
        names = [[name for name, _ in a or []] for a in assigned]
        if any(n != names[0] for n in names) or not names[0]:
            return None
        for index, name in enumerate(names[0]):
            values = [(a or [])[index][1] for a in assigned]
            if final and not self._values_fit(values):
                return None
            if not final and not all(self._updates_a_tensor(name, v, node.test) for v in values):
                return None
        if len(names[0]) > 1:
            read = set().union(*(_names_read(link.test) for link in links))
            if read & set(names[0]):
                return None  # a test would read a name the chain assigned before it
        message = "choose in the graph: nested `{torch}.where(...)`"
        return offer(
            self.context, node, message, "where-chain", self.fix_applicability, needs_torch=True
        )

    def _flagged_fix(self, node: ast.If) -> Fix | None:
        """`flagged-<fix>`: an `if flag and cond:` without `else`, whose operands before the
        last are known while tracing (`self.training`, `mask is not None`), becomes `if
        flag:` around the fix of `if cond:` (`where`, `where-hoisted`, `unguarded`): the
        flags stay a Python choice."""
        test = node.test
        if node.orelse or not isinstance(test, ast.BoolOp) or not isinstance(test.op, ast.And):
            return None
        *flags, last = test.values
        facts = self.context.facts
        prefix = "flagged"
        if not facts.reads_tensor_value(last):
            # `if cond and flag:`: the flags after the test are read before it instead, so
            # each must be a plain trace-time value that reading changes nothing.
            last, *flags = test.values
            prefix = "flagged-after"
            if not all(_plain_flag(f) for f in flags):
                return None
        if any(facts.reads_tensor_value(f) or facts.compiling(f) for f in flags):
            return None
        if not facts.reads_tensor_value(last) or not self._graph_test(last):
            return None
        line = self.context.source.lines[node.lineno - 1].lstrip()
        if not line.startswith("if") or not owns_its_lines(self.context, node):
            return None
        inner = ast.copy_location(ast.If(test=last, body=node.body, orelse=[]), node)
        inner.end_lineno, inner.end_col_offset = node.end_lineno, node.end_col_offset
        made = self._hoisted_fix(inner) or self._masked_stores_fix(inner) or self._where_fix(inner)
        if made is None or made.rewrite not in FLAGGED:
            return None
        message = "keep the flags a Python choice, " + made.message
        rewrite = f"{prefix}-{made.rewrite}"
        return offer(self.context, node, message, rewrite, self.fix_applicability, needs_torch=True)

    def _early_chain_fix(self, links: list[ast.If], returned: list[ast.expr]) -> Fix | None:
        """`where-return-early` of a chain: the function ends in `if c1: return a` / `elif
        c2: return b` (no `else`) and `return d`: `return torch.where(c1, a, torch.where(c2,
        b, d))` ends it instead."""
        function = self.context.definition
        body = function.body
        last = body[-1]
        if len(body) < 2 or body[-2] is not links[0] or not isinstance(last, ast.Return):
            return None
        if last.value is None or not owns_its_lines(self.context, last):
            return None
        if not self._values_fit([*returned, last.value]):
            return None
        return self._returned_where(function)

    def _masked_stores_fix(self, node: ast.If) -> Fix | None:
        """`unguarded`: an `if` without `else` whose test is whether a mask holds anywhere
        (`m.any()`, `torch.any(m)`, `m.sum() > 0`, `m` a name) and whose body only stores
        through that mask (`t[m] = v`, `t[m] += v`): with an empty mask each store changes
        nothing, so the body runs without the `if`. Each value is a number, or reads through
        the same mask (`w[m]`, `t[m].sqrt()`): its shape follows the mask, empty too."""
        line = self.context.source.lines[node.lineno - 1].lstrip()
        if node.orelse or not line.startswith("if"):
            return None
        mask = _mask_tested(node.test)
        if mask is None or not self._certain_tensor_value(ast.Name(mask)):
            return None
        for statement in node.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = statement.targets[0]
            elif isinstance(statement, ast.AugAssign):
                target = statement.target
            else:
                return None
            if not isinstance(target, ast.Subscript) or not _is_name(target.slice, mask):
                return None
            if not owns_its_lines(self.context, statement):
                return None
            value = statement.value
            number = isinstance(_without_sign(value), ast.Constant)
            if not number and not _reads_through(value, mask):
                return None
            if mask in {n.id for n in ast.walk(target.value) if isinstance(n, ast.Name)}:
                return None
        message = "store through the mask whatever it holds (an empty mask stores nothing)"
        return offer(self.context, node, message, "unguarded", self.fix_applicability)

    def _computed_values(self, assigned: list[tuple[str, ast.expr]]) -> bool:
        """Whether each value assigned in turn is a tensor or a number: known as one, or
        arithmetic or a method call on a name an earlier one of them bound (the names these
        statements bind are not known yet where the branch is judged)."""
        bound: set[str] = set()
        for name, value in assigned:
            operands: list[ast.expr] = []
            if isinstance(value, ast.BinOp):
                operands = [value.left, value.right]
            elif isinstance(value, ast.UnaryOp):
                operands = [value.operand]
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
                operands = [value.func.value]
            follows = any(isinstance(o, ast.Name) and o.id in bound for o in operands)
            if not (follows or self._is_value(value)):
                return False
            bound.add(name)
        return True

    def _names_the_condition(self) -> bool:
        """Whether the file uses the name a fix would bind the condition to."""
        condition_used = re.compile(rf"\b{CONDITION_NAME}\b")
        return any(map(condition_used.search, self.context.source.lines))

    def _any_check_fix(self, node: ast.If) -> Fix | None:
        """The `check-any` fix of a raising `if` whose test `torch.where` could not take (an
        operand that may be a Python value, a chained comparison): each operand becomes a
        tensor (`torch.as_tensor`) in the check made while compiling."""
        if not _as_tensor_truth(node.test):
            return None
        return check_fix(self.context, node, self.fix_applicability, "check-any")

    def _assert_fix(self, node: ast.Assert) -> Fix | None:
        """`assert test, message` whose test Python reads the truth of a tensor in: while
        compiling, `torch._assert_async` of the test made a tensor; otherwise as written."""
        context = self.context
        lines = context.source.lines[node.lineno - 1 : node.end_lineno]
        if any("#" in line for line in lines[1:]) or not owns_its_lines(context, node):
            return None  # a comment the rewritten statement would not keep in place
        if not _as_tensor_truth(node.test):
            return None
        message = (
            "assert in the graph when compiling: `{torch}._assert_async(...)`, as written otherwise"
        )
        return offer(
            context, node, message, "assert-check", self.fix_applicability, needs_torch=True
        )

    def _told_fix(self, node: ast.If) -> Fix | None:
        """An `if` whose one branch only tells (`warnings.warn`, `print`) and whose other, if
        any, only updates tensors: while compiling, `torch.where` updates them and nothing is
        told (`where-told`), or the `if` is skipped (`guard`); eager runs keep the `if`."""
        if _elif_of(node) is not None or not self._graph_test(node.test):
            return None
        context = self.context
        line = context.source.lines[node.lineno - 1].lstrip()
        if not line.startswith("if"):
            return None
        if not node.orelse:
            return self._guard_fix(node)
        told = [_told_apart(context, block) for block in (node.body, node.orelse)]
        if not any(notices for notices, _ in told):
            return None  # no branch tells: the `where` fix's
        chosen, other = (_assignments(rest) for _, rest in told)
        if chosen is None or other is None or not (chosen or other):
            return None
        if chosen and other:  # both branches assign: the same names, in the same order
            if [n for n, _ in chosen] != [n for n, _ in other]:
                return None
            pairs = [[a, b] for (_, a), (_, b) in zip(chosen, other, strict=True)]
            if not all(self._values_fit(pair) for pair in pairs):
                return None
        elif not all(self._updates_a_tensor(*pair, node.test) for pair in chosen or other):
            return None
        if len(chosen or other) > 1 and not isinstance(node.test, ast.Name | ast.Attribute):
            return None  # the condition would be computed once per name
        message = "while compiling, update in the graph: `{torch}.where(...)`, and tell nothing"
        return offer(context, node, message, "where-told", self.fix_applicability, needs_torch=True)

    def _guard_fix(self, node: ast.If) -> Fix | None:
        """`guard`: an `if` without `else` whose body only tells is skipped while compiling,
        whatever its test reads (`if torch.isnan(y).any() and DEBUG:`): no `torch.where` has
        to take the test."""
        context = self.context
        line = context.source.lines[node.lineno - 1].lstrip()
        if node.orelse or not line.startswith("if") or not owns_its_lines(context, node):
            return None
        if not only_notices(context, node.body):
            return None
        message = "tell only when not compiling: `if not {torch}.compiler.is_compiling():`"
        return offer(context, node, message, "guard", self.fix_applicability, needs_torch=True)

    def _first_tensor_read(self, test: ast.expr) -> ast.expr:
        """The operand of `and`/`or` whose truth Python reads first from a tensor: the part of
        the condition that breaks, which may run only in some configurations."""
        facts = self.context.facts
        if isinstance(test, ast.BoolOp):
            for operand in facts.traced_operands(test):
                if facts.reads_tensor_value(operand):
                    return self._first_tensor_read(operand)
        return test

    def _mark(self, test: ast.expr) -> None:
        test = without_not(test)
        if isinstance(test, ast.BoolOp):
            self._tests.add(id(test))
            for value in test.values:
                self._mark(value)

    def visit_If(self, node: ast.If) -> None:
        if id(node) in self._elifs:
            # Judged when reached, past what the `if` before it says of its names (`elif clip
            # > 0` after `if isinstance(clip, torch.Tensor)` is on a Python number).
            if self._elifs.pop(id(node)):
                self._check(node.test, "`elif`")
        elif id(node) not in self._tests:
            self._check(node.test, "`if`", lambda: self._if_fix(node), tested=True)
        elif_ = _elif_of(node)
        if elif_ is not None:
            # After `if torch.compiler.is_compiling():` (the `check` fix) only eager runs
            # reach the `elif`.
            self._elifs[id(elif_)] = not self.context.facts.compiling(node.test)

    def visit_While(self, node: ast.While) -> None:
        self._check(node.test, "`while`", lambda: self._while_fix(node))

    def _while_fix(self, node: ast.While) -> Fix | None:
        """`torch.while_loop` for a loop whose body only assigns tensors to names bound to
        tensors before it: those names are the loop's carried values."""
        context = self.context
        lines = context.source.lines[node.lineno - 1 : node.end_lineno]
        if node.orelse or not owns_its_lines(context, node):
            return None
        if any("#" in line for line in lines[1:]):
            return None  # a comment the new functions' bodies would not keep in place
        chosen = _assignments(node.body)
        if chosen is None or any(isinstance(n, _NOT_IN_A_FUNCTION) for n in ast.walk(node)):
            return None
        carried = all(
            self._certain_tensor(name)
            and self._may_be_tensor(value)
            and not isinstance(value, ast.Constant)
            for name, value in chosen
        )
        taken = re.compile(rf"\b({'|'.join(WHILE_FUNCTIONS)})\b")
        if not carried or any(taken.search(line) for line in context.source.lines):
            return None
        message = "loop in the graph: `{torch}.while_loop(...)`"
        return offer(context, node, message, "while-loop", self.fix_applicability, needs_torch=True)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._check(node.test, "a conditional expression", lambda: self._if_exp_fix(node), True)

    def _if_exp_fix(self, node: ast.IfExp) -> Fix | None:
        self._tested = self._read_as_tensors(node)
        rewrite = self._expression_rewrite(node.test)
        if rewrite is None or not self._values_fit([node.body, node.orelse]):
            return None
        message = "choose in the graph: `{torch}.where(...)`"
        return offer(self.context, node, message, rewrite, self.fix_applicability, needs_torch=True)

    def _expression_rewrite(self, test: ast.expr) -> str | None:
        """How `a if test else b` becomes a choice in the graph: `where-expression` for a
        tensor test; `where-expression-flagged` for `flag and test`, whose operands before
        the last are known while tracing (`self.training`): the flags stay a Python choice,
        `torch.where(test, a, b) if flag else b`."""
        if self._graph_test(test):
            return "where-expression"
        if not isinstance(test, ast.BoolOp) or not isinstance(test.op, ast.And):
            return None
        *flags, last = test.values
        facts = self.context.facts
        if any(facts.reads_tensor_value(flag) for flag in flags):
            return None
        return "where-expression-flagged" if self._graph_test(last) else None

    def visit_comprehension(self, node: ast.comprehension) -> None:
        for test in node.ifs:
            self._check(test, "a comprehension filter")

    def visit_Assert(self, node: ast.Assert) -> None:
        # `assert t` on a tensor becomes torch._assert in the graph, but `and`, `or` and `not`
        # inside it call bool() on their tensor operands first.
        self._mark(node.test)
        forced = self._forced_truth(node.test)
        if forced is not None:
            severity = Severity.WARNING if self.context.facts.rests_on_guess(forced) else None
            construct = (
                "`not`"
                if negated(node.test) is not None
                else "a chained comparison"
                if isinstance(forced, ast.Compare) and len(forced.ops) > 1
                else "`and`/`or`"
            )
            message = self.message.format(construct=f"{construct} inside an `assert`")
            self.report(node.test, message, severity=severity, fix=self._assert_fix(node))
        elif _built_message(node.msg):
            # Dynamo traces the assert into the graph only when what follows the jump is the
            # assert's own raise with no message or a constant one; a message made at run time
            # (`f"got {t.min()}"`, `"%s" % name`, a name) leaves a plain data-dependent jump.
            self._check(node.test, _BUILT_MESSAGE, fix=lambda: self._assert_fix(node), tested=True)

    def _forced_truth(self, test: ast.expr) -> ast.expr | None:
        """The tensor operand whose truth an asserted `test` computes in Python, if any."""
        facts = self.context.facts
        if isinstance(test, ast.BoolOp):
            *first, last = facts.traced_operands(test)
            for operand in first:
                if facts.reads_tensor_value(operand):
                    return operand
            return self._forced_truth(last)
        negated_operand = negated(test)
        if negated_operand is not None and facts.reads_tensor_value(negated_operand):
            return negated_operand
        if isinstance(test, ast.Compare) and len(test.ops) > 1:
            # `t0 <= t <= t1` is `t0 <= t and t <= t1`: the truth of every comparison but
            # the last is read in Python.
            operands = [test.left, *test.comparators]
            for position, op in enumerate(test.ops[:-1]):
                pair = ast.Compare(operands[position], [op], [operands[position + 1]])
                if facts.reads_tensor_value(pair):
                    return test
        return None

    def visit_Call(self, node: ast.Call) -> None:
        # `any(torch.isnan(t).any() for t in parts)`, `all(mask)`: the builtin calls bool() on
        # every element it draws.
        func = node.func
        facts = self.context.facts
        if (
            not isinstance(func, ast.Name)
            or func.id not in ("any", "all")
            or func.id in facts.names
            or func.id in facts.definitions
            or len(node.args) != 1
            or node.keywords
        ):
            return
        (drawn,) = node.args
        if isinstance(drawn, ast.GeneratorExp | ast.ListComp | ast.SetComp):
            # judged when the walk reaches it, after BL206 has seen the call that consumes it
            self._drawn[id(drawn)] = node
        elif facts.kind(drawn).is_tensor:  # iterating a tensor draws its rows
            self._report_drawn(drawn, func.id)

    def visit_GeneratorExp(self, node: ast.GeneratorExp | ast.ListComp | ast.SetComp) -> None:
        call = self._drawn.pop(id(node), None)
        if call is not None and self.context.facts.reads_tensor_value(node.elt):
            assert isinstance(call.func, ast.Name)
            self._report_drawn(node.elt, call.func.id, self._stacked_fix(call, node))

    visit_ListComp = visit_SetComp = visit_GeneratorExp

    def _report_drawn(self, element: ast.expr, builtin: str, fix: Fix | None = None) -> None:
        guessed = self.context.facts.rests_on_guess(without_not(element))
        message = self.message.format(construct=f"`{builtin}()` over tensors")
        self.report(element, message, severity=Severity.WARNING if guessed else None, fix=fix)

    def _stacked_fix(
        self, call: ast.Call, drawn: ast.GeneratorExp | ast.ListComp | ast.SetComp
    ) -> Fix | None:
        """`all(test for ...)` / `any(...)`: every element's truth made a tensor and reduced in
        the graph, `torch.stack([...] or [torch.as_tensor(True)]).all()` (`False`, `.any()`),
        so an empty draw gives the builtin's answer."""
        if isinstance(drawn, ast.SetComp):
            return None
        element = drawn.elt
        if not _as_tensor_truth(element):
            return None
        inner = [n for generator in drawn.generators for n in iter_nodes(generator)]
        if any(isinstance(n, _NOT_IN_A_FUNCTION) for n in [*iter_nodes(element), *inner]):
            return None  # a list comprehension would bind or wait where the generator did
        message = "reduce in the graph: `{torch}.stack([...])." + f"{call.func.id}()`"  # type: ignore[attr-defined]
        return offer(
            self.context, call, message, "stacked", self.fix_applicability, needs_torch=True
        )

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        if id(node) in self._tests:
            return
        self._mark(node)
        # `a or b` used as a value needs the truth of every operand but the last.
        facts = self.context.facts
        if any(facts.reads_tensor_value(value) for value in facts.traced_operands(node)[:-1]):
            operator = "and" if isinstance(node.op, ast.And) else "or"
            fix = None
            if all(self._certain_mask(leaf) for leaf in _boolean_leaves(node)):
                message = f"combine in the graph: `{{torch}}.logical_{operator}(...)`"
                fix = offer(
                    self.context, node, message, "logical", self.fix_applicability, needs_torch=True
                )
            self.report(node, self.message.format(construct=f"`{operator}`"), fix=fix)

    def _certain_mask(self, node: ast.expr) -> bool:
        """A boolean tensor: `and`/`or` of such give what `torch.logical_*` gives."""
        facts = self.context.facts
        return facts.kind(node) is Kind.MASK and not facts.rests_on_guess(node)


# What a loop's body cannot hold once it is a function of its own: it would bind or yield in
# the new function rather than the one around it.
_NOT_IN_A_FUNCTION = (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)


def _reads_a_number(node: ast.AST) -> bool:
    """`x.item()`, `float(x)`, `int(x)`, `bool(x)`: a call the `check` fix would drop."""
    if not isinstance(node, ast.Call):
        return False
    function = node.func
    if isinstance(function, ast.Attribute):
        return function.attr == "item"
    return isinstance(function, ast.Name) and function.id in ("float", "int", "bool")


def _boolean(node: ast.AST) -> bool:
    return isinstance(node, ast.BoolOp) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    )


def _chained(node: ast.AST) -> bool:
    """`a < b < c`: Python reads the truth of `a < b` before it compares `b` and `c`."""
    return isinstance(node, ast.Compare) and len(node.ops) > 1


def _as_tensor_truth(test: ast.expr) -> bool:
    """Whether the fixes that make a test's truth a tensor (`check-any`, `assert-check`,
    `stacked`) can take `test`: no number read from a tensor, which they would drop, and a form
    `rewrites.any_truth` rewrites."""
    return not any(_reads_a_number(n) for n in iter_nodes(test)) and _truth_fits(test)


def _truth_fits(test: ast.expr) -> bool:
    """Whether `rewrites.any_truth` can make `test` a tensor: no `not`, `and`, `or` nor chained
    comparison below its own ones, and a chained comparison's inner operands names or
    attributes, which it reads twice."""
    for leaf in _boolean_leaves(test):
        inner = [n for n in iter_nodes(leaf) if n is not leaf]
        if any(_boolean(n) or _chained(n) for n in inner):
            return False
        if _chained(leaf) and not all(
            isinstance(operand, ast.Name | ast.Attribute | ast.Constant)
            for operand in leaf.comparators[:-1]  # type: ignore[attr-defined]
        ):
            return False
    return True


def _boolean_leaves(node: ast.expr) -> list[ast.expr]:
    """The operands `not`, `and` and `or` combine in `node`, through nested ones."""
    if isinstance(node, ast.BoolOp):
        return [leaf for value in node.values for leaf in _boolean_leaves(value)]
    if (operand := negated(node)) is not None:
        return _boolean_leaves(operand)
    return [node]


def _logical(test: ast.expr) -> ast.expr:
    """`test` with `not`, `and` and `or` written as the `torch.logical_*` calls a tensor
    condition needs (what the fix writes, and what a hint may suggest)."""
    if _boolean(test):
        if isinstance(test, ast.UnaryOp):
            name, operands = "logical_not", [test.operand]
        else:
            assert isinstance(test, ast.BoolOp)
            name = "logical_and" if isinstance(test.op, ast.And) else "logical_or"
            *first, last = test.values
            # `a and b and c`: Python's operands nest to the left, as libcst reads them.
            operands = [ast.BoolOp(test.op, first) if len(first) > 1 else first[0], last]
        function = ast.Attribute(ast.Name("torch", ast.Load()), name, ast.Load())
        return ast.Call(function, [_logical(operand) for operand in operands], [])
    return test


def _elif_of(node: ast.If) -> ast.If | None:
    """The `elif` of an `if`, not an `if` nested under `else:`, which is indented further."""
    orelse = node.orelse
    if len(orelse) == 1 and isinstance(orelse[0], ast.If):
        nested = orelse[0]
        return nested if nested.col_offset == node.col_offset else None
    return None


def _raises_literally(node: ast.If) -> bool:
    """`if cond: raise Error("literal")`, and nothing else."""
    if node.orelse or len(node.body) != 1 or not isinstance(node.body[0], ast.Raise):
        return False
    raised = node.body[0].exc
    if not isinstance(raised, ast.Call) or raised.keywords or node.body[0].cause:
        return False
    arguments = raised.args
    return not arguments or (
        len(arguments) == 1
        and isinstance(arguments[0], ast.Constant)
        and isinstance(arguments[0].value, str)
    )


def _returned_values(node: ast.If) -> list[ast.expr] | None:
    """[a, b] of `if cond: return a` / `else: return b`, each branch that one statement."""
    if len(node.body) != 1 or len(node.orelse) != 1 or _elif_of(node) is not None:
        return None
    returns = [node.body[0], node.orelse[0]]
    values = [r.value for r in returns if isinstance(r, ast.Return) and r.value is not None]
    return values if len(values) == 2 else None


_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def _loads(node: ast.Name) -> bool:
    return isinstance(node.ctx, ast.Load)


def _reads_as_tensor(test: ast.expr, name: str, resolve: Callable[[ast.expr], str | None]) -> bool:
    """Whether `test` calls a tensor method on `name` (`x.abs()`) or passes it to a torch
    function (`torch.isnan(x)`): where the test runs, `name` holds a tensor."""
    for node in iter_nodes(test):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        receiver = function.value if isinstance(function, ast.Attribute) else None
        if isinstance(receiver, ast.Name) and receiver.id == name:
            assert isinstance(function, ast.Attribute)
            if function.attr in TENSOR_METHOD_NAMES:
                return True
        called = resolve(function) or ""
        passed = any(isinstance(a, ast.Name) and a.id == name for a in node.args)
        if passed and called.startswith("torch."):
            return True
    return False


# Augmented assignments `where-in-place` takes, in place on a tensor: `t += v` is `t.add_(v)`.
_AUGMENTED = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow)


def _in_place_updates(body: list[ast.stmt]) -> list[tuple[ast.expr, ast.expr]] | None:
    """(tensor, call) of a block whose every statement updates one tensor in place through a
    chain of value updates (`self.low.mul_(m).add_(x.min())`), each tensor once. The tensor
    is a name or an attribute of one; no argument updates anything in place itself."""
    updates: list[tuple[ast.expr, ast.expr]] = []
    for statement in body:
        if isinstance(statement, ast.AugAssign):  # `t += v`, `t *= v`: in place on a tensor
            if not isinstance(statement.op, _AUGMENTED) or not _dotted(statement.target):
                return None
            if any(_updates_in_place(node) for node in ast.walk(statement.value)):
                return None
            updates.append((statement.target, statement.value))
            continue
        if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
            return None
        target = _updated_tensor(statement.value)
        if target is None:
            return None
        updates.append((target, statement.value))
    targets = [ast.dump(target) for target, _ in updates]
    return updates if len(set(targets)) == len(targets) else None


def _updated_tensor(call: ast.expr) -> ast.expr | None:
    """`t` of `t.mul_(m).add_(u)`, where every method is one of `VALUE_UPDATE_METHODS`."""
    while isinstance(call, ast.Call):
        function = call.func
        if not isinstance(function, ast.Attribute) or function.attr not in VALUE_UPDATE_METHODS:
            return None
        arguments = [*call.args, *(keyword.value for keyword in call.keywords)]
        if function.attr == "copy_" and (len(call.args) != 1 or call.keywords):
            return None
        if any(isinstance(a, ast.Starred) for a in call.args) or None in (
            k.arg for k in call.keywords
        ):
            return None
        if any(_updates_in_place(node) for a in arguments for node in ast.walk(a)):
            return None
        call = function.value
    return call if _dotted(call) else None


def _updates_in_place(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr.endswith("_")
        and not node.func.attr.endswith("__")
    )


def _dotted(node: ast.expr) -> bool:
    """A name, or an attribute of one through attributes (`self.stats.low`)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _told_apart(context: RuleContext, block: list[ast.stmt]) -> tuple[int, list[ast.stmt]]:
    """How many statements of `block` only tell (`tells`), and the others."""
    telling = [only_notices(context, [statement]) for statement in block]
    return sum(telling), [s for s, tells in zip(block, telling, strict=True) if not tells]


def _mask_tested(test: ast.expr) -> str | None:
    """The name `m` of a test whether a mask holds anywhere: `m.any()`, `torch.any(m)`,
    `m.sum() > 0`."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        zero = test.comparators[0]
        if not (isinstance(test.ops[0], ast.Gt) and isinstance(zero, ast.Constant)):
            return None
        if zero.value != 0:
            return None
        test, method = test.left, "sum"
    else:
        method = "any"
    if not isinstance(test, ast.Call) or test.keywords:
        return None
    function = test.func
    if not isinstance(function, ast.Attribute) or function.attr != method:
        return None
    if not test.args and isinstance(function.value, ast.Name):
        return function.value.id
    torch_any = isinstance(function.value, ast.Name) and function.value.id == "torch"
    if torch_any and len(test.args) == 1 and isinstance(test.args[0], ast.Name):
        return test.args[0].id
    return None


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _reads_through(value: ast.expr, mask: str) -> bool:
    """Whether `value` reads a tensor through `mask` (`w[mask]`)."""
    return any(isinstance(n, ast.Subscript) and _is_name(n.slice, mask) for n in ast.walk(value))


def _without_sign(node: ast.expr) -> ast.expr:
    return node.operand if isinstance(node, ast.UnaryOp) else node


def _only_returned(block: list[ast.stmt]) -> ast.expr | None:
    """`value` of a block that is `return value` alone."""
    if len(block) != 1 or not isinstance(block[0], ast.Return):
        return None
    return block[0].value


def _names_read(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _hoisting(node: ast.If) -> tuple[list[str], list[ast.Assign]] | None:
    """The names an `if` (and its `else`), which only assign plain names, chooses, and its
    intermediate assignments, where it has some: with an `else`, the names both branches
    assign are chosen; without, the name the last statement assigns. Each chosen name is
    assigned once per branch, its value reading no other chosen name (they are assigned one
    after the other); an intermediate assignment reads no chosen name its branch assigned
    before it, nor a name the other branch's intermediates assign, and binds a name of its
    own branch only. None where there is nothing to hoist or the order could not be kept."""
    if _elif_of(node) is not None:
        return None
    blocks = [node.body, node.orelse] if node.orelse else [node.body]
    assigned = [_assignments(block) for block in blocks]
    if any(a is None or not a for a in assigned):
        return None
    names = [[name for name, _ in a or []] for a in assigned]
    both = [name for name in names[0] if name in names[-1]]
    outputs = both if node.orelse else names[0][-1:]
    if not outputs or all(len(n) == len(outputs) for n in names):
        return None  # nothing to hoist: the `where` fix's
    chosen = set(outputs)
    temporaries: list[ast.Assign] = []
    bound_by = [{n for n in block_names if n not in chosen} for block_names in names]
    if len(bound_by) == 2 and bound_by[0] & bound_by[1]:
        return None
    for index, block in enumerate(blocks):
        others = set().union(*bound_by[:index], *bound_by[index + 1 :])
        seen: set[str] = set()
        for statement in block:
            assert isinstance(statement, ast.Assign)
            name = statement.targets[0].id  # type: ignore[attr-defined]
            read = _names_read(statement.value)
            if read & others:
                return None  # the other branch's intermediates now run before
            if name in chosen:
                # Chosen names are assigned one after the other, after every intermediate.
                if read & (chosen - {name}) or read & (bound_by[index] - seen):
                    return None
            else:
                if read & seen & chosen:
                    return None  # it read the value its branch chose before it
                temporaries.append(statement)
            seen.add(name)
    return outputs, temporaries


def _stores(body: list[ast.stmt]) -> list[tuple[ast.expr, ast.expr]] | None:
    """(target, value) of a block that only assigns values, each to one target written once:
    a name, an attribute of a name (`self.scale`) or a subscript of one (`x[:, 0]`,
    `out["a"]`) whose index reads no call."""
    stored = []
    for statement in body:
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            return None
        target = statement.targets[0]
        base = target.value if isinstance(target, ast.Subscript) else target
        if not isinstance(base, ast.Name | ast.Attribute) or dotted(base) is None:
            return None
        if isinstance(target, ast.Subscript) and any(
            isinstance(n, ast.Call) for n in ast.walk(target.slice)
        ):
            return None
        stored.append((target, statement.value))
    dumps = [ast.dump(target) for target, _ in stored]
    return stored if stored and len(set(dumps)) == len(dumps) else None


def _stored_in(target: ast.expr) -> ast.expr:
    """What a store writes to: `x` of `x[:, 0]`, the target itself otherwise."""
    return target.value if isinstance(target, ast.Subscript) else target


def _loaded(node: ast.Attribute) -> ast.Attribute:
    """The attribute `node` stores to, read: the same attribute in a `Load` context."""
    return ast.copy_location(ast.Attribute(node.value, node.attr, ast.Load()), node)


# What a flag read before the tensor test it followed may be built of: names, attributes and
# constants, compared or negated (`x.dtype == torch.float16`, `not self.training`, `k is None`).
_PLAIN_FLAG = (
    ast.Name,
    ast.Attribute,
    ast.Constant,
    ast.Compare,
    ast.UnaryOp,
    ast.BoolOp,
    ast.expr_context,
    ast.cmpop,
    ast.unaryop,
    ast.boolop,
)


def _plain_flag(node: ast.expr) -> bool:
    """A flag made only of names, attributes and constants, compared or negated: reading it
    earlier calls nothing."""
    return all(isinstance(n, _PLAIN_FLAG) for n in ast.walk(node))


def _folded_assignments(body: list[ast.stmt]) -> list[tuple[str, list[ast.expr]]] | None:
    """(name, values) of a block that only assigns values to plain names, a name assigned
    again only right after its assignment and from a value that reads it once, outside any
    lambda or comprehension (`y = a` then `y = g(y)`): the values of each run, in order; each
    name once."""
    assigned = _named_assignments(body)
    if assigned is None:
        return None
    runs: list[tuple[str, list[ast.expr]]] = []
    for name, value in assigned:
        if runs and runs[-1][0] == name:
            if not _reads_once(value, name):
                return None
            runs[-1][1].append(value)
        else:
            runs.append((name, [value]))
    names = [name for name, _ in runs]
    return runs if len(set(names)) == len(names) else None


def _reads_once(value: ast.expr, name: str) -> bool:
    """Whether `value` reads `name` exactly once, not inside a lambda, a comprehension or an
    assignment expression (where substituting a value for it would change what it means)."""
    scoped = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr)
    if any(isinstance(n, scoped) for n in ast.walk(value)):
        return False
    reads = [n for n in ast.walk(value) if isinstance(n, ast.Name) and n.id == name]
    return len(reads) == 1 and _loads(reads[0])


def _named_assignments(body: list[ast.stmt]) -> list[tuple[str, ast.expr]] | None:
    """(name, value) of a block that only assigns values to plain names, in order."""
    chosen = []
    for statement in body:
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            return None
        target = statement.targets[0]
        if not isinstance(target, ast.Name):
            return None
        chosen.append((target.id, statement.value))
    return chosen


def _assignments(body: list[ast.stmt]) -> list[tuple[str, ast.expr]] | None:
    """(name, value) of a block that only assigns values to plain names, each once."""
    chosen = _named_assignments(body)
    names = [name for name, _ in chosen or []]
    return chosen if chosen is not None and len(set(names)) == len(names) else None


# Functions that join tensors along a dimension: their result has another shape.
_JOINS = frozenset(
    f"torch.{name}"
    for name in ("cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack")
)


# BL201's fixes of a whole branch that the rules reading a number from a tensor offer where
# the branch's test is made of such reads (`if t.item() > 0:`, `a if bool(t) else b`): the
# reads dropped from the test (`fixes.tensor_test`), then BL201's rewrite. Each is named
# `number-<BL201's name>`.
_NUMBER_TEST_FIXES = (
    "where",
    "where-return",
    "where-return-early",
    "where-hoisted",
    "where-in-place",
    "where-expression",
)
NUMBER_TEST_REWRITES: Mapping[str, Rewrite] = {
    f"number-{name}": number_test(DataDependentBranch.rewrites[name]) for name in _NUMBER_TEST_FIXES
}


def number_test_fix(
    context: RuleContext,
    node: ast.If | ast.IfExp,
    test: ast.expr,
    applicability: Applicability | None,
) -> Fix | None:
    """The fix BL201 would offer for `node` were its test `test`, the same test on tensors
    (`t > 0` for `t.item() > 0`), where it is one of `_NUMBER_TEST_FIXES`, renamed for the
    rule that reads the number: a choice in the graph, `torch.where` on the tensors. Only an
    `if` (not an `elif` chain: one decision) or a conditional expression."""
    rule = DataDependentBranch(context)
    rule._parameters.update(a.arg for a in _arguments(context.definition))
    if isinstance(node, ast.If):
        line = context.source.lines[node.lineno - 1].lstrip()
        if _elif_of(node) is not None or not line.startswith("if"):
            return None
    # The branch judged with the test on tensors in its place, put back at once: BL201's
    # checks find the `if` among its function's statements.
    written = node.test
    node.test = test
    try:
        fix = rule._if_exp_fix(node) if isinstance(node, ast.IfExp) else rule._if_fix(node)
    finally:
        node.test = written
    if fix is None or fix.rewrite not in _NUMBER_TEST_FIXES or applicability is None:
        return None
    return dataclasses.replace(fix, rewrite=f"number-{fix.rewrite}", applicability=applicability)


def _arguments(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    arguments = function.args
    extra = [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, *extra]


class NumberTestHooks:
    """The traversal hooks of a rule that reads numbers from tensors (BL101, BL102) and keeps
    `checks`: the branches, conditional expressions and assertions whose tests are made of such
    reads, passed on before their reads, with BL201's fix of the branch on the tensors."""

    checks: CheckReads
    context: RuleContext
    fix_applicability: ClassVar[Applicability | None]

    def visit_If(self, node: ast.If) -> None:
        self.checks.visit_If(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.checks.visit_IfExp(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        self.checks.visit_Assert(node)


def number_test_checks(context: RuleContext, applicability: Applicability | None) -> CheckReads:
    """The `checks` of a rule with `NumberTestHooks`: its branch fix holds the context, not the
    rule, so no reference cycle keeps each function's tree alive while the collector is off."""
    return CheckReads(
        context, applicability, partial(number_test_fix, context, applicability=applicability)
    )
