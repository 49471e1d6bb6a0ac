"""The BL0xx rules: see `FAMILIES` in `breaklint.codes`."""
