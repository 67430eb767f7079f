"""Heavy computations take turns (ui/datasets.py, "One heavy computation at a time"): once a
cached function's computation took HEAVY_S of its thread's CPU, its later computations run one
at a time per process, while light work and cached results never wait. In real threads."""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Callable, Iterable, Iterator

import pytest
from concurrency_helpers import at_once

from ui import datasets

THREADS = 8
_USES = itertools.count()


def burn(seconds: float) -> None:
    """Spend `seconds` of this thread's CPU."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


@pytest.fixture(autouse=True)
def quick_heavy(monkeypatch) -> None:
    monkeypatch.setattr(datasets, "HEAVY_S", 0.01, raising=False)


class Overlap:
    """How many computations run at once, and the most there ever were."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.now = self.most = self.calls = 0

    def __enter__(self) -> None:
        with self._lock:
            self.now += 1
            self.calls += 1
            self.most = max(self.most, self.now)

    def __exit__(self, *_: object) -> None:
        with self._lock:
            self.now -= 1


@contextlib.contextmanager
def turn_taken() -> Iterator[Callable[[int], int]]:
    """A student's heavy computation holds the turn (another thread's `held(1)`, blocked inside
    until the block ends); yields `held`, a heavy cached function that blocks only at 1."""
    hold, inside = threading.Event(), threading.Event()
    use = next(_USES)  # one cache for every use of the helper: its results are this use's

    @datasets.cached()
    def shared(x: int, use: int) -> int:
        burn(0.02)
        if x == 1:
            inside.set()
            assert hold.wait(30)
        return x

    def held(x: int) -> int:
        return shared(x, use)

    held(0)  # known heavy
    ahead = threading.Thread(target=held, args=(1,))
    ahead.start()
    try:
        assert inside.wait(30)
        yield held
    finally:
        hold.set()
        ahead.join(30)


def watched(sleep_s: float) -> tuple[Overlap, Callable[[int], int]]:
    """A heavy cached function (computed once: known heavy) that holds its computation for
    `sleep_s`, and the Overlap of its computations."""
    overlap, use = Overlap(), next(_USES)

    @datasets.cached()
    def attack(seed: int, use: int) -> int:
        with overlap:
            burn(0.02)
            time.sleep(sleep_s)
        return seed

    attack(-1, use)
    return overlap, lambda seed: attack(seed, use)


def in_line(
    fn: Callable[[int], object], arguments: Iterable[int], names: Iterable[str] = ()
) -> list[threading.Thread]:
    """A thread calling `fn` for each argument, each started once the one before it waits in
    the heavy line (so their order of arrival is known); `names` names them."""
    threads, names = [], iter(names)
    for argument in arguments:
        thread = threading.Thread(target=fn, args=(argument,), name=next(names, None))
        waiting = datasets._LINE.waiting()
        thread.start()
        threads.append(thread)
        deadline = time.monotonic() + 10
        while datasets._LINE.waiting() <= waiting and time.monotonic() < deadline:
            time.sleep(0.005)
    return threads


def presses(fn: Callable[[int], int], first: int = 0) -> Callable[[], int]:
    """A press for `at_once`: each call asks `fn` for the next argument, from `first` on."""
    arguments = itertools.count(first)
    lock = threading.Lock()

    def press() -> int:
        with lock:
            argument = next(arguments)
        return fn(argument)

    return press


def test_a_heavy_functions_computations_run_one_at_a_time() -> None:
    overlap = Overlap()

    @datasets.cached()
    def attack(seed: int) -> int:
        with overlap:
            burn(0.02)
            time.sleep(0.02)
        return seed * 2

    assert attack(-1) == -2  # the first computation finds it heavy
    name = f"{__name__}.{attack.__qualname__}"
    assert name in datasets.heavy_names()
    seeds = iter(range(THREADS))
    lock = threading.Lock()

    def press() -> int:
        with lock:
            seed = next(seeds)
        return attack(seed) - 2 * seed

    assert at_once(THREADS, press) == [0] * THREADS
    assert overlap.calls == THREADS + 1
    assert overlap.most == 1


def test_a_light_function_is_never_made_to_wait() -> None:
    @datasets.cached()
    def light(x: int) -> int:
        return x + 1

    light(0)
    assert f"{__name__}.{light.__qualname__}" not in datasets.heavy_names()
    with turn_taken() as held:
        # The turn is taken: a light computation and a cached heavy result go ahead.
        assert light(5) == 6 and held(0) == 0
        started = threading.Event()

        @datasets.cached()
        def behind(x: int) -> int:
            started.set()
            return held(x)

        datasets._HEAVY_NAMES.add(f"{__name__}.{behind.__qualname__}")
        waiting = threading.Thread(target=behind, args=(2,))
        waiting.start()
        assert not started.wait(0.5)  # its turn comes after the computation ahead
    waiting.join(30)
    assert started.is_set() and not waiting.is_alive()


def test_sessions_waiting_their_turn_take_the_result_computed_ahead_of_them() -> None:
    overlap = Overlap()

    @datasets.cached()
    def attack(seed: int) -> tuple[int]:
        with overlap:
            burn(0.02)
            time.sleep(0.05)
        return (seed,)

    attack(0)
    results = at_once(THREADS, lambda: attack(7))
    assert overlap.calls == 2  # the warm-up and one computation for the eight presses
    assert all(r is results[0] for r in results) and results[0] == (7,)


def test_a_heavy_function_calling_another_does_not_wait_for_its_own_turn() -> None:
    @datasets.cached()
    def inner(x: int) -> int:
        burn(0.02)
        return x

    @datasets.cached()
    def outer(x: int) -> int:
        return inner(x) + 1

    assert outer(0) == 1
    assert {f"{__name__}.{f.__qualname__}" for f in (inner, outer)} <= datasets.heavy_names()
    done: list[int] = []
    thread = threading.Thread(target=lambda: done.append(outer(1)))
    thread.start()
    thread.join(30)
    assert done == [2]


def test_a_turn_held_too_long_passes_to_the_next_in_line(monkeypatch) -> None:
    # A computation stuck holding the turn (a bug) holds up the line for WAIT_S, not for ever;
    # the line behind it still computes one at a time.
    monkeypatch.setattr(datasets, "WAIT_S", 0.5, raising=False)  # each computation: ~0.07 s
    overlap, behind = watched(0.05)
    with turn_taken() as held:
        start = time.monotonic()
        assert sorted(at_once(4, presses(behind, 1))) == [1, 2, 3, 4]  # the turn still stuck
        assert time.monotonic() - start >= 0.5  # the stuck turn was waited for, WAIT_S
        assert overlap.most == 1  # and the line went on one at a time after it
    assert held(3) == 3  # the line is free again (nothing left holding it)


def test_a_line_longer_than_the_wait_is_never_left_all_at_once(monkeypatch) -> None:
    # A room pressing "new seed" together: the line is longer than WAIT_S. Before, every
    # session that had waited WAIT_S computed at the same time (and the room's presses waited
    # behind them all); now each waits for its turn, however long the line.
    monkeypatch.setattr(datasets, "WAIT_S", 0.5, raising=False)  # each computation: ~0.12 s
    overlap, attack = watched(0.1)
    start = time.monotonic()
    assert sorted(at_once(THREADS, presses(attack))) == list(range(THREADS))
    assert time.monotonic() - start >= THREADS * 0.1  # longer than WAIT_S: a long line
    assert overlap.calls == THREADS + 1 and overlap.most == 1


def test_the_line_is_first_come_first_served() -> None:
    order: list[int] = []
    lock = threading.Lock()

    @datasets.cached()
    def attack(seed: int) -> int:
        burn(0.02)
        with lock:
            order.append(seed)
        return seed

    attack(-1)  # known heavy
    with turn_taken():
        threads = in_line(attack, range(THREADS))
    for thread in threads:
        thread.join(30)
    assert order == [-1, *range(THREADS)]


def test_a_room_asking_for_a_new_result_at_once_computes_it_once() -> None:
    # A function never computed before (not known heavy): the class opens the page together.
    overlap = Overlap()

    @datasets.cached()
    def defaults(zip_code: str) -> list[str]:
        with overlap:
            time.sleep(0.05)
        return [zip_code]

    results = at_once(THREADS, lambda: defaults("05138"))
    assert overlap.calls == 1
    assert all(r is results[0] for r in results) and results[0] == ["05138"]


def test_when_the_computation_waited_for_fails_each_session_computes_its_own() -> None:
    calls: list[int] = []
    lock = threading.Lock()

    @datasets.cached()
    def flaky(x: int) -> int:
        with lock:
            calls.append(x)
            first = len(calls) == 1
        time.sleep(0.05)
        if first:
            raise RuntimeError("the first computation fails")
        return x

    results = at_once(THREADS, lambda: flaky(3))
    errors = [r for r in results if isinstance(r, RuntimeError)]
    assert len(errors) == 1 and results.count(3) == THREADS - 1
    assert 2 <= len(calls) <= THREADS  # the others did not take the failure as a result


def test_the_session_holding_the_turn_never_waits_for_one_waiting_for_it(monkeypatch) -> None:
    # A asks for attack(7) and waits for the turn; B holds the turn, computing a page's heavy
    # function that needs attack(7) too. B computes it itself instead of waiting for A.
    monkeypatch.setattr(datasets, "WAIT_S", 60.0, raising=False)

    @datasets.cached()
    def attack(seed: int) -> int:
        burn(0.02)
        return seed

    b_holds, a_waits = threading.Event(), threading.Event()

    @datasets.cached()
    def reconstructed(seed: int) -> int:
        burn(0.02)
        if seed:
            b_holds.set()
            assert a_waits.wait(30)
            return attack(seed) + 1
        return 0

    attack(0), reconstructed(0)  # both known heavy
    b_result: list[int] = []
    b = threading.Thread(target=lambda: b_result.append(reconstructed(7)))
    b.start()
    assert b_holds.wait(30)
    a = threading.Thread(target=attack, args=(7,))
    a.start()
    flights = datasets._SHARED[f"{__name__}.{attack.__qualname__}"]._flights
    deadline = time.monotonic() + 30
    while not flights and time.monotonic() < deadline:
        time.sleep(0.01)
    assert flights  # A has asked, and waits for the turn B holds
    a_waits.set()
    b.join(20)  # a deadlock would hold B until WAIT_S (60 s)
    assert b_result == [8]
    a.join(30)
    assert not a.is_alive()


def test_shared_background_work_does_not_queue_for_the_turn() -> None:
    # DP-SGD's trainings and the sparse vector's audit (ui/work.py) run once per process,
    # behind their own progress bar; in the queue their 5-20 s would stall every heavy press.
    from ui import work

    @datasets.cached()
    def trainings(x: int) -> int:
        burn(0.02)
        return x

    trainings(0)  # known heavy
    with turn_taken():
        shared = work.SharedWork("test-trainings", 1, lambda: trainings(5))
        shared.start()
        shared._thread.join(20)  # in the queue it would wait for the student's (30 s)
        assert shared.ready() and shared.result() == 5


class Superseded(BaseException):
    """What the server's yield point raises to end a run nobody wants (deploy/give_way.py:
    Streamlit's StopException or RerunException)."""


@pytest.mark.parametrize("x", [1, 5], ids=["the computation ahead", "a new one"])
def test_a_session_waiting_gives_way_when_its_run_is_superseded(x: int) -> None:
    # x=1: waiting for the result the session ahead computes; x=5: waiting for the turn.
    def superseded() -> None:
        if threading.current_thread().name == "superseded":
            raise Superseded

    outcome: list[object] = []

    def ask() -> None:
        try:
            outcome.append(held(x))
        except Superseded:
            outcome.append("gave way")

    datasets.set_yield_point(superseded)
    try:
        with turn_taken() as held:
            gone = threading.Thread(target=ask, name="superseded")
            gone.start()
            gone.join(10)
            assert not gone.is_alive() and outcome == ["gave way"]  # before the turn was free
            assert held(0) == 0  # others' cached results unaffected
            stays = threading.Thread(target=ask, name="wanted")
            stays.start()
            stays.join(0.5)
            assert stays.is_alive()  # a run still wanted waits on
        stays.join(5)  # its turn is next: the line does not wait for the one that left
        assert outcome == ["gave way", x]
    finally:
        datasets.set_yield_point(None)


def test_a_turn_taken_after_the_line_was_idle_is_held_its_full_time(monkeypatch) -> None:
    # The line's clock starts when a turn begins, not when the last one ended: a turn taken
    # after a quiet minute is not "held too long" the moment the next session comes.
    monkeypatch.setattr(datasets, "WAIT_S", 1.0, raising=False)
    hold, inside, second = threading.Event(), threading.Event(), threading.Event()

    @datasets.cached()
    def attack(seed: int) -> int:
        burn(0.02)
        if seed == 1:
            inside.set()
            assert hold.wait(30)
        if seed == 2:
            second.set()
        return seed

    attack(0)  # known heavy; the line is idle from here
    time.sleep(1.2)  # longer than WAIT_S
    ahead = threading.Thread(target=attack, args=(1,))
    ahead.start()
    try:
        assert inside.wait(30)
        behind = threading.Thread(target=attack, args=(2,))
        behind.start()
        assert not second.wait(0.15)  # waits its turn
    finally:
        hold.set()
        ahead.join(30)
    behind.join(30)
    assert second.is_set()


def test_a_page_run_keeps_its_place_in_the_line_from_one_turn_to_the_next() -> None:
    # A room presses "new seed" together and each page needs two turns: served call by call,
    # every page waited for everyone's first turn, and was drawn near the end of the line.
    order: list[tuple[str, int]] = []
    lock = threading.Lock()

    @datasets.cached()
    def attack(seed: int) -> int:
        burn(0.02)
        with lock:
            order.append(("attack", seed))
        return seed

    @datasets.cached()
    def defence(seed: int) -> int:
        burn(0.02)
        with lock:
            order.append(("defence", seed))
        return seed

    def page(seed: int) -> None:
        attack(seed)
        defence(seed)

    page(-1)  # both known heavy
    with turn_taken():
        students = in_line(page, range(3))
    for student in students:
        student.join(30)
    assert order[2:] == [(step, seed) for seed in range(3) for step in ("attack", "defence")]


def test_a_tab_asking_run_after_run_keeps_its_place_only_for_a_while(monkeypatch) -> None:
    # Back-to-back runs would otherwise hold the front of the line for ever.
    monkeypatch.setattr(datasets, "RUN_TURNS_S", 0.1, raising=False)
    order: list[str] = []
    lock = threading.Lock()
    first_turn = threading.Event()

    @datasets.cached()
    def attack(seed: int) -> int:
        burn(0.03)
        if seed != -1_000:
            with lock:
                order.append("flood" if seed >= 0 else "student")
            first_turn.set()
        return seed

    attack(-1_000)  # known heavy
    flood = threading.Thread(target=lambda: [attack(seed) for seed in range(20)])
    flood.start()
    assert first_turn.wait(30)
    student = threading.Thread(target=attack, args=(-1,))  # comes while the flood runs
    student.start()
    flood.join(30)
    student.join(30)
    assert order.index("student") < 10  # not behind all twenty (0.1 s of turns, then the back)


def test_a_session_waiting_is_told_how_many_computations_are_ahead(monkeypatch) -> None:
    monkeypatch.setattr(datasets, "NOTICE_S", 0.2, raising=False)
    told: list[tuple[str, int]] = []
    monkeypatch.setattr(
        datasets,
        "_notice_waiting",
        lambda ahead: told.append((threading.current_thread().name, ahead)),
    )

    @datasets.cached()
    def attack(seed: int) -> int:
        burn(0.02)
        return seed

    attack(-1)  # known heavy
    with turn_taken():
        first, second = in_line(attack, (1, 2), names=("first", "second"))
        time.sleep(0.6)
    first.join(30)
    second.join(30)
    assert ("first", 1) in told and ("second", 2) in told  # the turn's holder, then "first"
    assert attack(3) == 3 and len(told) == 2  # no wait, no notice
