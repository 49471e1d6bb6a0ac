import warnings
from dataclasses import dataclass


@dataclass
class Settings:
    scale: float

    def __post_init__(self):
        if self.scale > 1.0:
            warnings.warn("a scale above 1 amplifies the noise")
