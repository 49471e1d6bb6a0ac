class Shift:
    def __init__(self, by):
        self.by = by

    def apply(self, logits):
        return logits + self.by


class Clamp:
    def apply(self, logits):
        top = logits.max()
        return logits.clamp(max=float(top) - 1.0)
