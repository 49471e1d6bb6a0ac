class Interval:
    def __init__(self, start, end):
        self.start = start
        self.end = end

    def locate(self, t):
        return float(t) - self.start


class Tree(Interval):
    def __init__(self, start, end):
        super().__init__(start, end)
        self._last = self  # the interval queried last: the tree itself at first

    def query(self, t):
        return self._last.locate(t)
