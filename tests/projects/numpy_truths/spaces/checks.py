import numpy as np


def is_image_space(space, check_bounds=True):
    if len(space.shape) != 3:
        return False
    incorrect_bounds = np.any(space.low != 0) or np.any(space.high != 255)
    if check_bounds and incorrect_bounds:
        return False
    return True
