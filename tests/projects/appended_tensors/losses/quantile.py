import torch


def pinball(pred, target, quantiles=(0.1, 0.5, 0.9)):
    losses = []
    for i, q in enumerate(quantiles):
        err = target - pred[..., i]
        losses.append(torch.max((q - 1) * err, q * err).mean())
    total = sum(losses)
    if torch.isnan(total):
        raise ValueError("nan loss")
    widths = []
    for q in quantiles:
        widths.append(q * 2)
    if sum(widths) > 1:
        total = total * 2
    spreads = []
    for i in range(len(quantiles)):
        spreads.append((pred[..., i] - target).abs().max())
    for spread in spreads:
        if spread > 100:
            total = total + spread
    return total
