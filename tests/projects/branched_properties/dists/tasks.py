from dists.base import Batched


class Tasks(Batched):
    def __init__(self, loc, scale, interleaved=True):
        super().__init__(loc, scale)
        self.interleaved = interleaved

    @property
    def mean(self):
        mean = super().mean
        if not self.interleaved:
            return mean.view(2, -1).transpose(-1, -2).contiguous()
        return mean.view(-1, 2)

    def centred(self, x):
        return x.view(-1, 2) - self.mean
