from parts.strategies import Clipping
from run import Pipeline


def build_pipeline():
    return Pipeline(Clipping())
