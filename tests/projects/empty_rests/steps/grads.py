from steps.fill import relay, relay_op


def gradients(y, x):
    z = y + 1
    print("gradients")
    return relay([z], [x])


def gradients_op(y, x):
    z = y + 1
    print("gradients_op")
    return relay_op([z], [x])
