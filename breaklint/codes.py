"""The rule codes, read from the catalogue's sources without importing it.

Validating a selector or answering an unchanged run from the cache needs only the codes, which
each rule module declares on one line: reading them costs less than importing the catalogue.
"""

from __future__ import annotations

import os
import re
from functools import cache

_DECLARATION = re.compile(r'^    code = "(BL\d{3})"$', re.MULTILINE)


@cache
def known_codes() -> list[str]:
    """Every declared rule code, sorted (tests check this equals the imported registry)."""
    import breaklint.rules as package  # its __init__ imports nothing

    codes: list[str] = []
    for folder in package.__path__:
        for entry in os.scandir(folder):
            if entry.name.endswith(".py"):
                with open(entry.path, encoding="utf-8") as source:
                    codes.extend(_DECLARATION.findall(source.read()))
    return sorted(codes)
