"""breaklint.hf builds tiny transformers models from configs alone, with inputs that run."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="hf builds torch models")
pytest.importorskip("transformers", reason="hf builds models from transformers configs")

from breaklint import hf, hf_config  # noqa: E402  (after the skips: it needs both)

# type -> (eval inputs, train inputs)
EXPECTED = {
    "gpt2": ({"input_ids", "attention_mask"}, {"input_ids", "attention_mask", "labels"}),
    "bert": ({"input_ids", "attention_mask"}, {"input_ids", "attention_mask", "labels"}),
    "t5": (
        {"input_ids", "attention_mask", "decoder_input_ids"},
        {"input_ids", "attention_mask", "labels"},
    ),
    "vit": ({"pixel_values"}, {"pixel_values", "labels"}),
}


@pytest.mark.parametrize("model_type", sorted(EXPECTED))
@pytest.mark.parametrize("mode", hf.MODES)
def test_builds_a_tiny_model_that_runs(model_type: str, mode: hf.Mode) -> None:
    probe = hf.build(model_type, mode)
    eval_inputs, train_inputs = EXPECTED[model_type]
    assert set(probe.kwargs) == (eval_inputs if mode == "eval" else train_inputs)
    assert probe.module.training == (mode == "train")
    assert sum(p.numel() for p in probe.module.parameters()) < 5_000_000
    module, args, kwargs = probe.as_probe()
    output = module(*args, **kwargs)
    if mode == "train":
        assert output.loss is not None and output.loss.requires_grad
        assert probe.gradient_checkpointing
    else:
        assert probe.model_class.endswith("Model")


def test_shrinks_layers_widths_and_vocabulary_keeping_token_ids_inside() -> None:
    config = hf.tiny_config("llama")
    assert config.num_hidden_layers == hf_config.LAYERS
    assert config.vocab_size == hf.VOCAB
    assert config.hidden_size % config.num_attention_heads == 0
    assert config.num_attention_heads % config.num_key_value_heads == 0
    assert config.hidden_size <= 512
    assert all(
        0 <= token < config.vocab_size for token in (config.bos_token_id, config.eos_token_id)
    )


def test_same_seed_same_inputs() -> None:
    first = hf.build("bert", "eval", seed=3).kwargs["input_ids"]
    second = hf.build("bert", "eval", seed=3).kwargs["input_ids"]
    assert torch.equal(first, second)


def test_model_types_lists_the_installed_zoo() -> None:
    types = hf.model_types()
    assert types == sorted(types)
    assert {"gpt2", "bert", "t5", "vit"} <= set(types)


def test_unknown_model_type_is_a_build_error_with_a_reason() -> None:
    with pytest.raises(hf.ModelBuildError) as caught:
        hf.build("no-such-model", "eval")
    assert caught.value.reason == "unknown model type 'no-such-model' for this transformers"
    assert "\n" not in caught.value.reason


def test_unknown_mode_is_a_build_error() -> None:
    with pytest.raises(hf.ModelBuildError, match="mode must be one of"):
        hf.build("gpt2", "predict")  # type: ignore[arg-type]
