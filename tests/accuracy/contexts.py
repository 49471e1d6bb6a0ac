"""torch context managers under Dynamo: the ones it cannot enter, and the ones it records."""

import contextlib
import time

import torch
from torch import nn
from torch.autograd import graph


class Encoder(nn.Module):
    def forward(self, x):
        with torch.no_grad(), torch.backends.cudnn.flags(enabled=False):  # BREAK BL507
            x = x * 2
        with torch.autocast("cpu", enabled=False), torch.enable_grad():
            x = x - 1
        return x


def without_mkldnn(x):
    with torch.backends.mkldnn.flags(enabled=False):  # BREAK BL507
        return x + 1


def attention(q):
    with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.MATH):
        q = q * 3
    with torch.backends.cuda.sdp_kernel(enable_math=True):  # BREAK BL507
        return q.softmax(-1)


def noisy(x):
    with torch.random.fork_rng(devices=[]):  # BREAK BL507
        return x + torch.rand_like(x)


def anomalies_detected(x):
    with torch.autograd.detect_anomaly():  # BREAK BL507
        return x.exp()


def anomalies_set(x):
    with torch.autograd.set_detect_anomaly(False):  # BREAK BL507
        return x.log()


def saved_on_cpu(x):
    with graph.save_on_cpu():  # BREAK BL507
        return x * x


def hooked(x):
    with graph.saved_tensors_hooks(lambda t: t, lambda t: t):  # BREAK BL507
        return x + 1


def made_on_cpu(x):
    with torch.device("cpu"):  # BREAK BL507
        bias = torch.ones(3)
    return x + bias


class Depth:
    """A context manager of the project's own: entered where it is made, not where it is held."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Stopwatch:
    """Dynamo traces the `__enter__` of a context manager the frame makes."""

    def __enter__(self):
        self.start = time.perf_counter()  # BREAK BL501
        return self

    def __exit__(self, *exc):
        return False


class Timed(nn.Module):
    def forward(self, x):
        with Stopwatch():
            return x * 5


class HeldEntered(nn.Module):
    """Context managers made in `__init__` and entered in `forward` that Dynamo enters; the
    classes below hold ones it cannot enter once they are made: it skips the frame."""

    def __init__(self):
        super().__init__()
        self.autocast = torch.autocast("cpu", enabled=False)
        self.nothing = contextlib.nullcontext()

    def forward(self, x):
        with self.autocast, self.nothing, Depth():
            return x * 2


class HeldNoGrad(nn.Module):
    def __init__(self):
        super().__init__()
        self.no_grad = torch.no_grad()

    def forward(self, x):
        with self.no_grad:  # BREAK BL507
            return x + 1


class HeldInferenceMode(nn.Module):
    def __init__(self):
        super().__init__()
        self.inference = torch.inference_mode()

    def forward(self, x):
        with self.inference:  # BREAK BL507
            return x + 2


class HeldGradOff(nn.Module):
    def __init__(self):
        super().__init__()
        self.grad_off = torch.set_grad_enabled(False)

    def forward(self, x):
        with self.grad_off:  # BREAK BL507
            return x + 3


class HeldDepth(nn.Module):
    def __init__(self):
        super().__init__()
        self.depth = Depth()

    def forward(self, x):
        with self.depth:  # BREAK BL507
            return x + 4


class HandedDepth(nn.Module):
    """Holds the context manager it was given: made before the compiled call."""

    def __init__(self, depth):
        super().__init__()
        self.depth = depth

    def forward(self, x):
        with self.depth:  # BREAK BL507
            return x + 6


def within(x, context):
    with context:  # BREAK BL507
        return x * 7


def within_own(x, context):
    context = Depth()
    with context:
        return x * 8


compiled_within = torch.compile(within)
compiled_within_own = torch.compile(within_own)
compiled_without_mkldnn = torch.compile(without_mkldnn)
compiled_attention = torch.compile(attention)
compiled_noisy = torch.compile(noisy)
compiled_anomalies_detected = torch.compile(anomalies_detected)
compiled_anomalies_set = torch.compile(anomalies_set)
compiled_saved_on_cpu = torch.compile(saved_on_cpu)
compiled_hooked = torch.compile(hooked)
compiled_made_on_cpu = torch.compile(made_on_cpu)


def probe_backend_flags():
    return Encoder(), (torch.randn(4, 3),)


def probe_mkldnn_flags():
    return without_mkldnn, (torch.randn(4, 3),)


def probe_sdp_kernel():
    return attention, (torch.randn(4, 3),)


def probe_fork_rng():
    return noisy, (torch.randn(4, 3),)


def probe_detect_anomaly():
    return anomalies_detected, (torch.randn(4, 3),)


def probe_set_detect_anomaly():
    return anomalies_set, (torch.rand(4, 3) + 1,)


def probe_save_on_cpu():
    return saved_on_cpu, (torch.randn(4, 3),)


def probe_saved_tensors_hooks():
    return hooked, (torch.randn(4, 3),)


def probe_default_device():
    return made_on_cpu, (torch.randn(4, 3),)


def probe_held_entered():
    return HeldEntered(), (torch.randn(4, 3),)


def probe_held_no_grad():
    return HeldNoGrad(), (torch.randn(4, 3),)


def probe_held_inference_mode():
    return HeldInferenceMode(), (torch.randn(4, 3),)


def probe_held_set_grad_enabled():
    return HeldGradOff(), (torch.randn(4, 3),)


def probe_held_project_manager():
    return HeldDepth(), (torch.randn(4, 3),)


def probe_timed_block():
    return Timed(), (torch.randn(4, 3),)


def probe_handed_project_manager():
    return HandedDepth(Depth()), (torch.randn(4, 3),)


def probe_manager_passed_in():
    return within, (torch.randn(4, 3), Depth())


def probe_manager_passed_in_and_replaced():
    return within_own, (torch.randn(4, 3), Depth())
