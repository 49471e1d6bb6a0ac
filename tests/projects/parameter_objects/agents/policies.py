import torch


class Greedy:
    def act(self, scores):
        return scores.argmax(-1)

    def confident(self, scores):
        return scores.max() > 0.9


class Sampled:
    def __init__(self, temperature):
        self.temperature = temperature

    def act(self, scores):
        probs = torch.softmax(scores / self.temperature, -1)
        first = int(probs.argmax())
        return probs.multinomial(1).squeeze(-1) + first

    def confident(self, scores):
        return scores.std() < 0.1
