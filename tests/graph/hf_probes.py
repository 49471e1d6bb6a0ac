"""Probes for `breaklint graph` on tiny Hugging Face models built from configs (no download).
The causal-LM classes, so module paths read as users write them (`transformer.h.0.attn`),
in eval mode and without labels or a cache: the forward pass alone."""

from breaklint.hf import build


def _forward_only(model_type: str):
    probe = build(model_type, "train")  # the train build is the causal-LM head class
    probe.module.eval()  # no dropout, and no gradient checkpointing (it runs only in training)
    kwargs = {k: v for k, v in probe.kwargs.items() if k != "labels"}
    return probe.module, probe.args, {**kwargs, "use_cache": False}


def probe_gpt2():
    return _forward_only("gpt2")


def probe_llama():
    return _forward_only("llama")
