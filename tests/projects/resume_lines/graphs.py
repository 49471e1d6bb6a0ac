def neighbours(x):
    return (x > 0).nonzero()
