class Collector:
    def __init__(self, name):
        self.name = name

    def get(self):
        print("collecting", self.name)
        return self.name

    def peek(self):
        print("peeking")
        return self.name

    def clear(self):
        print("not traced")


collector = Collector("outputs")


def collected(h):
    return h if collector.peek() else h * 2
