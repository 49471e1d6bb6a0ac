def peak_scaled(x):
    peak = float(x.abs().max())
    return x / peak


def centred(x):
    return x - x.mean()
