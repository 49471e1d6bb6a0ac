"""pytorch-tabnet (attentive tabular networks with sparse feature masks), its network modules
with tiny configurations and random weights on random tables (nothing is downloaded; the
scikit-learn-based estimator wrappers are not used: the builders call the networks the way their
fit and predict loops do). TabNet on continuous and on mixed categorical columns (embeddings per
column), with sparsemax or entmax masks, ghost batch normalisation (virtual batches smaller than
the batch), feature groups, multi-task heads; its feature-importance pass (`forward_masks`); the
self-supervised pretraining network (random obfuscation in train mode); the sparsemax and
entmax functions and modules on their own."""

import torch
from pytorch_tabnet import sparsemax
from pytorch_tabnet.tab_network import (
    EmbeddingGenerator,
    TabNet,
    TabNetNoEmbeddings,
    TabNetPretraining,
)

PACKAGES = ("pytorch_tabnet",)
MODES = ("eval", "train")

_BATCH = 16
_FEATURES = 6
_SMALL = {"n_d": 4, "n_a": 4, "n_steps": 2, "virtual_batch_size": 8}


def _groups(features: int = _FEATURES) -> torch.Tensor:
    # One group per feature, as the estimators build it when no grouping is given.
    return torch.eye(features)


def _mixed_table() -> torch.Tensor:
    # Columns 1 and 4 are categorical codes (3 and 5 modalities), the rest continuous.
    table = torch.randn(_BATCH, _FEATURES)
    table[:, 1] = torch.randint(0, 3, (_BATCH,)).float()
    table[:, 4] = torch.randint(0, 5, (_BATCH,)).float()
    return table


def _mixed(**options) -> dict:
    return {"cat_idxs": [1, 4], "cat_dims": [3, 5], "cat_emb_dim": [2, 3], **options}


def build_tabnet_sparsemax():
    model = TabNet(_FEATURES, 3, group_attention_matrix=_groups(), **_SMALL)
    return model, (torch.randn(_BATCH, _FEATURES),)


def build_tabnet_entmax():
    model = TabNet(_FEATURES, 1, mask_type="entmax", group_attention_matrix=_groups(), **_SMALL)
    return model, (torch.randn(_BATCH, _FEATURES),)


def build_tabnet_categorical():
    model = TabNet(_FEATURES, 2, group_attention_matrix=_groups(), **_mixed(**_SMALL))
    return model, (_mixed_table(),)


def build_tabnet_feature_groups():
    groups = torch.zeros(3, _FEATURES)
    groups[0, :2] = 0.5
    groups[1, 2:4] = 0.5
    groups[2, 4:] = 0.5
    model = TabNet(_FEATURES, 2, group_attention_matrix=groups, **_SMALL)
    return model, (torch.randn(_BATCH, _FEATURES),)


def build_tabnet_multi_task():
    model = TabNet(_FEATURES, [2, 3], group_attention_matrix=_groups(), **_SMALL)
    return model, (torch.randn(_BATCH, _FEATURES),)


def build_tabnet_masks():
    model = TabNet(_FEATURES, 2, group_attention_matrix=_groups(), **_SMALL)
    return model.forward_masks, (torch.randn(_BATCH, _FEATURES),)


def build_no_embeddings_shared_only():
    model = TabNetNoEmbeddings(
        _FEATURES, 2, n_independent=0, group_attention_matrix=_groups(), **_SMALL
    )
    return model, (torch.randn(_BATCH, _FEATURES),)


def build_pretraining():
    model = TabNetPretraining(
        _FEATURES, pretraining_ratio=0.5, group_attention_matrix=_groups(), **_SMALL
    )
    return model, (torch.randn(_BATCH, _FEATURES),)


def build_pretraining_categorical():
    model = TabNetPretraining(
        _FEATURES, group_attention_matrix=_groups(), **_mixed(mask_type="entmax", **_SMALL)
    )
    return model, (_mixed_table(),)


def build_embedding_generator():
    embedder = EmbeddingGenerator(_FEATURES, [3, 5], [1, 4], [2, 3], _groups())
    return embedder, (_mixed_table(),)


def build_sparsemax_function():
    return sparsemax.sparsemax, (torch.randn(_BATCH, _FEATURES, requires_grad=True),)


def build_entmax15_module():
    return sparsemax.Entmax15(dim=-1), (torch.randn(_BATCH, _FEATURES, requires_grad=True),)


def build_entmoid15():
    return sparsemax.entmoid15, (torch.randn(_BATCH, _FEATURES, requires_grad=True),)
