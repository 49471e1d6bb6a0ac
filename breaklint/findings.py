"""Findings: plain, picklable data that crosses process boundaries and serializes to JSON."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Origin(StrEnum):
    STATIC = "static"
    DYNAMIC = "dynamic"


class Status(StrEnum):
    UNVERIFIED = "unverified"
    CONFIRMED = "confirmed"
    NOT_REPRODUCED = "not-reproduced"
    NOT_REACHED = "not-reached"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text between two 1-based (line, column) positions with `content`."""

    line: int
    column: int
    end_line: int
    end_column: int
    content: str


@dataclass(frozen=True, slots=True)
class Fix:
    message: str
    applicability: str  # "safe" or "unsafe", as in ruff
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem at one place. Lines and columns are 1-based; end_column is exclusive."""

    code: str
    name: str
    severity: Severity
    message: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    url: str
    hint: str | None = None
    scope: str | None = None  # the compile root that makes this code relevant
    origin: Origin = Origin.STATIC
    status: Status = Status.UNVERIFIED
    fix: Fix | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.code)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data.update(data.pop("extra"))
        return data
