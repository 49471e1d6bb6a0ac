import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from PPO import PPO, ActorCritic

STATE, ACTIONS = 4, 2


def probe_discrete_act():
    return ActorCritic(STATE, ACTIONS, False, 0.6).act, (torch.rand(STATE),)


def probe_continuous_act():
    return ActorCritic(STATE, ACTIONS, True, 0.6).act, (torch.rand(STATE),)


def probe_discrete_evaluate():
    policy = ActorCritic(STATE, ACTIONS, False, 0.6)
    return policy.evaluate, (torch.rand(8, STATE), torch.randint(0, ACTIONS, (8,)))


def probe_continuous_evaluate():
    policy = ActorCritic(STATE, ACTIONS, True, 0.6)
    return policy.evaluate, (torch.rand(8, STATE), torch.rand(8, ACTIONS))


def probe_single_action_evaluate():
    policy = ActorCritic(STATE, 1, True, 0.6)
    return policy.evaluate, (torch.rand(8, STATE), torch.rand(8, 1))


def probe_select_discrete_action():
    agent = PPO(STATE, ACTIONS, 3e-4, 1e-3, 0.99, 2, 0.2, False)
    return agent.select_action, (np.random.rand(STATE).astype(np.float32),)


def probe_select_continuous_action():
    agent = PPO(STATE, ACTIONS, 3e-4, 1e-3, 0.99, 2, 0.2, True)
    return agent.select_action, (np.random.rand(STATE).astype(np.float32),)


def probe_update():
    agent = PPO(STATE, ACTIONS, 3e-4, 1e-3, 0.99, 2, 0.2, False)
    for step in range(6):
        agent.select_action(np.random.rand(STATE).astype(np.float32))
        agent.buffer.rewards.append(1.0)
        agent.buffer.is_terminals.append(step == 5)
    return agent.update, ()
