"""A check that finds its caller's file when not told it: every caller leaves `filename` to
its default, so Dynamo always takes the first branch, gives up on the frame in its `try`
block, and never reaches the `if` on the tensor below."""

import math
import sys
import warnings


def warn_if_inf(value, msg="", *, filename=None, lineno=None):
    if filename is None:
        try:
            frame = sys._getframe(1)
        except ValueError:
            filename = "sys"
            lineno = 1
        else:
            filename = frame.f_code.co_filename
            lineno = frame.f_lineno
    if (value == math.inf).any():
        warnings.warn_explicit(f"inf {msg}", UserWarning, filename, lineno)
    return value
