"""Length-prefixed pickles over a pipe: the whole protocol between supervisor and worker."""

from __future__ import annotations

import pickle
import struct
from typing import IO

from breaklint.dynamic.model import Message

_HEADER = struct.Struct(">Q")


def send(stream: IO[bytes], message: Message) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def receive(stream: IO[bytes]) -> Message:
    """The next message, or raise EOFError when the other side is gone."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError
    size = _HEADER.unpack(header)[0]
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    message: Message = pickle.loads(data)
    return message
