"""Authenticated, length-prefixed pickles over pipes: the whole protocol between supervisor
and worker.

A probe runs inside the worker and can write into any descriptor it inherits, the results pipe
included. So every frame carries a magic, its length and an HMAC-SHA256 of its bytes under a
key the supervisor draws for each worker and hands it over stdin before any request: a frame
that fails a check is CorruptFrame, the probe that ran is the one that failed, and bytes a
probe wrote are never unpickled. Reads have a deadline: a half-written frame cannot hang the
supervisor.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import secrets
import select
import struct
import time

from breaklint.dynamic.model import Message

KEY_BYTES = 32
_MAGIC = b"BLFRAME1"
_HEADER = struct.Struct(">8sQ32s")  # magic, payload length, HMAC of the payload
_MAX_FRAME_BYTES = 2**30  # a result is megabytes at most: a larger length is not ours


class CorruptFrame(Exception):
    """Bytes on the channel that the other side did not send: a probe wrote into it."""


def new_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


def _tag(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


def send(descriptor: int, key: bytes, message: Message) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    write_all(descriptor, _HEADER.pack(_MAGIC, len(data), _tag(key, data)) + data)


def write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def receive(descriptor: int, key: bytes, timeout_s: float | None = None) -> Message:
    """The next message; EOFError when the other side is gone, TimeoutError past `timeout_s`,
    CorruptFrame for bytes that are no frame of the other side's."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    magic, size, tag = _HEADER.unpack(read_exactly(descriptor, _HEADER.size, deadline))
    if magic != _MAGIC:
        raise CorruptFrame(f"{magic!r:.40} where a frame starts")
    if size > _MAX_FRAME_BYTES:
        raise CorruptFrame(f"a frame of {size} bytes")
    data = read_exactly(descriptor, size, deadline)
    if not hmac.compare_digest(tag, _tag(key, data)):
        raise CorruptFrame("a frame that fails its HMAC")
    message: Message = pickle.loads(data)
    return message


_LONGEST_WAIT_S = 86400.0


def read_exactly(descriptor: int, size: int, deadline: float | None = None) -> bytes:
    """`size` bytes; EOFError at the end of the stream, TimeoutError past `deadline`
    (time.monotonic)."""
    chunks, left = [], size
    while left:
        while deadline is not None:
            # One wait is at most a day: select() rejects a longer one (`--probe-timeout inf`).
            left_s = deadline - time.monotonic()
            ready, _, _ = select.select(
                [descriptor], [], [], min(max(0.0, left_s), _LONGEST_WAIT_S)
            )
            if ready:
                break
            if left_s <= _LONGEST_WAIT_S:
                raise TimeoutError
        chunk = os.read(descriptor, min(left, 2**20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
