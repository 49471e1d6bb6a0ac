import abc


class Registered(abc.ABCMeta):
    def __call__(cls, *args, **kwargs):
        instance = super(Registered, cls).__call__(*args, **kwargs)
        return instance


class Counted(type):
    def __call__(cls, *args, **kwargs):
        return super().__call__(*args, **kwargs)


class Labelled(Counted):
    pass
