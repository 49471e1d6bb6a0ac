"""The BL9xx rules: see `FAMILIES` in `breaklint.codes`."""
