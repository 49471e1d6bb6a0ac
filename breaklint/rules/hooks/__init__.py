"""The BL7xx rules: see `FAMILIES` in `breaklint.codes`."""
