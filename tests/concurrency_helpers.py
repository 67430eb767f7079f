"""Presses at once: `at_once(n, press)` runs `press()` in n real threads released together by
a barrier, and returns what each returned or raised (the concurrency tests of the classroom
stores, on SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor


def at_once(n: int, press: Callable[[], object]) -> list[object]:
    """`press()` in `n` threads that start together; each result, or the exception raised."""
    start = threading.Barrier(n)

    def one(_: int) -> object:
        start.wait()
        try:
            return press()
        except Exception as error:  # noqa: BLE001  (the caller inspects what each got)
            return error

    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(one, range(n)))
