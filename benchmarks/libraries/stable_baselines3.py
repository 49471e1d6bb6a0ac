"""stable-baselines3 (reinforcement learning policies), tiny networks with random weights on
random observations (no environment is stepped, nothing is downloaded). Policies are built
straight from gymnasium spaces and driven the two ways the algorithms drive them: in eval mode
the rollout step (the policy's forward: actions, values and log probabilities, or the greedy
action, or `predict` on a NumPy observation the way `model.predict` is called), in train mode
what the update step evaluates (PPO/A2C's `evaluate_actions` on stored actions, SAC's actor
log probabilities, the critics' Q values). Spaces: discrete, continuous (Gaussian and
state-dependent exploration), multi-discrete, multi-binary, images through the Nature CNN, and
dictionaries of observations; algorithms: PPO/A2C, DQN, SAC and TD3."""

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.policies import (
    ActorCriticCnnPolicy,
    ActorCriticPolicy,
    MultiInputActorCriticPolicy,
)
from stable_baselines3.dqn.policies import DQNPolicy
from stable_baselines3.sac.policies import SACPolicy
from stable_baselines3.td3.policies import TD3Policy

PACKAGES = ("stable_baselines3",)
MODES = ("eval", "train")

_BATCH = 4
_OBS = 6
_NET = {"net_arch": [16, 16]}


def _schedule(_progress: float) -> float:
    return 3e-4


def _box(dims: int = _OBS) -> spaces.Box:
    return spaces.Box(-1.0, 1.0, (dims,), dtype=np.float32)


def _observations(space: spaces.Space) -> torch.Tensor:
    return torch.as_tensor(np.stack([space.sample() for _ in range(_BATCH)]))


def _actions(space: spaces.Space) -> torch.Tensor:
    # As the rollout and replay buffers hand them back: float32, discrete ones as long indices.
    actions = torch.as_tensor(
        np.stack([space.sample() for _ in range(_BATCH)]), dtype=torch.float32
    )
    return actions.long().flatten() if isinstance(space, spaces.Discrete) else actions


def _actor_critic(mode, policy, observation_space, action_space):
    observations = _observations(observation_space)
    if mode == "train":
        return policy.evaluate_actions, (observations, _actions(action_space))
    return policy, (observations,)


def build_ppo_discrete(mode):
    observation_space, action_space = _box(), spaces.Discrete(3)
    policy = ActorCriticPolicy(observation_space, action_space, _schedule, **_NET)
    return _actor_critic(mode, policy, observation_space, action_space)


def build_ppo_continuous(mode):
    observation_space, action_space = _box(), _box(2)
    policy = ActorCriticPolicy(
        observation_space, action_space, _schedule, net_arch={"pi": [16], "vf": [16, 16]}
    )
    return _actor_critic(mode, policy, observation_space, action_space)


def build_ppo_state_dependent_exploration(mode):
    observation_space, action_space = _box(), _box(2)
    policy = ActorCriticPolicy(
        observation_space, action_space, _schedule, use_sde=True, full_std=False, **_NET
    )
    policy.reset_noise(_BATCH)
    return _actor_critic(mode, policy, observation_space, action_space)


def build_a2c_multi_discrete(mode):
    observation_space, action_space = _box(), spaces.MultiDiscrete([3, 2, 4])
    policy = ActorCriticPolicy(observation_space, action_space, _schedule, **_NET)
    return _actor_critic(mode, policy, observation_space, action_space)


def build_a2c_multi_binary(mode):
    observation_space, action_space = _box(), spaces.MultiBinary(3)
    policy = ActorCriticPolicy(observation_space, action_space, _schedule, ortho_init=False, **_NET)
    return _actor_critic(mode, policy, observation_space, action_space)


def build_ppo_nature_cnn(mode):
    # Images as an Atari wrapper gives them: uint8, channels first; the policy scales them.
    observation_space = spaces.Box(0, 255, (3, 36, 36), dtype=np.uint8)
    action_space = spaces.Discrete(4)
    policy = ActorCriticCnnPolicy(
        observation_space, action_space, _schedule, features_extractor_kwargs={"features_dim": 32}
    )
    return _actor_critic(mode, policy, observation_space, action_space)


def build_ppo_dict_observations(mode):
    observation_space = spaces.Dict(
        {
            "image": spaces.Box(0, 255, (1, 36, 36), dtype=np.uint8),
            "vector": _box(3),
            "flag": spaces.Discrete(2),
        }
    )
    action_space = spaces.Discrete(2)
    policy = MultiInputActorCriticPolicy(
        observation_space, action_space, _schedule, normalize_images=True, **_NET
    )
    observations = {
        key: torch.as_tensor(np.stack([space.sample() for _ in range(_BATCH)]))
        for key, space in observation_space.spaces.items()
    }
    if mode == "train":
        return policy.evaluate_actions, (observations, _actions(action_space))
    return policy, (observations,)


def build_ppo_predict_numpy():
    # What `model.predict(obs)` runs: NumPy in, NumPy out, the observation checked and converted.
    observation_space, action_space = _box(), spaces.Discrete(3)
    policy = ActorCriticPolicy(observation_space, action_space, _schedule, **_NET)
    observations = np.stack([observation_space.sample() for _ in range(_BATCH)])
    return policy.predict, (observations,), {"deterministic": True}


def build_dqn(mode):
    observation_space, action_space = _box(), spaces.Discrete(3)
    policy = DQNPolicy(observation_space, action_space, _schedule, net_arch=[16, 16])
    observations = _observations(observation_space)
    if mode == "train":
        # The TD target and the current estimates: the Q values of the target network.
        return policy.q_net_target, (observations,)
    return policy, (observations,)


def build_sac(mode):
    observation_space, action_space = _box(), _box(2)
    policy = SACPolicy(observation_space, action_space, _schedule, **_NET)
    observations = _observations(observation_space)
    if mode == "train":
        return policy.actor.action_log_prob, (observations,)
    return policy, (observations,), {"deterministic": True}


def build_sac_critic(mode):
    observation_space, action_space = _box(), _box(2)
    policy = SACPolicy(observation_space, action_space, _schedule, n_critics=2, **_NET)
    return policy.critic, (_observations(observation_space), _actions(action_space))


def build_td3(mode):
    observation_space, action_space = _box(), _box(2)
    policy = TD3Policy(observation_space, action_space, _schedule, **_NET)
    observations = _observations(observation_space)
    if mode == "train":
        return policy.critic.q1_forward, (observations, policy.actor(observations))
    return policy, (observations,)
