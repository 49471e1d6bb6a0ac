import functools
import importlib.util
import os
import sys
import types

import torch

# tokenizer.py imports sentencepiece at import time for Llama 2's tokenizer; no probe tokenizes.
sys.modules.setdefault("sentencepiece", types.ModuleType("sentencepiece"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import generate  # noqa: E402
from model import ModelArgs, Transformer  # noqa: E402
from quantize import WeightOnlyInt8QuantHandler  # noqa: E402


def _mixtral():
    """mixtral-moe/model.py, imported under its own name (it shares `model` with the dense one)."""
    path = os.path.join(ROOT, "mixtral-moe", "model.py")
    spec = importlib.util.spec_from_file_location("mixtral_model", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["mixtral_model"] = module
    spec.loader.exec_module(module)
    return module


def _transformer(cached=True):
    model = Transformer(
        ModelArgs(block_size=64, vocab_size=96, n_layer=2, n_head=4, dim=32, intermediate_size=64)
    ).eval()
    if cached:
        model.setup_caches(max_batch_size=1, max_seq_length=32)
    return model


def _prompt(length=6):
    return torch.randint(0, 96, (1, length))


def probe_transformer_prefill_positions():
    return _transformer(), (_prompt(), torch.arange(6))


def probe_transformer_one_position():
    return _transformer(), (_prompt(1), torch.tensor([6]))


def probe_prefill_top_k():
    return functools.partial(generate.prefill, top_k=10), (
        _transformer(),
        _prompt(),
        torch.arange(6),
    )


def probe_decode_one_token():
    return generate.decode_one_token, (_transformer(), _prompt(1), torch.tensor([6]))


def probe_decode_n_tokens():
    return generate.decode_n_tokens, (_transformer(), _prompt(1), torch.tensor([6]), 3)


def probe_generate():
    return functools.partial(
        generate.generate, interactive=False, draft_model=None, temperature=0.8, top_k=10
    ), (_transformer(cached=False), _prompt()[0], 4, 1)


def probe_int8_weight_only_transformer():
    model = _transformer(cached=False)
    model = WeightOnlyInt8QuantHandler(model).convert_for_runtime()
    model.load_state_dict(
        WeightOnlyInt8QuantHandler(_transformer(cached=False)).create_quantized_state_dict()
    )
    model = model.to(
        torch.bfloat16
    )  # the quantized model's scales are bfloat16, as in its checkpoints
    model.setup_caches(max_batch_size=1, max_seq_length=32)
    return model, (_prompt(), torch.arange(6))


def probe_mixtral_moe():
    mixtral = _mixtral()
    model = (
        mixtral.Transformer(
            mixtral.ModelArgs(
                block_size=64,
                vocab_size=96,
                n_layer=2,
                n_head=4,
                dim=32,
                intermediate_size=64,
                num_experts=4,
                num_activated_experts=2,
            )
        )
        .to(torch.bfloat16)
        .eval()
    )  # its KV cache is bfloat16, as in its checkpoints
    model.setup_caches(max_batch_size=1, max_seq_length=32)
    return model, (_prompt(), torch.arange(6))
