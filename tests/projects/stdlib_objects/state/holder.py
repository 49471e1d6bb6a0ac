from contextvars import ContextVar

import torch


class Switch:
    def __init__(self, name):
        self.var = ContextVar(name, default=None)
        self.value = None

    def get(self):
        return self.var.get()

    def set(self, value):
        if torch.compiler.is_compiling():
            self.value = value
            return None
        else:
            return self.var.set(value)

    def reset(self, token):
        if token is None:  # every caller passes what `set` returns while compiling: None
            self.value = None
        else:
            self.var.reset(token)
