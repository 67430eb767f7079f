"""The active dataset, and the one dataset-aware cache.

Every lesson computes on the *active* dataset: the bundled census, or the CSV file this
browser session uploaded (ui/userdata.py keeps it in `st.session_state[UPLOAD_KEY]`).

    @datasets.cached()
    def histogram(column: str, epsilon: float, seed: int) -> pd.DataFrame: ...

The rule (docs/ARCHITECTURE.md §1, rule 3): a result computed while the census is active may be
shared by every session (a bounded, process-wide map here: the census is public). A result
computed while a file is active — whatever its arguments, since they may be counts or labels
derived from the file — is kept in this session's state only, in a small bounded memo, and
never enters a cache shared between sessions (neither this one nor st.cache_data /
st.cache_resource). The memo goes with the session.

A census-only function (`@datasets.cached(census_only=True)`: a lesson section that always
teaches on the census, whatever is uploaded) is computed with the census as the active
dataset even while a file is active — inside it `on_census()` is true and `active()` is the
census, for every function it calls — so its result is the census's and is shared. Without
the flag each session with a file computed its own copy (DP-SGD's 16 MB of features, the
reconstruction attack's second of CPU) into its memo.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import itertools
import sys
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, TypeVar

import pandas as pd
import streamlit as st

from data.census import load_census

UPLOAD_KEY = "userdata_dataset"  # this session's parsed upload (ui/userdata.py writes it)
MEMO_KEY = "datasets_memo"  # this session's results computed on its upload
MEMO_ENTRIES = 64  # per session; the oldest result is dropped first
CENSUS_LABEL = "Bundled census"

F = TypeVar("F", bound=Callable[..., Any])


@st.cache_resource(show_spinner=False)
def census() -> pd.DataFrame:
    """The census DataFrame, loaded once per process and shared by all sessions.

    Never mutate it: it is the same object for every caller (derive new frames instead)."""
    return load_census()


class ActiveDataset(NamedTuple):
    """The dataset the lessons run on: a display name (plain text: escape it before any
    markdown) and the frame (never mutate it)."""

    name: str
    frame: pd.DataFrame


# True while a census-only function computes: the census is the active dataset then.
_CENSUS_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("census_only", default=False)


def upload() -> Any | None:
    """This session's parsed upload (ui/userdata.py's record of it), or None; always None
    outside a running app (a notebook or script that imports a lesson's model has no
    session, and reads the census) and inside a census-only function."""
    if _CENSUS_ONLY.get() or not st.runtime.exists():
        return None
    return st.session_state.get(UPLOAD_KEY)


def on_census() -> bool:
    """Whether the lessons run on the bundled census now (the one way to ask)."""
    return upload() is None


def active() -> ActiveDataset:
    """The uploaded dataset of this session, else the bundled census."""
    uploaded = upload()
    if uploaded is None:
        people = census()
        return ActiveDataset(f"{CENSUS_LABEL} ({len(people):,} people)", people)
    rows = len(uploaded.frame)
    return ActiveDataset(
        f"Your file: {uploaded.filename} ({rows:,} row{'' if rows == 1 else 's'})", uploaded.frame
    )


def _session_memo() -> dict:
    return st.session_state.setdefault(MEMO_KEY, {})


def forget_upload_results() -> None:
    """Drop this session's results computed on an upload (a new file, or back to the census)."""
    st.session_state.pop(MEMO_KEY, None)


SHARED_BYTES = 48 * 2**20  # all census results of all functions together, in bytes
# The bound for a function whose result depends on the random seed: a class uses a handful of
# seeds, but a crawler following `?seed=` links would otherwise fill the cache with each one.
SEED_ENTRIES = 32


def result_bytes(value: Any) -> int:
    """About how many bytes a cached result holds (arrays and frames by their buffers, object
    columns deeply; containers summed). An estimate for the budget, not an exact account."""
    if isinstance(value, (pd.DataFrame, pd.Series)):
        usage = value.memory_usage(deep=True, index=True)
        return int(usage.sum()) if isinstance(usage, pd.Series) else int(usage)
    if hasattr(value, "nbytes") and hasattr(value, "dtype"):
        return int(value.nbytes) + 128  # the buffer and the array object
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(
            result_bytes(k) + result_bytes(v) for k, v in value.items()
        )
    if isinstance(value, (tuple, list, set, frozenset)):
        return sys.getsizeof(value) + sum(result_bytes(item) for item in value)
    if hasattr(value, "__dataclass_fields__"):
        return sys.getsizeof(value) + sum(
            result_bytes(getattr(value, f)) for f in value.__dataclass_fields__
        )
    return sys.getsizeof(value)


class _SharedResults:
    """Results computed on the census for one function, shared by every session: at most
    `max_entries`, least recently used dropped first. All functions' results together stay
    within SHARED_BYTES: past it, the least recently used result of any function goes."""

    def __init__(self, name: str, max_entries: int) -> None:
        self.name = name
        self.max_entries = max_entries
        self._results: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._flights: dict[Any, threading.Event] = {}  # results being computed, set when done

    def _hit(self, token: Any) -> tuple[Any] | None:
        """The result for `token` as a 1-tuple (marked most recently used), or None."""
        with _LOCK:
            if token in self._results:
                self._results.move_to_end(token)
                _RECENT.move_to_end((self.name, token))
                return (self._results[token][0],)
        return None

    def get(self, token: Any, compute: Callable[[], Any]) -> Any:
        """The shared result for `token`, computed once: a session asking for a result that
        another is computing waits for it (a room opening a page at once computes its
        defaults once, not once per student), up to WAIT_S, then computes it itself (as it
        does when the other's computation failed). A session holding the heavy turn never
        waits for another's computation (that one may be waiting for the turn)."""
        with _LOCK:
            hit = self._hit(token)
            if hit is not None:
                return hit[0]
            flight = self._flights.get(token)
            mine = flight is None
            if mine:
                flight = self._flights[token] = threading.Event()
        if not mine:
            if not holding_heavy_turn() and _wait(flight.wait):
                hit = self._hit(token)
                if hit is not None:
                    return hit[0]
            return self._compute(token, compute)
        try:
            return self._compute(token, compute)
        finally:
            with _LOCK:
                del self._flights[token]
            flight.set()

    def _compute(self, token: Any, compute: Callable[[], Any]) -> Any:
        with heavy_turn(self.name):
            hit = self._hit(token)  # computed meanwhile by a session holding the turn
            if hit is not None:
                return hit[0]
            value = timed(self.name, compute)
        return self._store(token, value)

    def _store(self, token: Any, value: Any) -> Any:
        """Keep `value` for `token` (the one already kept, if another session's came first)
        and return what is kept."""
        size = result_bytes(value)
        with _LOCK:
            global _TOTAL_BYTES
            if token in self._results:  # another session computed it meanwhile
                return self._results[token][0]
            self._results[token] = (value, size)
            _RECENT[(self.name, token)] = None
            _TOTAL_BYTES += size
            while len(self._results) > self.max_entries:
                _forget(self.name, next(iter(self._results)))
            while _TOTAL_BYTES > SHARED_BYTES and len(_RECENT) > 1:
                _forget(*next(iter(_RECENT)))
        return value

    def __len__(self) -> int:
        return len(self._results)

    def clear(self) -> None:
        with _LOCK:
            for token in list(self._results):
                _forget(self.name, token)


_SHARED: dict[str, _SharedResults] = {}
_RECENT: OrderedDict[tuple[str, Any], None] = OrderedDict()  # every function's, oldest first
_TOTAL_BYTES = 0
_LOCK = threading.RLock()


def _forget(name: str, token: Any) -> None:
    """Drop one shared result (caller holds _LOCK)."""
    global _TOTAL_BYTES
    _value, size = _SHARED[name]._results.pop(token)
    _RECENT.pop((name, token), None)
    _TOTAL_BYTES -= size


def shared_entries() -> dict[str, int]:
    """How many census results each cached function shares now (for tests and benches)."""
    return {name: len(results) for name, results in _SHARED.items() if len(results)}


def is_cached(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    """Whether the @cached function `fn` holds a result for these arguments that this session
    would get now without computing: a shared one on the census, this session's on an upload
    (so a page can ask before a slow call, and offer a button instead of computing)."""
    name = f"{fn.__module__}.{fn.__qualname__}"
    token = (_token(args), _token(tuple(sorted(kwargs.items()))))
    if getattr(fn, "census_only", False) or on_census():
        results = _SHARED.get(name)
        with _LOCK:
            return results is not None and token in results._results
    return (name, token) in _session_memo()


def shared_bytes() -> int:
    """About how many bytes all shared census results hold now (for tests and benches)."""
    return _TOTAL_BYTES


def clear_shared() -> None:
    """Forget every shared census result (tests; a deploy never needs it)."""
    for results in _SHARED.values():
        results.clear()


# --- One heavy computation at a time ---------------------------------------------------------
# Every session's script runs under the process's one Python lock. A computation that takes a
# tenth of a second or more (the reconstruction attack on a new seed: ~0.6 s) competes for it
# with every student's rerun, and several at once (tabs sending a new seed with every run)
# multiplied the wait of every bystander: six such tabs took a Laplace slider press from 30 to
# 217 ms (bench/bench_seed_flood.py). So a function is *heavy* once one of its computations
# took HEAVY_S of its thread's CPU, and from then on its computations take turns: one at a
# time per process, in order of arrival (a page run keeps its place from one of its turns to
# the next: _Run below), the others waiting without the lock. Light work
# (every press that finds its result cached, and computations under HEAVY_S) never waits.
# However long the line (a room pressing "new seed" together: 0.6 s a student), it is never
# left all at once: before, a turn waited for longer than WAIT_S was taken anyway, so past
# 30 s of line every waiting session computed at the same time, and every press in the room
# waited behind them. Only a turn *held* longer than WAIT_S (a bug) passes to the next in line,
# so that no bug can hang the line; a result another session computes is waited for up to
# WAIT_S (_SharedResults.get), then asked for in the line.
HEAVY_S = 0.05  # thread CPU seconds: the room's budget for a lesson's whole first render
WAIT_S = 30.0  # the longest a turn is held, or another's computation waited for
_HEAVY_NAMES: set[str] = set()
_TURNS = threading.local()  # .held: whether this thread holds the turn; .run: its _Run
# True in shared background work (ui/work.py: DP-SGD's trainings, the sparse vector's audit,
# once per process each): it computes beside the room, behind its own progress bar, and
# holding the turn for its 5-20 s would stall every heavy press meanwhile.
_WITHOUT_TURNS: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "without_turns", default=False
)


# A session waiting (for the turn, or for another's computation) may have been superseded: its
# tab closed, or asked for a newer run (a student pressing a seed's "+" five times while the
# room's turns go round). Its result would be thrown away, so every POLL_S the wait is a yield
# point, as every `st.*` call is: the server's `superseded` hook (deploy/give_way.py, installed
# by deploy/asgi.py with `set_yield_point`) ends the run there when Streamlit has a newer
# request for it. Without the hook (Community Cloud runs app.py itself) it waits its turn.
POLL_S = 0.25
_YIELD_POINT: list[Callable[[], None]] = []


def set_yield_point(superseded: Callable[[], None] | None) -> None:
    """Call `superseded()` every POLL_S while a session waits: it raises to end a run that
    is no longer wanted, and returns otherwise. None removes it."""
    _YIELD_POINT[:] = [] if superseded is None else [superseded]


def _wait(ready: Callable[[float], bool]) -> bool:
    """`ready(seconds)` (an Event's wait: True once done, False after `seconds`) tried for
    up to WAIT_S, in slices of POLL_S with a yield point between."""
    deadline = time.monotonic() + WAIT_S
    while True:
        remaining = deadline - time.monotonic()
        if ready(max(0.0, min(POLL_S, remaining))):
            return True
        if remaining <= POLL_S:
            return False
        for superseded in _YIELD_POINT:
            superseded()


class _Line:
    """The heavy turn, one holder at a time, the waiter with the smallest place next. A waiter
    whose session gave way leaves the line; a turn held longer than WAIT_S passes to the next
    (its holder computes on: nothing can stop a thread, but the line no longer waits for it)."""

    def __init__(self) -> None:
        self._changed = threading.Condition(threading.Lock())
        self._holder: object | None = None
        self._since = time.monotonic()  # when the holder's turn began
        self._waiting: dict[object, tuple[float, int]] = {}  # waiter -> its place

    def wait(self, place: tuple[float, int], notice: Callable[[int], None] | None = None) -> object:
        """Wait for the turn at `place` (smaller first) and return the holder's token, with a
        yield point every POLL_S (what it raises leaves the line, and is raised on), and
        `notice(how many are ahead)` after NOTICE_S of waiting and every NOTICE_EVERY_S."""
        token = object()
        with self._changed:
            self._waiting[token] = place
        next_notice = time.monotonic() + NOTICE_S
        try:
            while True:
                ahead = None
                with self._changed:
                    if self._holder is not None and time.monotonic() - self._since > WAIT_S:
                        self._holder = None  # held too long: the line moves on without it
                    if self._holder is None and token is min(
                        self._waiting, key=self._waiting.__getitem__
                    ):
                        del self._waiting[token]
                        self._holder, self._since = token, time.monotonic()
                        return token
                    self._changed.wait(POLL_S)
                    if notice is not None and time.monotonic() >= next_notice:
                        ahead = (self._holder is not None) + sum(
                            other < place for other in self._waiting.values()
                        )
                        next_notice = time.monotonic() + NOTICE_EVERY_S
                for superseded in _YIELD_POINT:
                    superseded()
                if ahead is not None:
                    notice(ahead)
        except BaseException:
            with self._changed:
                self._waiting.pop(token, None)
                self._changed.notify_all()  # it may have been the next
            raise

    def done(self, token: object) -> None:
        """The turn `token` holds is over (nothing if it passed on after WAIT_S)."""
        with self._changed:
            if self._holder is token:
                self._holder = None
                self._changed.notify_all()

    def waiting(self) -> int:
        """How many wait for the turn now (for tests and benches)."""
        with self._changed:
            return len(self._waiting)


_LINE = _Line()


# A page's run may need several turns (the reconstruction lesson's attack, its defence and its
# accuracy curve for a new seed). Served per call, a room pressing "new seed" together had each
# student's first turn, then each one's second...: every page was drawn near the end of the
# line (60 students: median 33.6 s of 36). So a session keeps its place in the line from one
# turn to the next of the same run (back within RUN_GAP_S of its last turn), for up to
# RUN_TURNS_S of turns: then, or after a pause, it joins at the back. A tab asking for run
# after run gets RUN_TURNS_S of turns at its place, never the line.
RUN_GAP_S = 1.0
RUN_TURNS_S = 3.0
# A student whose page waits says so: after NOTICE_S in the line, and every NOTICE_EVERY_S,
# a toast with how many computations are ahead (a page that seemed stuck was reloaded, and a
# reload joins the line at the back).
NOTICE_S = 2.0
NOTICE_EVERY_S = 10.0


def _notice_waiting(ahead: int) -> None:
    """Tell the student why the page waits (in a session's run only)."""
    if not st.runtime.exists():
        return  # a notebook, a test's thread: nobody to tell
    which = "1 computation" if ahead == 1 else f"{ahead} computations"
    st.toast(
        f"Busy: {which} ahead of this page. It comes by itself; a reload loses its place.",
        icon=":material/hourglass_top:",
    )


_ARRIVALS = itertools.count()  # breaks ties between places taken at the same instant


@dataclasses.dataclass
class _Run:
    """One session's place in the line, kept from one turn to the next of a page run."""

    place: tuple[float, int]
    last_end: float = 0.0
    held_s: float = 0.0


def timed(name: str, compute: Callable[[], Any]) -> Any:
    """`compute()`; the function `name` is heavy from now on when it took HEAVY_S of this
    thread's CPU (time.thread_time: not the time spent waiting, for a turn or anything)."""
    start = time.thread_time()
    value = compute()
    if time.thread_time() - start >= HEAVY_S:
        _HEAVY_NAMES.add(name)
    return value


@contextlib.contextmanager
def heavy_turn(name: str) -> Iterator[None]:
    """Wait for the turn to compute when the function `name` is heavy; nothing otherwise
    (nor inside `without_turns`)."""
    if name not in _HEAVY_NAMES or _WITHOUT_TURNS.get() or holding_heavy_turn():
        yield  # light, background work, or a heavy function called by one holding the turn
        return
    now = time.monotonic()
    run = getattr(_TURNS, "run", None)
    if run is None or now - run.last_end > RUN_GAP_S or run.held_s > RUN_TURNS_S:
        run = _TURNS.run = _Run(place=(now, next(_ARRIVALS)))
    try:
        token = _LINE.wait(run.place, _notice_waiting)
    except BaseException:
        run.last_end = time.monotonic()  # it waited until now: pressed again, it keeps its place
        raise
    _TURNS.held = True
    began = time.monotonic()
    try:
        yield
    finally:
        _TURNS.held = False
        _LINE.done(token)
        run.last_end = time.monotonic()
        run.held_s += run.last_end - began


@contextlib.contextmanager
def without_turns() -> Iterator[None]:
    """Within it, heavy computations do not take turns (shared background work)."""
    token = _WITHOUT_TURNS.set(True)
    try:
        yield
    finally:
        _WITHOUT_TURNS.reset(token)


def holding_heavy_turn() -> bool:
    """Whether this thread holds the heavy turn now."""
    return getattr(_TURNS, "held", False)


def heavy_names() -> frozenset[str]:
    """The functions found heavy so far ("module.function"), for tests and benches."""
    return frozenset(_HEAVY_NAMES)


def cached(*, max_entries: int = 256, census_only: bool = False) -> Callable[[F], F]:
    """Decorator: cache `fn` by its arguments, per the dataset rule above (`census_only`:
    always computed on the census and shared, see the module docstring).

    On the census: one result per argument set, shared by every session as the same object
    (callers never mutate a result: derive new frames), at most `max_entries` per function,
    least recently used dropped first, and all functions' results within SHARED_BYTES
    together. On an upload: this session's memo (at most `max_entries` results of `fn` and
    MEMO_ENTRIES for all functions together, least recently used dropped first), gone with
    the session."""

    def decorate(fn: F) -> F:
        name = f"{fn.__module__}.{fn.__qualname__}"
        shared = _SHARED.setdefault(name, _SharedResults(name, max_entries))

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            token = (_token(args), _token(tuple(sorted(kwargs.items()))))
            if census_only:
                return shared.get(token, lambda: _on_the_census(fn, args, kwargs))
            if on_census():
                return shared.get(token, lambda: fn(*args, **kwargs))
            memo = _session_memo()
            key = (name, token)
            if key in memo:
                memo[key] = memo.pop(key)  # most recently used last
            else:
                mine = [k for k in memo if k[0] == name]  # oldest first
                for old in mine[: max(0, len(mine) - max_entries + 1)]:
                    memo.pop(old)
                while len(memo) >= MEMO_ENTRIES:
                    memo.pop(next(iter(memo)))
                with heavy_turn(name):
                    memo[key] = timed(name, lambda: fn(*args, **kwargs))
            return memo[key]

        wrapper.census_only = census_only  # type: ignore[attr-defined]
        if census_only:
            _CENSUS_ONLY_NAMES.add(name)
        return wrapper  # type: ignore[return-value]

    return decorate


_CENSUS_ONLY_NAMES: set[str] = set()  # "module.function" of every census-only function


def census_only_names() -> frozenset[str]:
    """The census-only functions ("module.function"), for tests and benches."""
    return frozenset(_CENSUS_ONLY_NAMES)


def _on_the_census(fn: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> Any:
    """Call `fn` with the census as the active dataset, whatever this session uploaded."""
    reset = _CENSUS_ONLY.set(True)
    try:
        return fn(*args, **kwargs)
    finally:
        _CENSUS_ONLY.reset(reset)


def _token(value: Any) -> Any:
    """A hashable stand-in for an argument (numpy arrays, DataFrames, dicts and dataclasses
    by content), naming its type: Python finds True == 1 == 1.0 and (1, 2) == [1, 2], so a
    key by equality alone would hand `f(1)` the result of `f(True)` and skip a check of the
    type inside `f`; a float is keyed by its bits (-0.0 is not 0.0)."""
    if isinstance(value, float):
        return (type(value), value.hex())
    if isinstance(value, (bool, int, str, bytes)) or value is None:
        return (type(value), value)
    if isinstance(value, pd.DataFrame):
        hashed = pd.util.hash_pandas_object(value, index=True).to_numpy()
        columns = tuple(map(str, value.columns))
        return ("DataFrame", columns, tuple(map(str, value.dtypes)), hashed.tobytes())
    if isinstance(value, dict):
        return ("dict", tuple((_token(k), _token(v)) for k, v in value.items()))
    if isinstance(value, (tuple, list)):
        return (type(value), *(_token(item) for item in value))
    if hasattr(value, "tobytes") and hasattr(value, "dtype"):
        return (str(value.dtype), value.shape, value.tobytes())
    if hasattr(value, "__dataclass_fields__"):
        return (
            type(value).__name__,
            *(_token(getattr(value, f)) for f in value.__dataclass_fields__),
        )
    return (type(value), value)


# --- Derived from a cached result, by the result's identity ---------------------------------
# A census result is the same object for every session at the same arguments, so what a page
# derives from it (a chart's rows, a histogram's bins, an alt text) can be derived once per
# process too, keyed by the object's identity (hashing a frame's content, as `cached` does
# with its arguments, costs as much as deriving it again). An entry goes with its object;
# callers never mutate what they get (it is shared). On an upload the object is this
# session's own, so what is derived from it goes with it.
_DERIVED: dict[tuple, tuple[weakref.ref, Any]] = {}


def derived_from(result: Any, key: tuple, compute: Callable[[], Any]) -> Any:
    """`compute()`, made once per `result` object and `key` (hashable: the other
    arguments); computed every time when `result` cannot be weakly referenced (a list)."""
    try:
        weakref.ref(result)
    except TypeError:
        return compute()
    full_key = (id(result), *key)
    hit = _DERIVED.get(full_key)
    if hit is not None and hit[0]() is result:
        return hit[1]
    value = compute()
    # The map is bound now: at interpreter exit the module's globals are gone before the
    # last objects die, and their callbacks still run.
    forget = functools.partial(_DERIVED.pop, full_key, None)
    _DERIVED[full_key] = (weakref.ref(result, lambda _: forget()), value)
    return value


def derived(fn: F) -> F:
    """Decorator for `fn(result, *args)`, a pure function of a cached result (its first
    argument, by identity) and of hashable other arguments: see `derived_from`.

        @datasets.derived
        def bars_frame(frame: pd.DataFrame) -> pd.DataFrame: ...
    """
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def wrapper(result: Any, *args: Any, **kwargs: Any) -> Any:
        key = (name, args, tuple(sorted(kwargs.items())))
        return derived_from(result, key, lambda: fn(result, *args, **kwargs))

    return wrapper  # type: ignore[return-value]
