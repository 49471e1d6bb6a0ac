from blocks.noisy import noisy
from blocks.steppers import Settings, Shifted, Stepper


def solve(x):
    stepper = Stepper(2.0)
    print("solving")  # `stepper` is read after the break: Dynamo cannot rebuild it
    return stepper.step(x)


def through_callee(x):
    field = Shifted("linear")
    y = noisy(x)  # the break inside `noisy` is one of this frame's at the call
    return field(y)


def not_held(x):
    y = Stepper(2.0).step(x)  # nothing holds the object after the break
    print("held by nothing")
    return y


def values(x):
    settings = Settings(2.0)
    print("values")
    return x * settings.half


def two_steps(x):
    first = Stepper(1.0)
    if x.dim() > 3:
        print("batched")  # skips the frame holding `first` where it runs...
    second = Stepper(2.0)
    y = noisy(x)  # ...where it does not, Dynamo resumes after it and skips the frame here
    return first.step(second.step(y))
