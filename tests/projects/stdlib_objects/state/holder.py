from contextvars import ContextVar


class Switch:
    def __init__(self, name):
        self.var = ContextVar(name, default=None)

    def get(self):
        return self.var.get()
