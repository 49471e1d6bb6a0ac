"""Shrinking a transformers config, as a tree of plain values: layers, widths, heads, experts,
vocabulary and positions made small by rules on field names and types that hold for the whole
zoo (never by model name), keeping what must match (head dims, token ids, layer indices)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from transformers import PretrainedConfig

LAYERS = 2  # two of every stack: enough to trace a layer twice and alternate layer kinds
MAX_LAYERS = 4  # a stack that mixes more kinds of layers keeps one of each, up to this
VOCAB = 256
MAX_POSITIONS = 512
EXPERTS = 4
EXPERTS_PER_TOKEN = 2
MAX_WIDTH_DIVISOR = 16  # widths are divided by at most this (see Plan)
MIN_HEAD_DIM = 8  # rotary embeddings need even, not tiny, head dims

# Field-name rules, matched against every key of the config and of its nested sub-configs.
_LAYER_COUNT = re.compile(r"(layers|^n_layer|^depth|_depth)$")
_NOT_A_COUNT = re.compile(r"^(max|min)_")
_LAYER_INDEX = re.compile(r"(_layer|_layer_idx|_layer_id)$")
_LAYER_INDEX_LIST = re.compile(r"(layer|idxs|indices|indexes)")
_STAGE_DEPTHS = re.compile(r"(depths|blocks_per_stage|block_repeats)$")
_WIDTH = re.compile(
    r"(hidden_size|hidden_sizes|hidden_dim|hidden_channels|d_model|n_embd|n_inner|d_inner|"
    r"embed_dim|embed_dims|embedding_size|embedding_dim|intermediate_size|ffn_dim|d_ff|"
    r"dim_feedforward|feedforward_dim|projection_dim|proj_dim|head_dim|d_kv|d_head|dim_head|"
    r"lora_rank|mlp_dim|conv_dim|^dim)$"
)
_HEAD_DIM = re.compile(r"(head_dim|d_kv|d_head|dim_head)$")
_HEADS = re.compile(r"(heads|^n_head)$")
# Group counts (group norms, grouped convolutions) split widths as head counts do.
_GROUPS = re.compile(r"(heads|^n_head|groups)$")
_PRIMARY_WIDTHS = ("hidden_size", "d_model", "n_embd", "embed_dim", "dim")
_SECTION = re.compile(r"section")  # rotary sections (mrope) add up to a head dim
_EXPERTS = re.compile(r"experts$")
_SHARED = re.compile(r"shared")
_EXPERTS_PER_TOKEN = re.compile(r"(experts_per_tok|experts_per_token|moe_topk|moe_top_k|moe_k)$")
_EXPERT_GROUPS = re.compile(r"(n_group|topk_group|expert_group)$")
_POSITIONS = re.compile(r"^(max_position_embeddings|n_positions|max_target_positions|n_ctx)$")
_SPECIAL_ID = re.compile(r"(token_id|token_ids|token_index|_id|suppress_tokens)$")


@dataclass(frozen=True, slots=True)
class Plan:
    """How widths shrink: head (and group) counts are divided by `head_divisor`, head dims by
    `head_dim_divisor`, and so widths, which are heads times head dims, by their product."""

    head_divisor: int
    head_dim_divisor: int

    @property
    def width_divisor(self) -> int:
        return self.head_divisor * self.head_dim_divisor


def plans(tree: dict[str, Any]) -> list[Plan]:
    """The plans to try, in order: the one that shrinks most, then one that keeps head dims
    (some code hard-codes them, e.g. rotary sections). One plan serves the whole tree, so
    widths that must match across sub-configs (a projector's input and the vision tower's
    output) still match."""
    counts = [
        count
        for node in nodes(tree)
        for key, value in node.items()
        if _GROUPS.search(key)
        for count in (value if _int_list(value) else [value] if is_int(value) else [])
        if count > 0
    ]
    dims = [d for node in nodes(tree) for d in _head_dims(node)]
    sections = [
        item
        for node in nodes(tree)
        for key, value in node.items()
        if _SECTION.search(key) and _int_list(value)
        for item in value
    ]

    def heads_fit(divisor: int) -> bool:  # every count divides, none drops below two
        return all(c % divisor == 0 and c // divisor >= min(c, 2) for c in counts)

    def dims_fit(divisor: int) -> bool:
        fit = all(d % divisor == 0 and d // divisor >= MIN_HEAD_DIM for d in dims)
        return divisor == 1 or (fit and all(s % divisor == 0 for s in sections))

    head_divisors = [d for d in range(MAX_WIDTH_DIVISOR, 0, -1) if heads_fit(d)]
    powers = [2**p for p in range(MAX_WIDTH_DIVISOR.bit_length())][::-1]
    best = max(
        (
            Plan(h, next(p for p in powers if h * p <= MAX_WIDTH_DIVISOR and dims_fit(p)))
            for h in head_divisors
        ),
        key=lambda plan: (plan.width_divisor, plan.head_divisor),
    )
    keep_dims = Plan(head_divisors[0], 1)
    return [best] if best == keep_dims else [best, keep_dims]


def nodes(tree: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The config dict and every dict with named fields nested in it (sub-configs, rope
    parameters...), not label maps keyed by class id."""
    if not all(isinstance(key, str) for key in tree):
        return
    yield tree
    for value in tree.values():
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, dict):
                yield from nodes(item)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: Any) -> TypeGuard[list[int]]:
    return isinstance(value, list) and bool(value) and all(is_int(item) for item in value)


def _head_dims(node: dict[str, Any]) -> list[int]:
    """The per-head widths a config node implies: explicit head dims, else width / heads."""
    explicit = [v for k, v in node.items() if _HEAD_DIM.search(k) and is_int(v) and v > 0]
    if explicit:
        return explicit
    width = next((node[k] for k in _PRIMARY_WIDTHS if is_int(node.get(k))), None)
    dims = []
    for key, heads in node.items():
        if not _HEADS.search(key) or "key_value" in key or "kv" in key:
            continue  # query heads split the width; key/value heads may be fewer
        if is_int(heads) and heads > 0 and width and width % heads == 0:
            dims.append(width // heads)
        elif _int_list(heads):
            widths = next((v for k, v in node.items() if _WIDTH.search(k) and _int_list(v)), None)
            if widths and len(widths) == len(heads):
                dims += [w // h for w, h in zip(widths, heads, strict=True) if h and w % h == 0]
            elif width and heads[0] and width % heads[0] == 0:
                dims.append(width // heads[0])
    return dims


def shrink(tree: dict[str, Any], plan: Plan) -> None:
    for node in nodes(tree):
        _shrink_layers(node)
        positions = node.get("max_position_embeddings")
        for key, value in list(node.items()):
            node[key] = _shrunk_value(key, value, plan)
        if is_int(positions) and positions > node["max_position_embeddings"]:
            _keep_rope_scaling(node, positions / node["max_position_embeddings"])


def _keep_rope_scaling(node: dict[str, Any], ratio: float) -> None:
    """Rope scaling (YaRN, longrope) reads its factor as max positions over original ones:
    shrink the original ones by as much as the max, so the factor stays."""
    key = "original_max_position_embeddings"
    for holder in (node, *(v for v in node.values() if isinstance(v, dict))):
        if is_int(holder.get(key)):
            holder[key] = max(1, math.ceil(holder[key] / ratio))


def _shrink_layers(node: dict[str, Any]) -> None:
    """LAYERS layers per stack, with the per-layer lists and layer indices that go with them.

    The layers kept are the first, the first of each kind the per-layer lists name (so a
    hybrid stack keeps an attention layer and a linear one) and the first special layer an
    index list names, up to MAX_LAYERS. A backbone keeps one layer per stage it outputs.
    """
    # A count that matches the length of a per-stage depth list counts stages, not layers.
    stages = {len(v) for k, v in node.items() if _STAGE_DEPTHS.search(k) and _int_list(v)}
    outputs = node.get("out_indices")
    floor = max(LAYERS, len(outputs)) if _int_list(outputs) else LAYERS
    counts = {
        key: value
        for key, value in node.items()
        if _LAYER_COUNT.search(key)
        and not _NOT_A_COUNT.search(key)
        and is_int(value)
        and value > floor
        and value not in stages
    }
    for total in sorted(set(counts.values())):
        if _int_list(outputs):
            kept = list(range(floor))
            node["out_indices"] = list(range(floor - len(outputs) + 1, floor + 1))
            node.pop("out_features", None)  # both are derived again from out_indices
            node.pop("stage_names", None)
        else:
            kept = _layers_to_keep(node, total)
        for key, value in counts.items():
            if value == total:
                node[key] = len(kept)
        _follow_layers(node, total, kept)


def _layers_to_keep(node: dict[str, Any], total: int) -> list[int]:
    chosen = [0]
    for key, value in node.items():
        if isinstance(value, list) and len(value) == total:
            kinds: dict[str, int] = {}
            for index, item in enumerate(value):
                kinds.setdefault(repr(item), index)
            chosen += kinds.values()
        elif _int_list(value) and _LAYER_INDEX_LIST.search(key):
            chosen += [index for index in value if 0 <= index < total][:1]
        elif isinstance(value, dict) and value and all(_is_index(k) for k in value):
            chosen.append(min(int(k) for k in value))
    kept = list(dict.fromkeys(chosen))[:MAX_LAYERS]
    kept += [i for i in range(total) if i not in kept][: max(0, LAYERS - len(kept))]
    return sorted(kept)


def _follow_layers(node: dict[str, Any], total: int, kept: list[int]) -> None:
    """Per-layer lists and dicts keep the kept layers' entries; layer indices are renumbered."""
    position = {old: new for new, old in enumerate(kept)}
    last = len(kept) - 1
    for key, value in list(node.items()):
        if key == "out_indices":
            continue
        if isinstance(value, list) and len(value) == total:
            node[key] = [value[i] for i in kept]  # one entry per layer: layer_types, kernels...
        elif isinstance(value, dict) and value and all(_is_index(k) for k in value):
            node[key] = {
                type(k)(position[int(k)]): v for k, v in value.items() if int(k) in position
            }
        elif _int_list(value) and _LAYER_INDEX_LIST.search(key) and max(value) > last:
            renumbered = [position[i] if i >= 0 else i for i in value if i < 0 or i in position]
            node[key] = renumbered or [last]
        elif _LAYER_INDEX.search(key) and is_int(value) and value > last:
            node[key] = position.get(value, last)


def _is_index(key: Any) -> bool:
    return is_int(key) or (isinstance(key, str) and key.isdigit())


def _shrunk_value(key: str, value: Any, plan: Plan) -> Any:
    if _STAGE_DEPTHS.search(key) and _int_list(value):
        return [min(depth, LAYERS) for depth in value]
    if _WIDTH.search(key) or _GROUPS.search(key):
        divisor = plan.head_divisor if _GROUPS.search(key) else plan.width_divisor
        divisor = plan.head_dim_divisor if _HEAD_DIM.search(key) else divisor
        if is_int(value) and value > 0:
            return max(1, math.ceil(value / divisor))
        if _int_list(value):
            return [max(1, math.ceil(width / divisor)) for width in value]
    if _SECTION.search(key) and _int_list(value):
        return [section // plan.head_dim_divisor for section in value]
    if not is_int(value):
        return value
    if _EXPERTS.search(key):
        return min(value, 1 if _SHARED.search(key) else EXPERTS)
    if _EXPERTS_PER_TOKEN.search(key):
        return min(value, EXPERTS_PER_TOKEN)
    if _EXPERT_GROUPS.search(key):
        return min(value, 1)
    if _POSITIONS.search(key):
        return min(value, MAX_POSITIONS)
    if key == "vocab_size":
        return min(value, VOCAB)
    return value


def remap_special_ids(tree: dict[str, Any]) -> None:
    """Move special token ids that no longer fit the vocabulary to its top, one new id per old
    id across the whole tree, so ids shared between sub-configs stay equal."""
    mapping: dict[int, int] = {}

    def remapped(value: int) -> int:
        if value < VOCAB:
            return value
        if value not in mapping:
            mapping[value] = VOCAB - 1 - len(mapping)
        return mapping[value]

    for node in nodes(tree):
        for key, value in list(node.items()):
            if not _SPECIAL_ID.search(key) or "layer" in key:
                continue
            if is_int(value):
                node[key] = remapped(value)
            elif _int_list(value):
                node[key] = [remapped(item) for item in value]


def special_ids(config: PretrainedConfig) -> set[int]:
    found: set[int] = set()
    for node in nodes(config.to_dict()):
        for key, value in node.items():
            if _SPECIAL_ID.search(key) and "layer" not in key:
                if is_int(value):
                    found.add(value)
                elif _int_list(value):
                    found.update(value)
    return found
