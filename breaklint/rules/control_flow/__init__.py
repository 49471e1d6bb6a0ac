"""The BL2xx rules: see `FAMILIES` in `breaklint.codes`."""
