"""What passes between a submission's process and the grader: JSON messages, each prefixed by
its length, over two pipes. Values are data only (None, bools, numbers, strings, lists,
tuples, dicts with string keys, NumPy arrays of numbers or bools, NumPy random generators by
their state), so decoding one can never run code; anything else is refused with a TypeError
that names its type."""

from __future__ import annotations

import json
import math
import os
import select
import struct
import time
from typing import Any

import numpy as np

# One message at most. The course's homework sends at most 2.5 KB (every lesson's solutions
# graded); reading a message costs the grader ~14 times its size in memory (a 60 MB answer
# took its peak from 136 MB to 979 MB, past a small autograder container's memory, and 12 s
# of CPU), so a larger one is refused unread: 8 MB is ~400,000 numbers.
MAX_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 20
_HEADER = struct.Struct(">I")
_ARRAY_KINDS = "biuf"


def encode(value: Any, depth: int = 0, callbacks: list | None = None) -> Any:
    """`value` as JSON-able data (see the module's docstring). With `callbacks` (the grader
    encoding arguments), a function is appended to it and sent as its index: the other side
    calls it back through the channel (an oracle a grade hands to the student's code)."""
    if depth > MAX_DEPTH:
        raise TypeError("a value nested more than 20 deep")
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        return number if math.isfinite(number) else {"t": "float", "v": repr(number)}
    if isinstance(value, np.bool_):
        return bool(value)
    if value is Ellipsis:
        return {"t": "ellipsis"}
    if callbacks is not None and callable(value) and not isinstance(value, type):
        callbacks.append(value)
        return {"t": "callback", "id": len(callbacks) - 1}
    if isinstance(value, list | tuple):
        items = [encode(item, depth + 1, callbacks) for item in value]
        return items if isinstance(value, list) else {"t": "tuple", "v": items}
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise TypeError("a dict whose keys are not all strings")
        return {"t": "dict", "v": {key: encode(item, depth + 1) for key, item in value.items()}}
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in _ARRAY_KINDS:
            raise TypeError(f"a NumPy array of {value.dtype}")
        flat = [encode(item) for item in value.ravel().tolist()]
        return {"t": "array", "dtype": value.dtype.str, "shape": list(value.shape), "v": flat}
    if isinstance(value, np.random.Generator):
        return {"t": "rng", "state": value.bit_generator.state}
    raise TypeError(f"a value of type {type(value).__name__}")


def decode(data: Any, depth: int = 0, callback: Any = None) -> Any:
    """The value `encode` made `data` from; `callback(index)` makes the stand-in of a
    function sent as a callback (None: refused). Anything else raises ValueError, whatever is
    wrong with it (a "dict" whose "v" is a list, an int8 array holding 1000, a float of 400
    digits): the grader reads the other side's data with one except clause."""
    try:
        return _decode(data, depth, callback)
    except (AttributeError, TypeError, KeyError, IndexError, OverflowError) as error:
        raise ValueError(f"not wire data: {type(error).__name__}: {error}"[:300]) from None


def _decode(data: Any, depth: int, callback: Any) -> Any:
    if depth > MAX_DEPTH:
        raise ValueError("data nested too deep")
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if isinstance(data, list):
        return [_decode(item, depth + 1, callback) for item in data]
    if not isinstance(data, dict):
        raise ValueError(f"not wire data: {type(data).__name__}")
    kind = data.get("t")
    if kind == "float":
        return float(data["v"])
    if kind == "ellipsis":
        return Ellipsis
    if kind == "tuple":
        return tuple(_decode(item, depth + 1, callback) for item in data["v"])
    if kind == "callback" and callback is not None:
        return callback(int(data["id"]))
    if kind == "dict":
        return {str(key): _decode(item, depth + 1, None) for key, item in data["v"].items()}
    if kind == "array":
        dtype = np.dtype(data["dtype"])
        if dtype.kind not in _ARRAY_KINDS:
            raise ValueError(f"an array of {dtype}")
        values = [_decode(item, depth + 1, None) for item in data["v"]]
        return np.array(values, dtype=dtype).reshape([int(n) for n in data["shape"]])
    if kind == "rng":
        state = data["state"]
        if state.get("bit_generator") != "PCG64":
            raise ValueError("only NumPy's default generator (PCG64) is passed")
        generator = np.random.Generator(np.random.PCG64())
        generator.bit_generator.state = state
        return generator
    raise ValueError(f"not wire data: {kind!r}")


def generator_states(args: list[Any]) -> list[Any]:
    """The state of each argument that is a random generator (None for the others): after a
    call, the grader's generators continue where the student's left off."""
    return [
        arg.bit_generator.state if isinstance(arg, np.random.Generator) else None for arg in args
    ]


class ChannelClosed(Exception):
    """The other side is gone, or sent something that is not a message."""


class Unreadable(ChannelClosed):
    """The other side sent bytes that are not a message: too large, not JSON, or JSON nested
    deeper than Python's reader goes (a body of 100,000 "[" raises RecursionError, which is
    no ValueError)."""


class Channel:
    """Length-prefixed JSON messages over a pair of file descriptors."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd, self.write_fd = read_fd, write_fd
        self.deadline: float | None = None  # time.monotonic() by which a read must finish

    def send(self, message: dict) -> None:
        body = json.dumps(message, allow_nan=True, separators=(",", ":")).encode()
        if len(body) > MAX_BYTES:
            raise ValueError(f"a message larger than {MAX_BYTES // 2**20} MB")
        data = _HEADER.pack(len(body)) + body
        while data:
            written = os.write(self.write_fd, data)
            data = data[written:]

    def _read(self, size: int) -> bytes:
        parts, left = [], size
        while left:
            if self.deadline is not None:
                wait = self.deadline - time.monotonic()
                if wait <= 0 or not select.select([self.read_fd], [], [], wait)[0]:
                    raise TimeoutError("no answer in time")
            chunk = os.read(self.read_fd, min(left, 1 << 20))
            if not chunk:
                raise ChannelClosed("the other side closed the channel")
            parts.append(chunk)
            left -= len(chunk)
        return b"".join(parts)

    def receive(self) -> dict | None:
        """The next message; None when the other side closed before one began."""
        try:
            header = self._read(_HEADER.size)
        except ChannelClosed:
            return None
        (size,) = _HEADER.unpack(header)
        if size > MAX_BYTES:
            raise Unreadable(f"a message larger than {MAX_BYTES // 2**20} MB")
        body = self._read(size)
        try:
            message = json.loads(body)
        except (ValueError, RecursionError) as error:
            raise Unreadable(f"not a message: {type(error).__name__}") from None
        if not isinstance(message, dict):
            raise Unreadable("not a message")
        return message
