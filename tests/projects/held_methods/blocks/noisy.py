def noisy(x):
    print("noisy")
    return x + 1
