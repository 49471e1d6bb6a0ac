class Batched:
    """Values of several tasks, flat."""

    def __init__(self, values, spread):
        self.values = values
        self.spread = spread

    @property
    def mean(self):
        return self.values.flatten()
