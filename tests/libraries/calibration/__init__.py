"""An installed library for the corpora (tests/corpus, tests/accuracy): the tests put this folder
on the run's PYTHONPATH, as site-packages is on a user's `sys.path`."""

from .scales import centred, peak_scaled

__all__ = ["centred", "peak_scaled"]
