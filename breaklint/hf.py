"""Tiny Hugging Face transformers models built from configs alone, with inputs to call them.

`build("gpt2", "eval")` returns an `HFProbe`: a randomly initialised model a few layers and a
few dozen channels wide, and the arguments of one forward call, ready to be a breaklint probe.
Nothing is downloaded: the config is `AutoConfig.for_model(model_type)`, shrunk by rules on
field names and types that hold for the whole zoo (never by model name), and the weights are
random.

This module needs torch and transformers (`breaklint[hf]`) and imports them inside its
functions: the command line and the static phase never import it.
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from breaklint.dynamic.model import ProbeError
from breaklint.hf_config import (
    VOCAB,
    Plan,
    is_int,
    nodes,
    plans,
    remap_special_ids,
    shrink,
    special_ids,
)
from breaklint.source import read_regular

if TYPE_CHECKING:
    import torch
    from transformers import PretrainedConfig, PreTrainedModel

Mode = Literal["eval", "train"]
MODES: tuple[Mode, ...] = ("eval", "train")

BATCH = 2
SEQUENCE = 8
AUDIO_SAMPLES = 4000  # a quarter of a second at 16 kHz
FEATURE_FRAMES = 64  # frames of a spectrogram input when the config does not fix them
DEFAULT_IMAGE_SIZE = 224
_REASON_CHARS = 300


_IMAGE_SIZE_KEYS = ("image_size", "img_size", "input_size")
_CHANNEL_KEYS = ("num_channels", "in_channels", "in_chans", "input_channels")
_FEATURE_KEYS = ("num_mel_bins", "feature_size", "n_mel_bins", "input_feat_size", "mel_dim")


class ModelBuildError(ProbeError):
    """A model type that cannot be built or called; `reason` says why, in one line (a probe
    that raises it is reported with that line, without a traceback)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(slots=True)
class HFProbe:
    """A tiny model and the arguments of one call: `module(*args, **kwargs)`."""

    model_type: str
    mode: Mode
    model_class: str  # e.g. "GPT2LMHeadModel"
    module: torch.nn.Module
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    attention: str  # the attn_implementation the model was built with: "sdpa" or "eager"
    gradient_checkpointing: bool = False

    def as_probe(self) -> tuple[torch.nn.Module, tuple[Any, ...], dict[str, Any]]:
        """The `(callable, args, kwargs)` a breaklint probe function returns."""
        return self.module, self.args, self.kwargs


@dataclass(frozen=True, slots=True)
class _Head:
    """A model class family (an Auto class) and the labels that make it compute a loss."""

    auto_class: str  # attribute of `transformers`, e.g. "AutoModelForCausalLM"
    # What makes it compute a loss: `labels` of some kind, or `return_loss=True` (contrastive).
    loss_from: Literal[
        "tokens", "decoder_tokens", "class", "ctc", "segmentation", "return_loss", "none"
    ]


_BASE = _Head("AutoModel", "none")
# Train mode takes the first of these the installed transformers offers for the model type.
_TRAIN_HEADS = (
    _Head("AutoModelForCausalLM", "tokens"),
    _Head("AutoModelForImageTextToText", "tokens"),
    _Head("AutoModelForMaskedLM", "tokens"),
    _Head("AutoModelForSeq2SeqLM", "decoder_tokens"),
    _Head("AutoModelForSpeechSeq2Seq", "decoder_tokens"),
    _Head("AutoModelForImageClassification", "class"),
    _Head("AutoModelForAudioClassification", "class"),
    _Head("AutoModelForCTC", "ctc"),
    _Head("AutoModelForSequenceClassification", "class"),
    _Head("AutoModelForVideoClassification", "class"),
    _Head("AutoModelForSemanticSegmentation", "segmentation"),
    _Head("AutoModel", "return_loss"),
)


def model_types() -> list[str]:
    """Every model type the installed transformers knows (its CONFIG_MAPPING keys), sorted."""
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    return sorted(CONFIG_MAPPING.keys())


def is_folder(model: str) -> bool:
    """Whether `--hf MODEL` / `build(MODEL)` names a local folder rather than a model type: only
    a path form does (`./whisper`, `models/whisper`, `/abs/path`, `~/m`). A bare name is always
    a model type, so a `whisper/` folder in the working directory never stands in for the
    `whisper` type."""
    return os.sep in model or "/" in model or model.startswith((".", "~"))


def modeling_sources(mode: Mode) -> dict[str, list[str]]:
    """Model type -> the files of the installed transformers that `build(type, mode)` runs,
    read from transformers' own registries: the Auto classes `build` picks from (in eval mode
    the first that maps the type, in train mode every head with a loss), the classes they map
    the type to, and the module each class is imported from. A type no Auto class maps (a
    sub-model's config, such as a vision tower's) gets the `modeling_*.py` files of the folder
    transformers keeps its config in (`model_type_to_module_name`); a type whose folder has
    none (a processor- or tokenizer-only type) gets no file."""
    import transformers
    from transformers.models.auto.configuration_auto import model_type_to_module_name

    package = Path(transformers.__file__).parent
    heads = (_BASE, *_TRAIN_HEADS, *_other_heads()) if mode == "eval" else _TRAIN_HEADS
    mappings = [getattr(transformers, head.auto_class)._model_mapping for head in heads]
    sources: dict[str, list[str]] = {}
    for model_type in model_types():
        files: list[str] = []
        for mapping in mappings:
            named = mapping._model_mapping.get(model_type)  # the type's class names
            found = [
                path
                for name in ((named,) if isinstance(named, str) else named or ())
                if (path := _class_file(transformers, package, name)) is not None
            ]
            files += [path for path in found if path not in files]
            if found and mode == "eval":
                break
        if not files:
            folder = package / "models" / Path(*model_type_to_module_name(model_type).split("."))
            files = [str(path) for path in sorted(folder.glob("modeling_*.py"))]
        sources[model_type] = files
    return sources


def _class_file(transformers: Any, package: Path, name: str) -> str | None:
    """The file that defines transformers' class `name`, from the table its lazy top-level
    module imports it by (`models.gpt2.modeling_gpt2`; no modeling module is imported); None
    when this transformers lacks the class."""
    module = getattr(transformers, "_class_to_module", {}).get(name)
    if module is None:
        return None
    path = package.joinpath(*module.split(".")).with_suffix(".py")
    return str(path) if path.is_file() else None


def tiny_config(model_type: str) -> PretrainedConfig:
    """`AutoConfig.for_model(model_type)` shrunk by `hf_config`'s rules: LAYERS layers per
    stack (one of each kind of layer, up to MAX_LAYERS), widths divided by up to
    MAX_WIDTH_DIVISOR with head counts and head dims keeping widths whole, at most EXPERTS
    experts, a VOCAB-token vocabulary with every special token id inside it, at most
    MAX_POSITIONS positions. Sub-configs (text, vision, audio, encoder, decoder, backbone...)
    are shrunk by the same rules."""
    config = _default_config(model_type)
    return _shrunk_config(config, plans(config.to_dict())[0])


def _source_config(model: str, trust_remote_code: bool) -> PretrainedConfig:
    """The config to shrink: a local folder's config.json, or a model type's defaults.

    A folder's config.json is read once, here, and the decision to run its custom code is
    made from those very bytes: transformers never reads the folder's config itself, so a
    config.json swapped after the check cannot bring in code (and with trust_remote_code
    False, none of the folder's Python files is imported)."""
    if not is_folder(model):
        return _default_config(model)
    path = os.path.join(model, "config.json")
    tree = folder_config(model)
    if tree.get("auto_map") and not trust_remote_code:
        raise ModelBuildError(
            f"{model} holds custom modeling code (config.json's auto_map): "
            "it runs only with --trust-remote-code"
        )
    try:
        config = _config_class(tree, model).from_dict(tree)
    except ModelBuildError:
        raise
    except Exception as error:
        raise ModelBuildError(f"{path}: {_one_line(error)}") from None
    config._name_or_path = model  # where trusted custom modeling code is found
    return config


def folder_config(folder: str) -> dict[str, Any]:
    """A model folder's config.json as a JSON object, read once (a regular file, bounded);
    ModelBuildError saying why when it cannot be."""
    path = os.path.join(folder, "config.json")
    try:
        tree = json.loads(read_regular(path).decode("utf-8"))
    except (OSError, ValueError, RecursionError) as error:
        raise ModelBuildError(f"{path}: cannot read it: {_one_line(error)}") from None
    if not isinstance(tree, dict):
        raise ModelBuildError(f"{path}: not a JSON object")
    return tree


def _config_class(tree: dict[str, Any], model: str) -> type[PretrainedConfig]:
    """The class of a folder's config: its own (`auto_map`, trusted by then) or the one
    transformers maps its `model_type` to."""
    from transformers import CONFIG_MAPPING

    custom = tree.get("auto_map")
    if isinstance(custom, dict) and isinstance(custom.get("AutoConfig"), str):
        from transformers.dynamic_module_utils import get_class_from_dynamic_module

        found: type[PretrainedConfig] = get_class_from_dynamic_module(custom["AutoConfig"], model)
        return found
    model_type = tree.get("model_type")
    if not isinstance(model_type, str) or model_type not in CONFIG_MAPPING:
        raise ModelBuildError(
            f"{os.path.join(model, 'config.json')}: no model_type this transformers knows "
            f"({model_type!r}) and no custom AutoConfig"
        )
    known: type[PretrainedConfig] = CONFIG_MAPPING[model_type]
    return known


def _default_config(model_type: str) -> PretrainedConfig:
    from transformers import AutoConfig

    if model_type not in model_types():
        raise ModelBuildError(f"unknown model type '{model_type}' for this transformers")
    try:
        return AutoConfig.for_model(model_type)
    except Exception as error:
        reason = f"AutoConfig.for_model rejects the defaults: {_one_line(error)}"
        raise ModelBuildError(reason) from None


def _shrunk_config(config: PretrainedConfig, plan: Plan) -> PretrainedConfig:
    tree = config.to_dict()
    shrink(tree, plan)
    remap_special_ids(tree)
    if tree.get("is_encoder_decoder") and tree.get("decoder_start_token_id") is None:
        # Released encoder-decoder checkpoints start decoding at the pad (else bos) token;
        # some default configs leave the start token out, and labels cannot be shifted then.
        start = tree.get("pad_token_id")
        tree["decoder_start_token_id"] = start if start is not None else tree.get("bos_token_id")
    try:
        return type(config).from_dict(tree)
    except Exception as error:
        raise ModelBuildError(f"the shrunk config is rejected: {_one_line(error)}") from None


def build(model_type: str, mode: Mode, seed: int = 0, trust_remote_code: bool = False) -> HFProbe:
    """A tiny `model_type` model and the inputs of one forward call, checked by calling it once.

    `model_type` may also be a local folder holding a `config.json`: its config is shrunk the
    same way. Custom modeling code in that folder (the config's `auto_map`) runs only with
    `trust_remote_code=True`.

    - eval: the base model (`AutoModel`; the first head class when the type has none) in
      `eval()` mode, called with its `main_input_name` (`input_ids`, `pixel_values`,
      `input_features`, `input_values`...), an all-ones `attention_mask` next to `input_ids`,
      `decoder_input_ids` for encoder-decoders and any other required forward argument that can
      be synthesized; when that call fails, other inputs the forward takes are added.
    - train: the first head class that computes a loss from `labels` (causal LM, image-text-to-
      text, masked LM, seq2seq LM, speech seq2seq, image, audio classification, CTC, sequence,
      video classification, semantic segmentation; else the base model with
      `return_loss=True`, as contrastive models take it), in `train()` mode with gradient
      checkpointing when the model supports it, and `labels` among the inputs. Dropout and
      layer drop stay as configured.

    Attention is sdpa, what transformers picks by default on torch 2, and eager for classes
    without sdpa. Inputs are BATCH x SEQUENCE tokens, images at the configured size and
    AUDIO_SAMPLES of audio. Raises ModelBuildError with a one-line reason when the config,
    the model or the call fails.
    """
    if mode not in MODES:
        raise ModelBuildError(f"mode must be one of {MODES}, not '{mode}'")
    try:
        return _build(model_type, mode, seed, trust_remote_code)
    except ModelBuildError:
        raise
    except Exception as error:  # transformers' own code can raise anything on odd configs
        raise ModelBuildError(f"building '{model_type}' failed: {_one_line(error)}") from None


def _build(model_type: str, mode: Mode, seed: int, trust_remote_code: bool) -> HFProbe:
    import torch
    import transformers

    default = _source_config(model_type, trust_remote_code)
    failures: list[str] = []
    for plan in plans(default.to_dict()):
        try:
            config = _shrunk_config(default, plan)
        except ModelBuildError as error:
            failures.append(error.reason)
            continue
        heads = (_BASE, *_TRAIN_HEADS, *_other_heads()) if mode == "eval" else _TRAIN_HEADS
        offered = [h for h in heads if _offers(getattr(transformers, h.auto_class), config)]
        if not offered:
            wanted = "AutoModel or a head class" if mode == "eval" else "a head class with a loss"
            raise ModelBuildError(f"transformers maps '{model_type}' to no {wanted}")
        for head in offered[:1] if mode == "eval" else offered:
            torch.manual_seed(seed)
            try:
                return _build_with(model_type, mode, config, head, seed)
            except ModelBuildError as error:
                failures.append(error.reason)
    raise ModelBuildError(failures[0])


def _other_heads() -> list[_Head]:
    """Every other Auto class of the installed transformers (depth estimation, object
    detection, backbones...), for eval-mode types that have neither a base model nor a head
    with a loss."""
    import transformers

    known = {head.auto_class for head in (_BASE, *_TRAIN_HEADS)}
    names = [n for n in dir(transformers) if n.startswith("AutoModelFor") or n == "AutoBackbone"]
    return [_Head(name, "none") for name in sorted(set(names) - known)]


def _custom_class(auto_class: Any, config: PretrainedConfig) -> str | None:
    """The `module.Class` a local folder's config maps this Auto class to (its `auto_map`),
    which only a config loaded with trust_remote_code=True can carry."""
    custom: str | None = (getattr(config, "auto_map", None) or {}).get(auto_class.__name__)
    return custom


def _offers(auto_class: Any, config: PretrainedConfig) -> bool:
    if _custom_class(auto_class, config):
        return True
    try:
        return type(config) in auto_class._model_mapping
    except Exception:  # a mapping entry whose class the installed transformers lacks
        return False


def _model_class(auto_class: Any, config: PretrainedConfig) -> type:
    custom = _custom_class(auto_class, config)
    if custom:
        from transformers.dynamic_module_utils import get_class_from_dynamic_module

        found_class: type = get_class_from_dynamic_module(custom, config._name_or_path)
        return found_class
    found = auto_class._model_mapping[type(config)]
    model_class: type = found[0] if isinstance(found, tuple) else found  # the first is the default
    return model_class


def _build_with(
    model_type: str, mode: Mode, config: PretrainedConfig, head: _Head, seed: int
) -> HFProbe:
    import torch
    import transformers

    auto_class = getattr(transformers, head.auto_class)
    model, attention = _instantiate(auto_class, config)
    name = type(model).__name__
    checkpointing = False
    if mode == "train":
        model.train()
        if getattr(model, "supports_gradient_checkpointing", False):
            # transformers 5 renamed it; the old name warns.
            enable = getattr(model, "activation_checkpointing_enable", None)
            enable = enable or model.gradient_checkpointing_enable
            try:
                enable()
            except Exception as error:
                reason = f"{name}.{enable.__name__}() failed: {_one_line(error)}"
                raise ModelBuildError(reason) from None
            checkpointing = True
    else:
        model.train(False)  # eval mode, as `eval()` sets it
    inputs = _Inputs(model.config, torch.Generator().manual_seed(seed))
    last_failure = f"{name}.forward takes no input breaklint can make"
    for kwargs in _input_sets(model, inputs, mode, head):
        failure = _call_fails(model, kwargs, mode)
        if failure is None:
            return HFProbe(model_type, mode, name, model, (), kwargs, attention, checkpointing)
        # The last attempt passed the most inputs: its failure says the most.
        last_failure = f"{name}.forward({_describe(kwargs)}) {failure}"
    raise ModelBuildError(last_failure)


def _instantiate(auto_class: Any, config: PretrainedConfig) -> tuple[PreTrainedModel, str]:
    import torch

    model_class = _model_class(auto_class, config)
    attention = "sdpa" if getattr(model_class, "_supports_sdpa", False) else "eager"
    options = {"dtype": torch.float32, "trust_remote_code": bool(_custom_class(auto_class, config))}
    try:
        model = auto_class.from_config(config, attn_implementation=attention, **options)
    except Exception as error:
        if attention == "eager":
            raise ModelBuildError(f"{model_class.__name__}(config): {_one_line(error)}") from None
        # A composite model whose parts do not all support sdpa: eager everywhere.
        try:
            model = auto_class.from_config(config, attn_implementation="eager", **options)
        except Exception:
            raise ModelBuildError(f"{model_class.__name__}(config): {_one_line(error)}") from None
        attention = "eager"
    return model, attention


def _call_fails(model: torch.nn.Module, kwargs: dict[str, Any], mode: Mode) -> str | None:
    """Why one eager call with `kwargs` is not usable as a probe, or None when it is."""
    try:
        output = model(**kwargs)
    except Exception as error:
        return f"raised {_one_line(error)}"
    if mode == "train" and getattr(output, "loss", None) is None:
        return "returned no loss"
    return None


def _describe(kwargs: dict[str, Any]) -> str:
    parts = []
    for key, value in kwargs.items():
        shape = getattr(value, "shape", None)
        parts.append(f"{key}={list(shape)}" if shape is not None else key)
    return ", ".join(parts)


def _one_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    text = f"{type(error).__name__}: {lines[0] if lines else ''}".strip().rstrip(":")
    return text if len(text) <= _REASON_CHARS else text[: _REASON_CHARS - 3] + "..."


# --- Inputs -------------------------------------------------------------------------------


class _Inputs:
    """Synthesizes the tensors a forward call takes, from the config of the built model."""

    def __init__(self, config: PretrainedConfig, generator: torch.Generator) -> None:
        self.config = config
        self.generator = generator
        self.tree = config.to_dict()
        text = config.get_text_config(decoder=True)
        self.vocab = min(getattr(text, "vocab_size", None) or VOCAB, VOCAB)
        self.num_labels = getattr(config, "num_labels", 2) or 2

    def _first(self, keys: tuple[str, ...]) -> Any:
        """The first value of `keys` in the config tree, the sub-configs that have images or
        audio first (their values describe the inputs)."""
        ordered = sorted(nodes(self.tree), key=lambda node: not any(k in node for k in keys))
        for node in ordered:
            for key in keys:
                if node.get(key) is not None:
                    return node[key]
        return None

    def tokens(self, shape: tuple[int, ...] = (BATCH, SEQUENCE), low: int = 0) -> torch.Tensor:
        import torch

        special = special_ids(self.config)
        allowed = [i for i in range(low, self.vocab) if i not in special] or [self.vocab - 1]
        picks = torch.randint(len(allowed), shape, generator=self.generator)
        return torch.tensor(allowed)[picks]

    def ones(self, shape: tuple[int, ...] = (BATCH, SEQUENCE)) -> torch.Tensor:
        import torch

        return torch.ones(shape, dtype=torch.long)

    def _random(self, *shape: int) -> torch.Tensor:
        import torch

        return torch.randn(shape, generator=self.generator)

    def pixel_values(self) -> list[torch.Tensor]:
        size = self._first(_IMAGE_SIZE_KEYS) or DEFAULT_IMAGE_SIZE
        if isinstance(size, dict):
            height = size.get("height") or size.get("shortest_edge") or DEFAULT_IMAGE_SIZE
            width = size.get("width") or height
        elif isinstance(size, list | tuple):
            height, width = size[-2:] if len(size) > 1 else (size[0], size[0])
        else:
            height = width = size
        channels = self._first(_CHANNEL_KEYS)
        channels = channels if is_int(channels) and channels > 0 else 3
        images = [self._random(BATCH, channels, height, width)]
        frames = self._first(("num_frames",))
        if is_int(frames) and frames > 0:
            images.append(self._random(BATCH, frames, channels, height, width))
        return images

    def input_features(self) -> list[torch.Tensor]:
        features = self._first(_FEATURE_KEYS)
        per_channel = self._first(("input_feat_per_channel",))
        if is_int(per_channel):
            features = per_channel * (self._first(("input_channels",)) or 1)
        features = features if is_int(features) and features > 0 else 80
        lengths = [FEATURE_FRAMES]
        source_positions = self._first(("max_source_positions",))
        if is_int(source_positions):
            lengths.insert(0, 2 * source_positions)  # a stride-2 convolution feeds the encoder
        shapes = [(BATCH, features, n) for n in lengths] + [(BATCH, n, features) for n in lengths]
        return [self._random(*shape) for shape in shapes]

    def input_values(self) -> list[torch.Tensor]:
        return [self._random(BATCH, AUDIO_SAMPLES), self._random(BATCH, 1, AUDIO_SAMPLES)]

    def class_labels(self) -> torch.Tensor:
        import torch

        return torch.randint(self.num_labels, (BATCH,), generator=self.generator)

    def pixel_labels(self, size: tuple[int, ...]) -> torch.Tensor:
        """One class per pixel, for semantic segmentation."""
        import torch

        return torch.randint(self.num_labels, (BATCH, *size), generator=self.generator)

    def variants(self, name: str) -> list[Any]:
        """Candidate values for the forward parameter `name`; empty when it cannot be made."""
        makers: dict[str, Callable[[], list[Any]]] = {
            "input_ids": lambda: [self.tokens()],
            "decoder_input_ids": lambda: [self.tokens()],
            "attention_mask": lambda: [self.ones()],
            "decoder_attention_mask": lambda: [self.ones()],
            "pixel_values": self.pixel_values,
            "input_features": self.input_features,
            "input_values": self.input_values,
        }
        maker = makers.get(name)
        return maker() if maker else []


_MODALITIES = ("input_ids", "pixel_values", "input_features", "input_values")


def _input_sets(
    model: torch.nn.Module, inputs: _Inputs, mode: Mode, head: _Head
) -> Iterator[dict[str, Any]]:
    """Forward kwargs to try, most plausible first: the main input alone (with its mask,
    decoder inputs and labels), then with each other input the forward takes."""
    parameters = inspect.signature(model.forward).parameters
    main = getattr(model, "main_input_name", "input_ids")
    if main not in parameters:  # a sub-model that kept its parent's main_input_name
        main = next((m for m in _MODALITIES if m in parameters), main)
    if main not in parameters:
        raise ModelBuildError(f"{type(model).__name__}.forward has no `{main}` parameter")
    fixed: dict[str, Any] = {}
    for name, parameter in parameters.items():
        required = parameter.default is inspect.Parameter.empty
        plain = parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
        if required and plain and name != main:
            values = inputs.variants(name)
            if not values:
                raise ModelBuildError(
                    f"{type(model).__name__}.forward requires `{name}`, which breaklint cannot make"
                )
            fixed[name] = values[0]
    if main == "input_ids" and "attention_mask" in parameters:
        fixed["attention_mask"] = inputs.ones()
    encoder_decoder = getattr(model.config, "is_encoder_decoder", False)
    if encoder_decoder and "decoder_input_ids" in parameters and head.loss_from != "decoder_tokens":
        fixed["decoder_input_ids"] = inputs.tokens()
    extras = [m for m in _MODALITIES if m != main and m in parameters and m not in fixed]
    for extra in (None, *extras):
        for value in inputs.variants(main):
            kwargs = {main: value, **fixed}
            if extra is not None:
                kwargs[extra] = inputs.variants(extra)[0]
            if mode == "train":
                loss_inputs = _loss_inputs(head, inputs, kwargs, parameters)
                if loss_inputs is None:
                    continue
                kwargs.update(loss_inputs)
            yield kwargs


def _loss_inputs(
    head: _Head, inputs: _Inputs, kwargs: dict[str, Any], parameters: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The arguments that make `head` compute a loss from `kwargs`; None when it cannot."""
    if head.loss_from == "tokens":
        ids = kwargs.get("input_ids")
        return {"labels": ids.clone()} if ids is not None else None
    if head.loss_from == "decoder_tokens":
        return {"labels": inputs.tokens()}
    if head.loss_from == "class":
        return {"labels": inputs.class_labels()}
    if head.loss_from == "ctc":
        return {"labels": inputs.tokens((BATCH, SEQUENCE // 2), low=1)}  # id 0 is CTC's blank
    if head.loss_from == "segmentation" and "pixel_values" in kwargs:
        return {"labels": inputs.pixel_labels(kwargs["pixel_values"].shape[-2:])}
    if head.loss_from == "return_loss" and "return_loss" in parameters:
        return {"return_loss": True}
    return None


__all__ = [
    "MODES",
    "HFProbe",
    "Mode",
    "ModelBuildError",
    "build",
    "is_folder",
    "model_types",
    "modeling_sources",
    "tiny_config",
]
