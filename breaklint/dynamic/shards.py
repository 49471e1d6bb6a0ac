"""`--shard I/N`: which probes one of N machines runs. A probe's shard comes from a hash of a
key that is the same on every machine and in every checkout (its file's name and its own
name), never from the order probes are found in, so the N shards of a sweep run every probe
exactly once whatever each machine finds first."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from breaklint.dynamic.model import Probe


@dataclass(frozen=True, slots=True)
class Shard:
    index: int  # 1-based
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """`I/N` with 1 <= I <= N; ValueError with the reason otherwise."""
        index, slash, count = text.partition("/")
        if not (slash and index.isdigit() and count.isdigit()):
            raise ValueError(f"'{text}' is not I/N (e.g. 1/4)")
        shard = cls(int(index), int(count))
        if not 1 <= shard.index <= shard.count:
            raise ValueError(f"'{text}': I must be between 1 and N")
        return shard

    def holds(self, probe: Probe) -> bool:
        key = f"{os.path.basename(probe.path)}::{probe.name}".encode()
        return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") % self.count == (
            self.index - 1
        )

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"
