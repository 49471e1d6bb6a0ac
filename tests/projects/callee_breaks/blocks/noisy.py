def noisy(x):
    print("step")
    return x + 1


def via(x):
    return noisy(x) * 2
