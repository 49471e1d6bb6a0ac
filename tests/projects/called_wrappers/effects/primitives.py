from effects.runtime import effectful, logged


def _scaled(x):
    return x * 2


_scale = effectful(_scaled, kind="scale")
_shown = logged(_scaled)


def scale(x):
    return _scale(x, name="w")


def show(x):
    return _shown(x)
