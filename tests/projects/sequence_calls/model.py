"""Torch calls Dynamo does not trace in a speech model: packing a padded batch, and the CTC
loss (as `F.ctc_loss` under an alias, and through an import of the function)."""

from torch import nn

from speech.losses import sequence_loss


class Recognizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 5)

    def forward(self, x, lengths, targets, target_lengths):
        h = self.proj(x)
        log_probs = h.log_softmax(-1).transpose(0, 1)
        return sequence_loss(h, log_probs, lengths, targets, target_lengths)
