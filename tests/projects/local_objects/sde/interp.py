def linear_interp(t0, y0, t1, y1, t):
    assert t0 <= t <= t1, "times out of order"
    return y0 + (y1 - y0) * (t - t0) / (t1 - t0)


def checked_step(dt, y):
    assert not (dt < 0).any()
    return y
