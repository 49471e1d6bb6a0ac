"""torchmetrics (metrics, functional and stateful), on random predictions and targets from
`torch.rand`/`torch.randint` (nothing is downloaded). The functional metrics the way a training
step calls them on a batch: classification (binary, multiclass and multilabel accuracy, F1,
AUROC, average precision, confusion matrix, calibration error), regression (R2, Pearson and
Spearman correlation, cosine similarity), image (PSNR, SSIM, total variation, spectral angle),
audio (the scale-invariant signal-to-noise ratio), and retrieval (normalized DCG); and stateful
metric modules whose `forward` updates their state and returns the batch's value (accuracy, a
metric collection, mean squared error)."""

import torch
import torchmetrics
from torchmetrics import functional as F

PACKAGES = ("torchmetrics",)
MODES = ("eval",)

_BATCH = 16
_CLASSES = 4


def _multiclass():
    return torch.randn(_BATCH, _CLASSES).softmax(-1), torch.randint(0, _CLASSES, (_BATCH,))


def build_binary_accuracy():
    return F.classification.binary_accuracy, (torch.rand(_BATCH), torch.randint(0, 2, (_BATCH,)))


def build_multiclass_f1():
    return F.classification.multiclass_f1_score, _multiclass(), {"num_classes": _CLASSES}


def build_multilabel_accuracy():
    predictions, labels = torch.rand(_BATCH, 3), torch.randint(0, 2, (_BATCH, 3))
    return F.classification.multilabel_accuracy, (predictions, labels), {"num_labels": 3}


def build_binary_auroc():
    return F.classification.binary_auroc, (torch.rand(_BATCH), torch.randint(0, 2, (_BATCH,)))


def build_multiclass_average_precision():
    return (
        F.classification.multiclass_average_precision,
        _multiclass(),
        {"num_classes": _CLASSES, "thresholds": 5},
    )


def build_multiclass_confusion_matrix():
    return F.classification.multiclass_confusion_matrix, _multiclass(), {"num_classes": _CLASSES}


def build_calibration_error():
    return F.classification.multiclass_calibration_error, _multiclass(), {"num_classes": _CLASSES}


def build_r2_score():
    return F.r2_score, (torch.randn(_BATCH), torch.randn(_BATCH))


def build_pearson_correlation():
    return F.pearson_corrcoef, (torch.randn(_BATCH), torch.randn(_BATCH))


def build_spearman_correlation():
    return F.spearman_corrcoef, (torch.randn(_BATCH), torch.randn(_BATCH))


def build_cosine_similarity():
    return F.cosine_similarity, (torch.randn(_BATCH, 8), torch.randn(_BATCH, 8))


def build_image_psnr():
    return (
        F.peak_signal_noise_ratio,
        (torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)),
        {"data_range": 1.0},
    )


def build_image_ssim():
    images = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
    return F.structural_similarity_index_measure, images, {"data_range": 1.0, "kernel_size": 5}


def build_total_variation():
    return F.image.total_variation, (torch.rand(2, 3, 16, 16),)


def build_spectral_angle():
    return F.image.spectral_angle_mapper, (torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16))


def build_audio_si_snr():
    return F.audio.scale_invariant_signal_noise_ratio, (torch.randn(2, 800), torch.randn(2, 800))


def build_retrieval_ndcg():
    return (
        F.retrieval.retrieval_normalized_dcg,
        (torch.rand(_BATCH), torch.randint(0, 2, (_BATCH,))),
        {"top_k": 5},
    )


def build_accuracy_module():
    metric = torchmetrics.classification.MulticlassAccuracy(num_classes=_CLASSES)
    return metric, _multiclass()


def build_metric_collection():
    metrics = torchmetrics.MetricCollection(
        [
            torchmetrics.classification.MulticlassPrecision(num_classes=_CLASSES),
            torchmetrics.classification.MulticlassRecall(num_classes=_CLASSES),
        ]
    )
    return metrics, _multiclass()


def build_mean_squared_error_module():
    return torchmetrics.MeanSquaredError(), (torch.randn(_BATCH), torch.randn(_BATCH))
