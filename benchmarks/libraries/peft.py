"""PEFT (parameter-efficient fine-tuning: adapters injected into a pretrained model's layers), on
tiny transformers models built from configs (random weights, nothing is downloaded): a Llama
causal LM, a BERT classifier and a GPT-2 with its fused `Conv1D` projections, each wrapped by a
method: LoRA (with dropout, rank-stabilised scaling, weight-decomposed DoRA, on embeddings,
two adapters, a different one per example at inference), LoKr, IA3, AdaLoRA, VeRA, orthogonal
fine-tuning (OFT), layer-norm tuning, and the virtual-token methods (prompt
tuning, prefix tuning, P-tuning)."""

import peft
import torch
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    GPT2Config,
    GPT2LMHeadModel,
    LlamaConfig,
    LlamaForCausalLM,
)

PACKAGES = ("peft",)
MODES = ("eval", "train")

_TOKENS = 12
_VOCABULARY = 96


def _llama():
    config = LlamaConfig(
        vocab_size=_VOCABULARY,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
    )
    return LlamaForCausalLM(config)


def _bert():
    config = BertConfig(
        vocab_size=_VOCABULARY,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        max_position_embeddings=64,
        num_labels=3,
    )
    return BertForSequenceClassification(config)


def _gpt2():
    config = GPT2Config(vocab_size=_VOCABULARY, n_embd=32, n_layer=2, n_head=4, n_positions=64)
    return GPT2LMHeadModel(config)


def _inputs():
    tokens = torch.randint(0, _VOCABULARY, (2, _TOKENS))
    return {"input_ids": tokens, "attention_mask": torch.ones_like(tokens)}


def _wrapped(model, config, task=None):
    if task is not None:
        config.task_type = task
    return peft.get_peft_model(model, config), (), _inputs()


_ATTENTION = ["q_proj", "v_proj"]


def build_lora_llama():
    config = peft.LoraConfig(r=4, lora_alpha=8, lora_dropout=0.1, target_modules=_ATTENTION)
    return _wrapped(_llama(), config, "CAUSAL_LM")


def build_rank_stabilized_lora_all_linear():
    config = peft.LoraConfig(r=4, use_rslora=True, target_modules="all-linear")
    return _wrapped(_llama(), config, "CAUSAL_LM")


def build_dora_llama():
    config = peft.LoraConfig(r=4, use_dora=True, target_modules=_ATTENTION)
    return _wrapped(_llama(), config, "CAUSAL_LM")


def build_lora_embedding_and_gpt2_conv1d():
    config = peft.LoraConfig(r=4, target_modules=["c_attn", "wte"], fan_in_fan_out=True)
    return _wrapped(_gpt2(), config, "CAUSAL_LM")


def build_lora_two_adapters(mode):
    """Inference picks an adapter per example; training (where PEFT refuses that) the second."""
    model = peft.get_peft_model(_llama(), peft.LoraConfig(r=4, target_modules=_ATTENTION))
    model.add_adapter("second", peft.LoraConfig(r=2, target_modules=_ATTENTION))
    if mode == "train":
        model.set_adapter("second")
        return model, (), _inputs()
    return model, (), _inputs() | {"adapter_names": ["default", "second"]}


def build_lora_bert_classifier():
    config = peft.LoraConfig(r=4, target_modules=["query", "value"], lora_dropout=0.1)
    return _wrapped(_bert(), config, "SEQ_CLS")


def build_lokr():
    return _wrapped(_llama(), peft.LoKrConfig(r=4, target_modules=_ATTENTION), "CAUSAL_LM")


def build_ia3():
    config = peft.IA3Config(
        target_modules=["k_proj", "v_proj", "down_proj"], feedforward_modules=["down_proj"]
    )
    return _wrapped(_llama(), config, "CAUSAL_LM")


def build_adalora():
    config = peft.AdaLoraConfig(init_r=6, target_r=2, target_modules=_ATTENTION, total_step=10)
    return _wrapped(_llama(), config, "CAUSAL_LM")


def build_vera():
    return _wrapped(_llama(), peft.VeraConfig(r=4, target_modules=_ATTENTION), "CAUSAL_LM")


def build_oft():
    config = peft.OFTConfig(r=0, oft_block_size=8, target_modules=_ATTENTION)
    return _wrapped(_llama(), config, "CAUSAL_LM")


def build_layer_norm_tuning():
    return _wrapped(_bert(), peft.LNTuningConfig(target_modules=["LayerNorm"]), "SEQ_CLS")


def build_prompt_tuning():
    config = peft.PromptTuningConfig(num_virtual_tokens=4)
    return _wrapped(_llama(), config, "CAUSAL_LM")


def build_prefix_tuning():
    config = peft.PrefixTuningConfig(num_virtual_tokens=4)
    return _wrapped(_llama(), config, "CAUSAL_LM")


def build_p_tuning():
    config = peft.PromptEncoderConfig(num_virtual_tokens=4, encoder_hidden_size=16)
    return _wrapped(_bert(), config, "SEQ_CLS")
