def gated(x, **options):
    gate = options["gate"]
    if gate.mean() > 0.5:
        return x * gate
    return x


def scaled(*terms):
    first = terms[0]
    return first * float(first.max())


def labelled(x, **options):
    name = options.get("name", "")
    if name:
        return x + 1
    return x


def clipped(x, **options):
    bound = options["bound"]
    return x.clamp(max=int(bound))


def passed_on(x, **options):
    return clipped(x, **options)
