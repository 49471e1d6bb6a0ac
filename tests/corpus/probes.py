"""Probes for the corpus: each returns (callable, args) or (callable, args, kwargs)."""

import torch
from layers import (
    MLP,
    AllPositive,
    Attention,
    BoundScale,
    BucketedCache,
    CachedDistance,
    Calibrated,
    CheckpointedBlock,
    Chunker,
    DeterministicPool,
    EnergyForces,
    FreshNormaliser,
    FreshShift,
    GatheredRows,
    GaussianHead,
    GuardedScale,
    HeldStep,
    HookedStack,
    KeywordTerms,
    LabelSmoothingLoss,
    LengthPadder,
    LocalOffset,
    MoERouter,
    NoisyProjection,
    NoisyScaled,
    NoisyTraining,
    OrderedParts,
    PerHead,
    QuasiNoise,
    QuietScale,
    Recentred,
    RecurrentEncoder,
    RecurrentTagger,
    Reordered,
    Resampler,
    RescaledSteps,
    RMSNorm,
    Routed,
    SelfTuning,
    SparseSpread,
    TaggedTotal,
    TrainableSum,
)
from models import Block, Clean, Hooked, Looped, Repeated


def probe_block():
    return Block().eval(), (torch.randn(2, 8).abs(),)


def probe_clean():
    return Clean(), (torch.randn(4, 8),), {"mask": torch.rand(4, 8) > 0.5}


def probe_hooked():
    return Hooked(), (torch.randn(2, 8),)


def probe_looped():
    return Looped(), [torch.randn(2, 8)]


def probe_attention():
    return Attention(), (torch.randn(2, 5, 8),), {"lengths": torch.tensor([5, 3])}


def probe_mlp():
    return MLP(), (torch.randn(2, 6, 8),)


def probe_router():
    return MoERouter(), (torch.randn(16, 8),)


def probe_loss():
    return LabelSmoothingLoss(), (torch.randn(4, 5), torch.tensor([0, 1, 2, 3]))


def probe_norm():
    return RMSNorm(), (torch.randn(2, 8) * 300,)


def probe_noisy():
    return NoisyTraining(), (torch.randn(2, 8),)


def probe_resampler():
    return Resampler(), (torch.randn(2, 8),)


def probe_chunker():
    return Chunker(), (torch.randn(2, 8),)


def probe_hooked_stack():
    return HookedStack(), (torch.randn(2, 8),)


def probe_length_padder():
    return LengthPadder(), (torch.randn(2, 8),)


def probe_recurrent_tagger():
    return RecurrentTagger(), (torch.randn(2, 5, 8),)


def probe_recurrent_encoder():
    return RecurrentEncoder(), (torch.randn(2, 5, 8),)


def probe_guarded_scale():
    return GuardedScale(), (torch.randn(2, 8),)


def probe_deterministic_pool():
    return DeterministicPool(), (torch.randn(2, 4, 9),)


def probe_repeated():
    return Repeated(), (torch.randn(2, 8), 2)


def probe_noisy_projection():
    return NoisyProjection(), (torch.randn(2, 8),)


def probe_bucketed_cache():
    return BucketedCache(), (torch.randn(2, 8),)


def probe_per_head():
    return PerHead(), (torch.randn(2, 8), ["q", "k"])


def probe_ordered_parts():
    return OrderedParts(), (torch.randn(2, 8), [1, 0])


def probe_cached_distance():
    return CachedDistance(), (torch.randn(4, 3), torch.randn(4, 3))


def probe_energy_forces():
    return EnergyForces(), (torch.randn(2, 8, requires_grad=True),)


def probe_all_positive():
    return AllPositive(), (torch.randn(2, 8), (torch.randn(8), torch.randn(8)))


def probe_quiet_scale():
    return QuietScale(), (torch.randn(2, 8),)


def probe_fresh_shift():
    return FreshShift(), (torch.randn(2, 8),)


def probe_held_step():
    return HeldStep(), (torch.randn(2, 8),)


def probe_tagged_total():
    return TaggedTotal(), (torch.randn(2, 8),)


def probe_keyword_terms():
    return KeywordTerms(), (torch.randn(2, 8),)


def probe_self_tuning():
    return SelfTuning(), (torch.randn(2, 8),)


def probe_checkpointed_block():
    return CheckpointedBlock(), (torch.randn(2, 8),)


def probe_fresh_normaliser():
    return FreshNormaliser(), (torch.randn(2, 8),)


def probe_local_offset():
    return LocalOffset(), (torch.randn(2, 8),)


def probe_rescaled_steps():
    return RescaledSteps(), (torch.randn(2, 8),)


def probe_sparse_spread():
    return SparseSpread(), (torch.randn(2, 8),)


def probe_recentred():
    return Recentred(), (torch.randn(2, 8),)


def probe_routed():
    return Routed(), (torch.randn(2, 8),)


def probe_gathered_rows():
    return GatheredRows(), (torch.randn(5, 3), torch.tensor([0, 2, 4]))


def probe_trainable_sum():
    return TrainableSum(), (torch.randn(2, 8),)


def probe_calibrated():
    return Calibrated(), (torch.randn(2, 8),)


def probe_gaussian_head():
    return GaussianHead(), (torch.randn(2, 8),)


def probe_noisy_scaled():
    return NoisyScaled(), (torch.randn(2, 8),)


def probe_bound_scale():
    return BoundScale(), (torch.randn(2, 8),)


def probe_quasi_noise():
    return QuasiNoise(), (torch.randn(2, 8),)


def probe_reordered():
    return Reordered(), ([torch.randn(2, 8), torch.randn(2, 8)], [1, 0])
