import warnings
from functools import partial

future_warning = partial(warnings.warn, category=FutureWarning)


def deprecated(name: str) -> None:
    future_warning(f"`{name}` is deprecated")
