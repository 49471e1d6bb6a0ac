import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from model import GPT, GPTConfig


def _gpt():
    return GPT(GPTConfig(block_size=16, vocab_size=50, n_layer=2, n_head=2, n_embd=16, dropout=0.0))


def probe_train():
    idx = torch.randint(0, 50, (2, 8))
    return _gpt(), (idx, torch.randint(0, 50, (2, 8)))


def probe_infer():
    return _gpt().eval(), (torch.randint(0, 50, (2, 8)),)


def probe_generate():
    model = _gpt().eval()
    return model.generate, (torch.randint(0, 50, (1, 4)), 3), {"top_k": 5}
