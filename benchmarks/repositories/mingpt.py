import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from mingpt.model import GPT


def _gpt():
    config = GPT.get_default_config()
    config.model_type = None
    config.n_layer, config.n_head, config.n_embd = 2, 2, 16
    config.vocab_size, config.block_size = 50, 16
    return GPT(config)


def probe_train():
    return _gpt(), (torch.randint(0, 50, (2, 8)), torch.randint(0, 50, (2, 8)))


def probe_generate():
    model = _gpt().eval()
    return model.generate, (torch.randint(0, 50, (1, 4)), 3), {"do_sample": True, "top_k": 5}
