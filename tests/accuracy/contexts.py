"""torch context managers under Dynamo: the ones it cannot enter, and the ones it records."""

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
