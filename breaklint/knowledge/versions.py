"""The torch versions breaklint knows.

A new torch version is one command and one constant: `python -m breaklint.knowledge.generate
--write` with that torch installed writes its answers (`data/torch-<major>.<minor>.json`), and
`SHIPPED` names it: it is then the newest supported version and the answers used where the
installed torch cannot be asked.
"""

from __future__ import annotations

# The torch whose answers ship, the newest that breaklint is written and tested against.
SHIPPED = (2, 13)
# The oldest torch whose Dynamo logs and registries the dynamic phase reads.
OLDEST = (2, 6)


def label(version: tuple[int, int]) -> str:
    return ".".join(map(str, version))


def data_file(version: tuple[int, int]) -> str:
    """The name of a version's answers, in `breaklint/knowledge/data/`."""
    return f"torch-{label(version)}.json"


def version_problem(torch_version: str) -> str | None:
    """A warning when a torch (`torch.__version__`) is outside the supported versions."""
    major, minor = (int(part) for part in torch_version.split(".")[:2])
    if not OLDEST <= (major, minor) <= SHIPPED:
        supported = f"{label(OLDEST)} to {label(SHIPPED)}"
        return f"torch {torch_version} is untested (breaklint supports {supported})"
    return None
