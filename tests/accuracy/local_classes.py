"""A `class` statement in compiled code: Dynamo does not trace `__build_class__`."""

import torch


class Scale:
    def __init__(self):
        self.k = 2.0

    def apply(self, x):
        return x * self.k


def shifted(x, offset):
    class Shift:  # BREAK BL513
        def apply(self, y):
            return y + offset

    return Shift().apply(x * 2)


def specialised(x, base):
    class Doubled(type(base)):  # BREAK BL513
        def apply(self, y):
            return super().apply(y) * 2

    return Doubled().apply(x)


def made_eagerly(x):
    if not torch.compiler.is_compiling():

        class Record:
            total = 0.0

        Record.total = 1.0
    return x + 1


def helper_made(x):
    def make():
        class Unused:
            pass

        return Unused

    return x * 3


compiled_shifted = torch.compile(shifted)
compiled_specialised = torch.compile(specialised)
compiled_made_eagerly = torch.compile(made_eagerly)
compiled_helper_made = torch.compile(helper_made)


def probe_local_class_with_closure():
    return shifted, (torch.randn(4), 1.5)


def probe_local_subclass_of_an_argument():
    return specialised, (torch.randn(4), Scale())


def probe_class_made_eagerly():
    return made_eagerly, (torch.randn(4),)


def probe_class_in_a_nested_function_not_called():
    return helper_made, (torch.randn(4),)
