import os
import sys

import torch

# The repository's scripts run from its root (flat imports such as `import layers`).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import BigGAN
import layers
import losses

CLASSES, DIM_Z = 5, 20


def _generator(**kwargs):
    return BigGAN.Generator(
        G_ch=4, dim_z=DIM_Z, resolution=32, G_attn="16", n_classes=CLASSES, hier=True,
        shared_dim=8, no_optim=True, skip_init=True, **kwargs,
    )  # fmt: skip


def _discriminator():
    return BigGAN.Discriminator(
        D_ch=4, resolution=32, D_attn="16", n_classes=CLASSES, skip_init=True
    )


def probe_generator_train():
    generator = _generator().train()
    return generator, (torch.randn(2, DIM_Z), generator.shared(torch.tensor([1, 3])))


def probe_generator_eval():
    generator = _generator().eval()
    return generator, (torch.randn(2, DIM_Z), generator.shared(torch.tensor([0, 4])))


def probe_discriminator_train():
    return _discriminator().train(), (torch.randn(2, 3, 32, 32), torch.tensor([1, 2]))


def probe_g_d_train():
    model = BigGAN.G_D(_generator().train(), _discriminator().train())
    return model, (torch.randn(2, DIM_Z), torch.tensor([1, 2]), torch.randn(2, 3, 32, 32),
                   torch.tensor([0, 3]), True)  # fmt: skip


def probe_snlinear_train():
    return layers.SNLinear(6, 4, num_svs=1, num_itrs=1).train(), (torch.randn(3, 6),)


def probe_discriminator_loss():
    return losses.loss_hinge_dis, (torch.randn(4, 1), torch.randn(4, 1))
