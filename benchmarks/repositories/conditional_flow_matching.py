import functools
import os
import sys
import types

import torch

# torchcfm.optimal_transport imports POT at module level; only the OT-coupled matchers use it.
sys.modules.setdefault("ot", types.ModuleType("ot"))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from torchcfm.conditional_flow_matching import (  # noqa: E402
    ConditionalFlowMatcher,
    TargetConditionalFlowMatcher,
    VariancePreservingConditionalFlowMatcher,
)
from torchcfm.models.models import MLP, GradModel  # noqa: E402
from torchcfm.models.unet import UNetModel  # noqa: E402


def _unet(**kwargs):
    return UNetModel(
        dim=(1, 28, 28), num_channels=32, num_res_blocks=1, channel_mult=(1, 2),
        attention_resolutions="14", num_head_channels=16, **kwargs,
    )  # fmt: skip


def probe_cfm_sample():
    matcher = ConditionalFlowMatcher(sigma=0.1)
    return matcher.sample_location_and_conditional_flow, (torch.randn(4, 2), torch.randn(4, 2))


def probe_cfm_sample_given_t():
    matcher = ConditionalFlowMatcher(sigma=0.0)
    sample = functools.partial(matcher.sample_location_and_conditional_flow, return_noise=True)
    return sample, (torch.randn(4, 1, 8, 8), torch.randn(4, 1, 8, 8), torch.rand(4))


def probe_target_cfm_sample():
    matcher = TargetConditionalFlowMatcher(sigma=0.1)
    return matcher.sample_location_and_conditional_flow, (torch.randn(4, 2), torch.randn(4, 2))


def probe_vp_cfm_sample():
    matcher = VariancePreservingConditionalFlowMatcher(sigma=0.1)
    return matcher.sample_location_and_conditional_flow, (torch.randn(4, 2), torch.randn(4, 2))


def probe_cfm_lambda():
    return ConditionalFlowMatcher(sigma=0.5).compute_lambda, (torch.rand(4),)


def probe_mlp_train():
    return MLP(dim=2, w=16, time_varying=True).train(), (torch.randn(8, 3),)


def probe_grad_model():
    action = MLP(dim=2, out_dim=1, w=16, time_varying=True)
    return GradModel(action), (torch.randn(8, 3),)


def probe_unet_eval():
    return _unet().eval(), (torch.rand(2), torch.randn(2, 1, 28, 28))


def probe_unet_scalar_time():
    return _unet().eval(), (torch.tensor(0.5), torch.randn(2, 1, 28, 28))


def probe_unet_class_cond_train():
    model = _unet(class_cond=True, num_classes=10, use_scale_shift_norm=True, dropout=0.1)
    return model.train(), (torch.rand(2), torch.randn(2, 1, 28, 28), torch.tensor([1, 3]))
