"""The BL5xx rules: see `FAMILIES` in `breaklint.codes`."""
