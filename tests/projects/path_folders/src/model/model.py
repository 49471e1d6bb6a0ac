from steps import scaled


def run(x):
    return scaled(x) + 1
