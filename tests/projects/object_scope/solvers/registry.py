from torch import Tensor


class Forward:
    def advance(self, y: Tensor):
        return y / y.abs().max().item()


class Backward:
    def __init__(self):
        self.calls = 0

    def advance(self, y: Tensor):  # nobody makes one through the table
        return y * y.abs().max().item()


def clip(y: Tensor):
    return y.clamp(-1, 1) / y.abs().max().item()


STEPPERS = {"forward": Forward}
MAKERS = {"backward": Backward}
POSTS = [clip]
