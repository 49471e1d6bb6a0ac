import os
import sys
import types

import numpy as np
import torch

# dlrm_s_pytorch.py imports scikit-learn (its metrics) and TensorBoard's writer at import time for
# its training loop only; the model below uses neither.
for _name in ("sklearn", "sklearn.metrics", "torch.utils.tensorboard"):
    sys.modules.setdefault(_name, types.ModuleType(_name))
sys.modules["torch.utils.tensorboard"].SummaryWriter = None
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from dlrm_s_pytorch import DLRM_Net  # noqa: E402
from tricks.md_embedding_bag import PrEmbeddingBag  # noqa: E402
from tricks.qr_embedding_bag import QREmbeddingBag  # noqa: E402

TABLES = np.array([40, 30, 20])  # rows of each embedding table
BATCH, DENSE, DIM = 4, 5, 8


def _model(interaction="dot", **options):
    np.random.seed(0)
    return DLRM_Net(
        m_spa=options.pop("m_spa", DIM),
        ln_emb=TABLES,
        ln_bot=np.array([DENSE, 16, DIM]),
        ln_top=np.array([options.pop("top_in", 14), 16, 1]),
        arch_interaction_op=interaction,
        sigmoid_top=1,
        ndevices=-1,
        **options,
    )


def _batch():
    """Dense features, then per table the offsets and indices of each sample's lookups."""
    lookups = 2
    offsets = [torch.arange(0, BATCH * lookups, lookups) for _ in TABLES]
    indices = [torch.randint(0, int(n), (BATCH * lookups,)) for n in TABLES]
    return torch.randn(BATCH, DENSE), offsets, indices


def probe_dlrm_dot_interaction():
    return _model("dot"), _batch()


def probe_dlrm_dot_interaction_with_itself():
    return _model("dot", arch_interaction_itself=True, top_in=18), _batch()


def probe_dlrm_cat_interaction():
    return _model("cat", top_in=DIM * 4), _batch()


def probe_dlrm_loss_threshold():
    return _model("dot", loss_threshold=0.01), _batch()


def probe_dlrm_quotient_remainder_embeddings():
    return _model("dot", qr_flag=True, qr_collisions=4, qr_threshold=25), _batch()


def probe_dlrm_weighted_pooling():
    return _model("dot", weighted_pooling="learned"), _batch()


def probe_qr_embedding_bag():
    bag = QREmbeddingBag(40, DIM, 4, operation="mult", mode="sum")
    return bag, (torch.randint(0, 40, (8,)), torch.tensor([0, 2, 4, 6]))


def probe_pr_embedding_bag():
    return PrEmbeddingBag(40, 4, DIM), (torch.randint(0, 40, (8,)), torch.tensor([0, 2, 4, 6]))
