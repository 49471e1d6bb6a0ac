from solvers.steppers import Plain, Stepper


def is_positive(x):
    if x.sum() > 0:
        return True
    return False


def prepare(x, kind):
    if not is_positive(x.abs()):
        raise ValueError("x must not be all zeros")
    stepper = Stepper(x.mean(), kind)
    return stepper, x * 2


def prepare_plain(x):
    if not is_positive(x.abs()):
        raise ValueError("x must not be all zeros")
    stepper = Plain(x.mean())
    return stepper, x * 2


def prepare_unchecked(x, kind):
    stepper = Stepper(x.mean(), kind)
    return stepper, x * 2
