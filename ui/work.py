"""Long work done once per server process and shared by every session, with honest progress.

A few results take seconds of CPU and are the same for everyone: DP-SGD's 19 trainings on
the census, the sparse vector's audit of six versions. Each is a `SharedWork`:

- `start()` begins it in a background thread, once per process. A page calls it when it
  opens, so the work is usually done before a student has read far enough to ask for it.
- `result(on_progress)` returns it. While it is still running (in the background, or
  started by another student), the caller waits, and `on_progress(share, message)` is
  called a few times a second with the steps done so far. A room pressing the button at
  once waits for one computation instead of starting one each.
- The work reports its steps by calling `step(message)` from inside it (a context
  variable finds the work being done, so a model function needs no extra parameter).
- An error in the work is raised to whoever waits for it, and the next call starts again.

`wait_with_bar(work, label)` is the page's side: a progress bar that shows the steps done
and disappears with the result.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import streamlit as st

from ui import datasets, text

T = TypeVar("T")
POLL_S = 0.2  # how often a waiting session redraws its progress bar

_CURRENT: contextvars.ContextVar[SharedWork[Any] | None] = contextvars.ContextVar(
    "shared_work", default=None
)


class SharedWork(Generic[T]):
    """`compute()` run at most once per process (until it fails), in `steps` reported
    steps, its result shared by every caller."""

    def __init__(self, name: str, steps: int, compute: Callable[[], T]) -> None:
        if not isinstance(name, str) or not name:
            raise TypeError("name must be a non-empty str")
        if isinstance(steps, bool) or not isinstance(steps, int):
            raise TypeError("steps must be an int")
        if steps < 1:
            raise ValueError(f"steps must be at least 1, got {steps}")
        if not callable(compute):
            raise TypeError("compute must be callable")
        self.name = name
        self.steps = steps
        self._compute = compute
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._result: tuple[T] | None = None  # a 1-tuple once done (the result may be None)
        self._error: BaseException | None = None
        self.done = 0
        self.message = "Starting…"

    def ready(self) -> bool:
        """Whether the result is there (no waiting, no progress bar)."""
        return self._result is not None

    def running(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    def start(self) -> None:
        """Begin the work in a background thread unless it is done or under way."""
        with self._lock:
            if self._result is not None or self.running():
                return
            self._error = None
            self.done = 0
            self.message = "Starting…"
            self._thread = threading.Thread(target=self._run, name=f"pp-{self.name}", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        token = _CURRENT.set(self)
        try:
            with datasets.without_turns():  # beside the room, not in its queue
                self._result = (self._compute(),)
        except BaseException as error:  # handed to whoever waits, in their own thread
            self._error = error
        finally:
            _CURRENT.reset(token)

    def result(self, on_progress: Callable[[float, str], None] | None = None) -> T:
        """The result; while it is being computed, wait, calling `on_progress(share of the
        steps done, the last step's message)` every POLL_S seconds."""
        self.start()
        while self._result is None:
            thread = self._thread
            if thread is None or not thread.is_alive():
                if self._result is not None:
                    break
                error = self._error
                if error is not None:
                    raise error
                self.start()  # pragma: no cover — a finished thread always left one of them
                continue
            if on_progress is not None:
                on_progress(min(self.done / self.steps, 1.0), self.message)
            thread.join(POLL_S)
        return self._result[0]

    def forget(self) -> None:
        """Drop the result (tests): the next call computes again."""
        with self._lock:
            if not self.running():
                self._result = None
                self._error = None
                self.done = 0


def step(message: str) -> None:
    """Inside a SharedWork's computation: one more step done, described by `message`
    (shown beside the bar, e.g. "Trained 3 of 19 models"). Elsewhere: nothing."""
    work = _CURRENT.get()
    if work is not None:
        work.done += 1
        work.message = message


def wait_with_bar(work: SharedWork[T], label: str) -> T:
    """The work's result; a progress bar while it is still running (gone with the result).
    `label` says what is being done and how long it takes."""
    if work.ready():
        return work.result()
    bar = st.progress(0.0, text=text.plain(label))

    def show(share: float, message: str) -> None:
        bar.progress(share, text=text.plain(f"{label} {message}"))

    try:
        return work.result(show)
    finally:
        bar.empty()
