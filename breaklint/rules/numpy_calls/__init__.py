"""The BL6xx rules: see `FAMILIES` in `breaklint.codes`."""
