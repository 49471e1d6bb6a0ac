"""The BL4xx rules: see `FAMILIES` in `breaklint.codes`."""
