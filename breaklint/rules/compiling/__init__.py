"""The BL8xx rules: see `FAMILIES` in `breaklint.codes`."""
