import torch


def _clip(x):
    print("clipping")
    return x.clamp(-1, 1)


class AttnProcessor:
    def __call__(self, hidden):
        print("processing")
        return hidden


class Scheduler:
    def step(self, sample):
        return _clip(sample)

    def reset(self):
        print("not traced")
