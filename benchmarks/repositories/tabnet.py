import os
import sys
import types

import torch

# pytorch_tabnet.utils and .metrics import scikit-learn and pandas at import time (input checks,
# the numpy metrics); the torch code probed below uses neither.
for _name in ("sklearn", "sklearn.utils", "sklearn.metrics", "pandas"):
    sys.modules.setdefault(_name, types.ModuleType(_name))
sys.modules["sklearn.utils"].check_array = None
for _metric in ("roc_auc_score", "mean_squared_error", "mean_absolute_error", "accuracy_score",
                "log_loss", "balanced_accuracy_score", "mean_squared_log_error"):  # fmt: skip
    setattr(sys.modules["sklearn.metrics"], _metric, None)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pytorch_tabnet.augmentations import ClassificationSMOTE, RegressionSMOTE  # noqa: E402
from pytorch_tabnet.metrics import UnsupervisedLoss  # noqa: E402
from pytorch_tabnet.sparsemax import Entmax15, Sparsemax  # noqa: E402
from pytorch_tabnet.tab_network import TabNet, TabNetNoEmbeddings, TabNetPretraining  # noqa: E402

FEATURES, ROWS = 6, 16


def _rows():
    x = torch.rand(ROWS, FEATURES)
    x[:, 0] = torch.randint(0, 3, (ROWS,)).float()  # a categorical column
    return x


def _tabnet(output_dim=2, **options):
    # TabModel passes a group matrix and an embedding size per categorical column; so do these.
    options = {"n_d": 4, "n_a": 4, "n_steps": 2, "cat_emb_dim": [], **options}
    return TabNet(FEATURES, output_dim, group_attention_matrix=torch.eye(FEATURES), **options)


def probe_tabnet_sparsemax():
    return _tabnet(virtual_batch_size=8).eval(), (_rows(),)


def probe_tabnet_train_ghost_batches():
    return _tabnet(virtual_batch_size=8).train(), (_rows(),)


def probe_tabnet_entmax():
    model = _tabnet(mask_type="entmax").eval()
    return model, (_rows(),)


def probe_tabnet_categorical():
    model = _tabnet(cat_idxs=[0], cat_dims=[3], cat_emb_dim=[2])
    return model.eval(), (_rows(),)


def probe_tabnet_multitask():
    return _tabnet([2, 3]).eval(), (_rows(),)


def probe_tabnet_masks():
    model = _tabnet().eval()
    return model.forward_masks, (_rows(),)


def probe_tabnet_no_embeddings():
    return TabNetNoEmbeddings(FEATURES, 2, n_d=4, n_a=4, n_steps=2).eval(), (_rows(),)


def probe_pretraining():
    model = TabNetPretraining(
        FEATURES, n_d=4, n_a=4, n_steps=2, cat_idxs=[0], cat_dims=[3], cat_emb_dim=[2],
        group_attention_matrix=torch.eye(FEATURES),
    )  # fmt: skip
    return model.train(), (_rows(),)


def probe_sparsemax():
    return Sparsemax(dim=-1), (torch.randn(4, 5),)


def probe_entmax():
    return Entmax15(dim=-1), (torch.randn(4, 5),)


def probe_pretraining_eval():
    model = TabNetPretraining(
        FEATURES, n_d=4, n_a=4, n_steps=2, group_attention_matrix=torch.eye(FEATURES)
    )
    return model.eval(), (_rows(),)


def probe_regression_smote():
    return RegressionSMOTE(device_name="cpu"), (_rows(), torch.rand(ROWS, 1))


def probe_classification_smote():
    return ClassificationSMOTE(device_name="cpu"), (_rows(), torch.randint(0, 2, (ROWS,)))


def probe_unsupervised_loss():
    obfuscated = (torch.rand(ROWS, FEATURES) > 0.5).float()
    return UnsupervisedLoss, (torch.rand(ROWS, FEATURES), torch.rand(ROWS, FEATURES), obfuscated)
