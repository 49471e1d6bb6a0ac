"""The rule catalogue: one module per rule, each holding its matcher, page and examples."""


def knowledge_version() -> str:
    """What the rules know beyond their code (what the installed torch traces and breaks on),
    for keys of cached results; asked without importing the rules themselves."""
    from breaklint.rules._knowledge import fingerprint

    return fingerprint()
