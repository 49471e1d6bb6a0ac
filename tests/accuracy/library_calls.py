"""Calls into an installed library (tests/libraries/calibration, on the run's PYTHONPATH):
Dynamo inlines its code as it inlines the linted code, and breaks at the call where that code
breaks; a library function that does not break is traced through."""

import calibration
import torch
from calibration import peak_scaled as scaled_to_peak


def normalised(x):
    return scaled_to_peak(x) * 2  # BREAK BL516


def shifted(x):
    return calibration.centred(x) + 1


compiled_normalised = torch.compile(normalised)
compiled_shifted = torch.compile(shifted)


def probe_normalised():
    return normalised, (torch.randn(4),)


def probe_shifted():
    return shifted, (torch.randn(4),)
