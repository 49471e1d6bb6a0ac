from ops.binding import bound, partial, scaled


class tagged(bound):
    tag = "layer"


def both(h):
    first = tagged(scaled, factor=3.0)
    plain = partial(scaled, factor=0.5)
    return first(h) + plain(h)
