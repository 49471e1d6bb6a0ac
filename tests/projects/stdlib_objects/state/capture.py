from functools import wraps

from state.holder import Switch

_collector = Switch("collector")


def captured(forward):
    @wraps(forward)
    def wrapper(self, *args):
        token = _collector.set([])  # a local of the wrapper: None while compiling
        outputs = forward(self, *args)
        _collector.reset(token)
        return outputs

    return wrapper
