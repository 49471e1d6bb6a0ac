"""Which variants of a probe's call run: its own module, so that the command line can name
the choices without importing the dynamic phase's model."""

from __future__ import annotations

from enum import StrEnum


class VariantMode(StrEnum):
    """Which variants of a probe's call run to count recompilations."""

    NONE = "none"  # --no-variants: the probe's own calls only
    # The call again, and other values only for what a guard of the first compile reads.
    GUIDED = "guided"
    ALL = "all"  # --all-variants: every dimension size, int, float and bool argument
