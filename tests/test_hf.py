"""breaklint.hf builds tiny transformers models from configs alone, with inputs that run."""

from __future__ import annotations

import functools
import os
import re

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


@functools.cache
def _defined_classes(path: str) -> set[str]:
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    return set(re.findall(r"^class (\w+)\b", text, re.MULTILINE))


@pytest.mark.parametrize("mode", hf.MODES)
def test_every_registered_type_maps_to_the_modeling_files_it_runs(mode: hf.Mode) -> None:
    """The whole registry of the installed transformers: each type's files are in the folder
    transformers keeps the type in, or define a class an Auto class maps the type to (a type
    that reuses another model's classes, as `gpt-sw3` runs GPT-2's); the class `AutoModel`
    builds is always among them; a type with no file is one whose folder holds no modeling
    code and that no Auto class maps."""
    import transformers
    from transformers.models.auto import modeling_auto
    from transformers.models.auto.configuration_auto import (
        CONFIG_MAPPING_NAMES,
        model_type_to_module_name,
    )

    from breaklint.hf_models import model_sources

    models = os.path.join(os.path.dirname(transformers.__file__), "models")
    mapped: dict[str, set[str]] = {}
    for name, mapping in vars(modeling_auto).items():
        if name.startswith("MODEL_") and name.endswith("_MAPPING_NAMES"):
            for model_type, classes in mapping.items():
                named = {classes} if isinstance(classes, str) else set(classes)
                mapped.setdefault(model_type, set()).update(named)
    exported = set(dir(transformers))
    sources = model_sources(mode)
    assert set(sources) == set(CONFIG_MAPPING_NAMES)
    for model_type, files in sources.items():
        own = os.path.join(models, *model_type_to_module_name(model_type).split("."))
        for path in files:
            elsewhere = os.path.dirname(path) != own
            assert not elsewhere or _defined_classes(path) & mapped[model_type], (model_type, path)
            assert os.path.basename(path).startswith("modeling_"), (model_type, path)
        base = modeling_auto.MODEL_MAPPING_NAMES.get(model_type)
        if mode == "eval" and isinstance(base, str) and base in exported:
            assert any(base in _defined_classes(path) for path in files), (model_type, base)
        if not files:
            assert not any(name.startswith("modeling_") for name in os.listdir(own)), model_type
    # The mistake this replaces: a regex over config sources sent llama to glmasr's folder.
    assert [os.path.relpath(p, models) for p in sources["llama"]] == ["llama/modeling_llama.py"]


def test_a_bare_name_is_a_model_type_even_with_a_folder_of_that_name(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bert").mkdir()
    (tmp_path / "bert" / "config.json").write_text('{"model_type": "gpt2"}', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert not hf.is_folder("bert")
    assert hf.is_folder("./bert") and hf.is_folder(str(tmp_path / "bert"))
    assert hf.build("bert", "eval").model_class == "BertModel"
    assert hf.build("./bert", "eval").model_class == "GPT2Model"
