"""pytorch-metric-learning (deep metric learning: losses, miners, distances, reducers), on a
batch of random embeddings from `torch.randn` with shuffled class labels (every class in every
batch; nothing is downloaded). Losses as a training step calls them, `loss(embeddings,
labels)`, some with the tuples a miner mined from the same batch: pair and triplet losses
(contrastive, triplet margin with a cosine distance, multi-similarity), softmax losses with
learned class weights (ArcFace, SoftTriple), a proxy loss (ProxyAnchor), NT-Xent and SupCon
(self-supervised and supervised contrastive), FastAP (histogram binning), a cross-batch memory
queue, the self-supervised wrapper; and miners on their own (batch hard, multi-similarity,
distance weighted).
"""

import torch
from pytorch_metric_learning import distances, losses, miners, reducers

PACKAGES = ("pytorch_metric_learning",)
MODES = ("eval",)

_BATCH = 16
_DIM = 8
_CLASSES = 4


def _batch():
    # Every class appears: labels 0..3 four times each, shuffled.
    labels = torch.arange(_CLASSES).repeat(_BATCH // _CLASSES)[torch.randperm(_BATCH)]
    return torch.randn(_BATCH, _DIM), labels


def build_contrastive():
    return losses.ContrastiveLoss(pos_margin=0.0, neg_margin=1.0), _batch()


def build_triplet_margin_cosine():
    loss = losses.TripletMarginLoss(
        margin=0.1,
        distance=distances.CosineSimilarity(),
        reducer=reducers.ThresholdReducer(low=0.0),
    )
    return loss, _batch()


def build_triplet_with_miner():
    # The mined triplets are what `miner(embeddings, labels)` returns just before the loss.
    embeddings, labels = _batch()
    mined = miners.TripletMarginMiner(margin=0.2, type_of_triplets="semihard")(embeddings, labels)
    return losses.TripletMarginLoss(margin=0.2), (embeddings, labels, mined)


def build_multi_similarity():
    return losses.MultiSimilarityLoss(alpha=2, beta=50, base=0.5), _batch()


def build_arcface():
    return losses.ArcFaceLoss(_CLASSES, _DIM, margin=28.6, scale=64), _batch()


def build_soft_triple():
    return losses.SoftTripleLoss(_CLASSES, _DIM, centers_per_class=3), _batch()


def build_proxy_anchor():
    return losses.ProxyAnchorLoss(_CLASSES, _DIM, margin=0.1, alpha=32), _batch()


def build_ntxent():
    return losses.NTXentLoss(temperature=0.07), _batch()


def build_supcon():
    return losses.SupConLoss(temperature=0.1), _batch()


def build_fast_ap():
    return losses.FastAPLoss(num_bins=10), _batch()


def build_cross_batch_memory():
    loss = losses.CrossBatchMemory(losses.ContrastiveLoss(), _DIM, memory_size=32)
    return loss, _batch()


def build_self_supervised_wrapper():
    embeddings = torch.randn(_BATCH, _DIM)
    augmented = embeddings + 0.1 * torch.randn(_BATCH, _DIM)
    return losses.SelfSupervisedLoss(losses.TripletMarginLoss()), (embeddings, augmented)


def build_batch_hard_miner():
    return miners.BatchHardMiner(), _batch()


def build_multi_similarity_miner():
    return miners.MultiSimilarityMiner(epsilon=0.1), _batch()


def build_distance_weighted_miner():
    embeddings, labels = _batch()
    normalized = torch.nn.functional.normalize(embeddings)
    return miners.DistanceWeightedMiner(cutoff=0.5, nonzero_loss_cutoff=1.4), (normalized, labels)
