"""The models the static findings are confirmed on under Dynamo: each solver the factory
may return, and each container's elements."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from run import Integrator, Stepper, build_appended, build_chain, build_flow  # noqa: E402


def probe_euler():
    return Integrator("euler"), (torch.randn(4),)


def probe_midpoint():
    return Integrator("midpoint"), (torch.randn(4),)


def probe_flow():
    return build_flow(), (torch.randn(4),)


def probe_chain():
    return build_chain(), (torch.randn(4),)


def probe_stepper():
    return Stepper(), (torch.randn(4),)


def probe_appended():
    return build_appended(), (torch.randn(4),)
