def scale(x):
    print("scale")  # torch.compile(scale) in train.py
    return x * 2


def shift(x):
    print("shift")  # torch._dynamo.optimize(...)(shift) in train.py
    return x + 1


def center(x):
    print("center")  # reached from a decorated function in train.py
    return x - x.mean()
