"""The BL3xx rules: see `FAMILIES` in `breaklint.codes`."""
