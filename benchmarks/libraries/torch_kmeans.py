"""torch-kmeans (batched k-means, soft k-means and constrained k-means as modules), on random
point batches from `torch.randn` (nothing is downloaded). Each module's forward on a batch of
instances with a few iterations: k-means with random and k-means++ initialisation, several
initialisations, Euclidean and cosine distances, a number of clusters per instance, given
centers; soft k-means (a differentiable assignment); constrained k-means
with per-point weights; and the fitted model's predict."""

import torch
from torch_kmeans import ConstrainedKMeans, CosineSimilarity, KMeans, SoftKMeans

PACKAGES = ("torch_kmeans",)
MODES = ("eval",)

_BATCH = 2
_POINTS = 20
_DIM = 3


def _points() -> torch.Tensor:
    return torch.randn(_BATCH, _POINTS, _DIM)


def build_kmeans():
    return KMeans(n_clusters=3, max_iter=4, num_init=1, verbose=False), (_points(),)


def build_kmeans_plus_plus():
    model = KMeans(init_method="k-means++", n_clusters=3, max_iter=4, num_init=2, verbose=False)
    return model, (_points(),)


def build_kmeans_cosine_per_instance_k():
    model = KMeans(distance=CosineSimilarity, max_iter=4, num_init=2, verbose=False)
    return model, (_points(),), {"k": torch.tensor([2, 3])}


def build_kmeans_given_centers():
    model = KMeans(n_clusters=3, max_iter=4, num_init=1, verbose=False)
    return model, (_points(),), {"centers": torch.randn(_BATCH, 3, _DIM)}


def build_kmeans_normalized():
    model = KMeans(n_clusters=3, max_iter=4, num_init=1, normalize="unit", verbose=False)
    return model, (_points(),)


def build_soft_kmeans():
    return SoftKMeans(n_clusters=3, max_iter=4, verbose=False), (_points(),)


def build_constrained_kmeans():
    model = ConstrainedKMeans(n_clusters=4, max_iter=4, num_init=1, verbose=False)
    weights = torch.full((_BATCH, _POINTS), 0.05)
    return model, (_points(),), {"weights": weights}
