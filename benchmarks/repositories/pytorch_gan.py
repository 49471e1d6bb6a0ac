import importlib.util
import os

import torch

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "implementations")


def _models(name):
    # Every implementation has its own models.py: load each under its own module name.
    spec = importlib.util.spec_from_file_location(
        f"{name}_models", os.path.join(ROOT, name, "models.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def probe_cyclegan_generator():
    models = _models("cyclegan")
    return models.GeneratorResNet((3, 32, 32), 2).eval(), (torch.rand(1, 3, 32, 32),)


def probe_cyclegan_discriminator():
    models = _models("cyclegan")
    return models.Discriminator((3, 32, 32)).eval(), (torch.rand(1, 3, 32, 32),)


def probe_pix2pix_generator():
    models = _models("pix2pix")
    return models.GeneratorUNet().eval(), (torch.rand(1, 3, 256, 256),)


def probe_pix2pix_discriminator():
    models = _models("pix2pix")
    return models.Discriminator().eval(), (torch.rand(1, 3, 32, 32), torch.rand(1, 3, 32, 32))


def probe_stargan_generator():
    models = _models("stargan")
    return models.GeneratorResNet((3, 32, 32), 2, c_dim=5).eval(), (
        torch.rand(2, 3, 32, 32),
        torch.rand(2, 5),
    )


def probe_stargan_discriminator():
    models = _models("stargan")
    return models.Discriminator((3, 32, 32), c_dim=5, n_strided=3).eval(), (
        torch.rand(2, 3, 32, 32),
    )


def probe_munit_encoder():
    models = _models("munit")
    return models.Encoder(dim=8, n_residual=1).eval(), (torch.rand(1, 3, 32, 32),)


def probe_munit_decoder():
    models = _models("munit")
    return models.Decoder(dim=8, n_residual=1).eval(), (torch.rand(1, 32, 8, 8), torch.rand(1, 8))


def probe_munit_discriminator():
    models = _models("munit")
    return models.MultiDiscriminator().eval(), (torch.rand(1, 3, 128, 128),)


def probe_unit_encoder():
    models = _models("unit")
    shared = models.ResidualBlock(features=32)
    return models.Encoder(dim=8, shared_block=shared).eval(), (torch.rand(1, 3, 32, 32),)
