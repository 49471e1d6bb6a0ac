def norm(x):
    print("norm")
    return x
