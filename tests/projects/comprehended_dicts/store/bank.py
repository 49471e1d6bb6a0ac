class Bank:
    def __init__(self, entries=None):
        self.entries = {}
        if entries is not None:
            self.update(entries)

    def update(self, entries):
        for key, value in sorted(entries.items()):
            self.entries[key] = value

    def total(self):
        return sum(self.entries.values())
