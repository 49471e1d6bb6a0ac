import os
import sys
import types

import numpy as np
import torch

# The repository's scripts run from its root (flat imports such as `from model import QNetwork`).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from model import DeterministicPolicy, GaussianPolicy, QNetwork
from replay_memory import ReplayMemory
from sac import SAC

STATE, ACTION = 5, 2
SPACE = types.SimpleNamespace(
    shape=(ACTION,), high=np.ones(ACTION, np.float32), low=-np.ones(ACTION, np.float32)
)


def _args(policy="Gaussian", tuning=True):
    return types.SimpleNamespace(
        gamma=0.99, tau=0.005, alpha=0.2, policy=policy, target_update_interval=1,
        automatic_entropy_tuning=tuning, cuda=False, hidden_size=16, lr=3e-4,
    )  # fmt: skip


def _memory():
    memory = ReplayMemory(32, seed=0)
    for _ in range(8):
        state = np.random.randn(STATE).astype(np.float32)
        action = np.random.randn(ACTION).astype(np.float32)
        # float32 rewards and masks: with Python floats (as main.py pushes them) np.stack makes
        # float64 arrays, and Dynamo fails on `torch.FloatTensor` of one (a TorchRuntimeError)
        next_state = np.random.randn(STATE).astype(np.float32)
        memory.push(state, action, np.float32(1.0), next_state, np.float32(1.0))
    return memory


def probe_gaussian_sample():
    policy = GaussianPolicy(STATE, ACTION, 16, SPACE)
    return policy.sample, (torch.randn(4, STATE),)


def probe_deterministic_sample():
    policy = DeterministicPolicy(STATE, ACTION, 16, SPACE)
    return policy.sample, (torch.randn(4, STATE),)


def probe_q_network():
    return QNetwork(STATE, ACTION, 16), (torch.randn(4, STATE), torch.randn(4, ACTION))


def probe_select_action():
    agent = SAC(STATE, SPACE, _args())
    return agent.select_action, (np.random.randn(STATE).astype(np.float32),)


def probe_update_parameters():
    agent = SAC(STATE, SPACE, _args())
    return agent.update_parameters, (_memory(), 4, 1)


def probe_update_parameters_deterministic():
    agent = SAC(STATE, SPACE, _args("Deterministic", tuning=False))
    return agent.update_parameters, (_memory(), 4, 2)
