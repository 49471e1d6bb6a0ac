def stepped(y, **options):
    return scaled(y, **options)


def scaled(y, scale, limit=1):
    if limit > 2:
        y = y * 2
    if scale > 0:
        return y * scale
    return y
