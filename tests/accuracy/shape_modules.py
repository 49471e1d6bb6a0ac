"""torch modules whose forward runs an operator of data-dependent output size: the CTC loss and
the adaptive softmax break where they are called, held on an attribute;
a loss of fixed shape does not."""

import torch
from torch import nn


class Recogniser(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(5, 5)
        self.ctc = nn.CTCLoss()
        self.nll = nn.NLLLoss()

    def forward(self, x, targets, input_lengths, target_lengths):
        log_probs = self.proj(x).log_softmax(2)
        loss = self.ctc(log_probs, targets, input_lengths, target_lengths)  # BREAK BL301
        return loss * 2 + self.nll(log_probs[0], targets[:, 0])


class Vocabulary(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.output = nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4])

    def forward(self, x, labels):
        hidden = self.proj(x)
        output = self.output(hidden, labels)  # BREAK BL301
        return output.loss * 2


compiled_recogniser = torch.compile(Recogniser())
compiled_vocabulary = torch.compile(Vocabulary())


def probe_recogniser():
    inputs = (torch.randn(6, 2, 5), torch.randint(1, 5, (2, 3)))
    return Recogniser(), (*inputs, torch.full((2,), 6), torch.full((2,), 3))


def probe_vocabulary():
    return Vocabulary(), (torch.randn(3, 8), torch.randint(0, 10, (3,)))
