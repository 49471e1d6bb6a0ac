import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence


def sequence_loss(h, log_probs, lengths, targets, target_lengths):
    packed = pack_padded_sequence(h, lengths, batch_first=True, enforce_sorted=False)
    ctc = F.ctc_loss(log_probs, targets, lengths, target_lengths)
    return packed.data.sum() + ctc
