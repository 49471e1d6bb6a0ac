"""The BL1xx rules: see `FAMILIES` in `breaklint.codes`."""
