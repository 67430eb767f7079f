"""`make bench-room`: a lecture's worth of simulated students against a live server.

Each student is a bench/room_client.Student: Streamlit's own WebSocket protocol, so the
server runs exactly what it runs for a tab. Per room size N (10, 50, 100, 200):

  open    N students open the lesson at the same moment (first render: HTML, WebSocket,
          script run), as when the lecturer says "open the Laplace page";
  slider  each moves the lesson's main slider every 3 s (a random phase each) for
          SLIDER_SECONDS; a move waits for its answer before the next one;
  quiz    each answers the lesson's first quiz question (choice + Check) within 10 s;
  survey  N students join a live survey (?join=CODE), then each taps an answer within 10 s;
          the store must then hold exactly N answers;
  class-quiz  N phones join a class quiz (?join=CODE) on its first question, each taps an
          option within 10 s (time to the acknowledgement; the store must hold exactly N),
          then each polls once, as a phone does every 2 s to follow the lecturer;
  class-heist  N phones join a class heist, each sends its made-up answer (the form: a
          secret, two attributes; the store must hold exactly N), then each polls once;
  class-game  N phones join an ε guessing game on its first round, each guesses "with" or
          "without" (the store must hold exactly N), then each polls once;
  busy    (50 students, after every room size on every server) each moves the slider again as
          soon as the last move is answered, for 15 s: the server's capacity in reruns per
          second. Three rounds, the servers taking turns, so that a drift in the machine's
          speed hits one process and the replicas alike; the median and the ratio.

It prints p50 / p95 / max seconds per scenario, reruns per second, and the server's CPU per
event (utime + stime of the server processes from /proc, divided by the events: this
includes everything the server did meanwhile, so it is an upper bound). The students run in
this process on the same machine, so they take CPU from the server: the machine's load is
printed with each table.

  --target single   one `streamlit run` (what Community Cloud runs)
  --target room     `make room WORKERS=N` (HAProxy + N replicas, deploy/room.py)
  --url URL --pids PID,...   an already running server or balancer (loopback only)
  --lessons         CPU per event (first render, main-slider rerun) for every lesson, warm
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from bench.room_client import ProtocolError, Student  # noqa: E402
from deploy.room import Room  # noqa: E402
from lessons.catalogue import LESSONS  # noqa: E402

SIZES = (10, 50, 100, 200)
SLIDER_PERIOD_S = 3.0
SLIDER_SECONDS = 24.0
TAP_WINDOW_S = 10.0
CAPACITY_STUDENTS = 50
CAPACITY_SECONDS = 15.0
LESSON = "laplace"
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of these processes (all their threads), in seconds."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICK


def rss_mb(pids: list[int]) -> str:
    """Resident memory now / peak, summed over the processes, in MB."""
    now = peak = 0
    for pid in pids:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    now += int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    peak += int(line.split()[1])
    return f"{now / 1024:.0f} / {peak / 1024:.0f} MB"


def quantiles(values: list[float]) -> str:
    if not values:
        return "—"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"{statistics.median(ordered):.3f} / {p95:.3f} / {ordered[-1]:.3f}"


def main_slider_label(page: str) -> str:
    for lesson in LESSONS:
        if lesson.url_path == page:
            return lesson.main_control
    raise ValueError(f"no lesson at {page!r}")


class Server:
    """What the bench measures: a base URL and the processes whose CPU counts."""

    def __init__(
        self,
        url: str,
        pids: list[int],
        label: str,
        warm_urls: list[str] | None = None,
        balancer_pid: int | None = None,
    ):
        self.url, self.pids, self.label = url, pids, label
        self.balancer_pids = [balancer_pid] if balancer_pid else []
        self.warm_urls = warm_urls or [url]  # each replica pays its imports on a first visit


async def open_all(url: str, page: str, query: str, n: int) -> tuple[list[Student], list[float]]:
    students = [Student(url, page, query) for _ in range(n)]
    results = await asyncio.gather(*(s.open() for s in students), return_exceptions=True)
    times, failures = [], 0
    for result in results:
        if isinstance(result, BaseException):
            failures += 1
        else:
            times.append(result.seconds)
            if result.exceptions:
                raise ProtocolError(f"the page raised: {result.exceptions}")
    if failures:
        print(f"    {failures} of {n} students could not open {page}")
    return students, times


async def move_sliders(students: list[Student], label: str, seconds: float) -> list[float]:
    times: list[float] = []
    end = time.monotonic() + seconds

    async def one(student: Student) -> None:
        slider = student.widget("slider", label)
        await asyncio.sleep(random.uniform(0, SLIDER_PERIOD_S))
        step = 1
        while time.monotonic() < end:
            started = time.monotonic()
            result = await student.move(slider, step)
            times.append(result.seconds)
            step = -step if abs(step) >= 2 else step + 1
            await asyncio.sleep(max(0.0, SLIDER_PERIOD_S - (time.monotonic() - started)))

    await asyncio.gather(*(one(s) for s in students))
    return times


async def saturate(students: list[Student], label: str, seconds: float) -> list[float]:
    """Every student moves the slider again as soon as the last move is answered: the
    server's capacity in reruns per second (no think time)."""
    times: list[float] = []
    end = time.monotonic() + seconds

    async def one(student: Student) -> None:
        slider = student.widget("slider", label)
        step = 1
        while time.monotonic() < end:
            times.append((await student.move(slider, step)).seconds)
            step = -step if abs(step) >= 2 else step + 1

    await asyncio.gather(*(one(s) for s in students))
    return times


async def capacity(server: Server, page: str, n: int = CAPACITY_STUDENTS) -> float:
    """One round of `busy`: reruns per second."""
    students, _ = await open_all(server.url, page, "", n)
    before, started = cpu_seconds(server.pids), time.monotonic()
    balancer = cpu_seconds(server.balancer_pids)
    own = time.process_time()
    times = await saturate(students, main_slider_label(page), CAPACITY_SECONDS)
    elapsed = time.monotonic() - started
    own = time.process_time() - own
    balancer = cpu_seconds(server.balancer_pids) - balancer
    servers = cpu_seconds(server.pids) - before
    rate = len(times) / elapsed
    row(
        "busy",
        n,
        times,
        servers,
        len(times),
        f", {rate:.1f} reruns/s (capacity: no pause between moves)",
    )
    print(
        f"          cores used meanwhile: Streamlit {servers / elapsed:.2f}, HAProxy "
        f"{balancer / elapsed:.2f}, the simulated students {own / elapsed:.2f} (same machine)"
    )
    await asyncio.gather(*(s.close() for s in students))
    return rate


CAPACITY_ROUNDS = 3  # this VM's speed drifts by up to 2x within an hour: rounds alternate


async def capacities(servers: list[Server], page: str) -> None:
    """`busy` on every server, CAPACITY_ROUNDS rounds, the servers taking turns within each
    round (back to back, so a drift in the machine's speed hits both alike); then the median
    reruns per second of each and, for two servers, the ratio round by round."""
    rates: list[list[float]] = [[] for _ in servers]
    for round_number in range(1, CAPACITY_ROUNDS + 1):
        for index, server in enumerate(servers):
            print(
                f"\ncapacity, round {round_number}: {server.label} (load average "
                f"{os.getloadavg()[0]:.2f})"
            )
            rates[index].append(await capacity(server, page))
    print(f"\ncapacity, median of {CAPACITY_ROUNDS} rounds [range]:")
    for server, values in zip(servers, rates, strict=True):
        print(
            f"  {server.label:<28} {statistics.median(values):6.1f} reruns/s "
            f"[{min(values):.1f}–{max(values):.1f}]"
        )
    if len(servers) == 2:
        ratios = [b / a for a, b in zip(*rates, strict=True)]
        print(
            f"  {servers[1].label} / {servers[0].label}: {statistics.median(ratios):.2f}x "
            f"(rounds: {', '.join(f'{r:.2f}x' for r in ratios)})"
        )


async def answer_quiz(students: list[Student]) -> list[float]:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    times: list[float] = []

    async def one(student: Student) -> None:
        radios = [w for w in student.widgets.values() if w.kind == "radio" and "**1.**" in w.label]
        checks = [w for w in student.widgets.values() if w.kind == "button" and w.label == "Check"]
        if not radios or not checks:
            raise ProtocolError("no quiz question 1 with a Check button on this page")
        await asyncio.sleep(random.uniform(0, TAP_WINDOW_S))
        choice = WidgetState(
            id=radios[0].id, int_value=random.randrange(len(radios[0].proto.options))
        )
        result = await student.rerun(
            choice, Student.button_state(checks[0]), fragment_id=checks[0].fragment_id
        )
        times.append(result.seconds)

    await asyncio.gather(*(one(s) for s in students))
    return times


async def tap_survey(students: list[Student]) -> list[float]:
    times: list[float] = []

    async def one(student: Student) -> None:
        button = student.widget("button", random.choice(("Yes", "No")))
        await asyncio.sleep(random.uniform(0, TAP_WINDOW_S))
        result = await student.tap(button)
        if "Your reported answer is in" not in student.text():
            raise ProtocolError(f"no acknowledgement after the tap: {student.text()[:200]!r}")
        times.append(result.seconds)

    await asyncio.gather(*(one(s) for s in students))
    return times


def new_survey(db_url: str) -> tuple[str, int]:
    import survey

    store = survey.SurveyStore(db_url)
    created = store.create_survey("Have you ever cheated in an exam?", survey.protocols.two_coins())
    store.dispose()
    return created.survey.code, created.survey.id


def stored_answers(db_url: str, survey_id: int) -> int:
    import survey

    store = survey.SurveyStore(db_url)
    counts = store.counts(survey_id)
    store.dispose()
    return counts.responses


def new_quiz(db_url: str) -> tuple[str, int]:
    """A class quiz of the Laplace lesson's questions, its first question on show."""
    import survey
    from lessons.class_quiz.model import lesson_questions

    store = survey.SurveyStore(db_url)
    quizzes = survey.QuizStore(store)
    created = quizzes.create_quiz("Bench quiz", list(lesson_questions("laplace")))
    quizzes.show(created.quiz.id, created.admin_key, 0)
    store.dispose()
    return created.quiz.code, created.quiz.id


def stored_quiz_answers(db_url: str, quiz_id: int) -> int:
    import survey

    store = survey.SurveyStore(db_url)
    counts = survey.QuizStore(store).counts(quiz_id)
    store.dispose()
    return sum(counts[0])


async def tap_quiz(students: list[Student]) -> list[float]:
    times: list[float] = []

    async def one(student: Student) -> None:
        button = student.widget("button", random.choice(("A.", "B.", "C.")))
        await asyncio.sleep(random.uniform(0, TAP_WINDOW_S))
        result = await student.tap(button)
        if "Your answer is in" not in student.text():
            raise ProtocolError(f"no acknowledgement after the tap: {student.text()[:200]!r}")
        times.append(result.seconds)

    await asyncio.gather(*(one(s) for s in students))
    return times


async def poll_quiz(students: list[Student], fragment_ids: list[str]) -> list[float]:
    """Each phone's fragment reruns once, as its 2-second timer makes it do."""
    times: list[float] = []

    async def one(student: Student, fragment_id: str) -> None:
        await asyncio.sleep(random.uniform(0, 2.0))
        times.append((await student.rerun(fragment_id=fragment_id)).seconds)

    await asyncio.gather(*(one(s, f) for s, f in zip(students, fragment_ids, strict=True)))
    return times


def new_heist(db_url: str) -> tuple[str, int]:
    """A class heist open for answers (seat row 1–20, made-up birthday month 1–12)."""
    import survey

    store = survey.SurveyStore(db_url)
    created = survey.HeistStore(store).create_heist(
        "Bench heist", "Seat row", 20, "Birthday month", 12
    )
    store.dispose()
    return created.heist.code, created.heist.id


def stored_heist_answers(db_url: str, heist_id: int) -> int:
    import survey

    store = survey.SurveyStore(db_url)
    n, _ = survey.HeistStore(store).count_answers(heist_id)
    store.dispose()
    return n


async def tap_heist(students: list[Student]) -> list[float]:
    """Each phone fills the heist's form (a made-up secret, row and month) and sends it: one
    rerun with the form's widget states and its submit button."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    times: list[float] = []

    async def one(student: Student) -> None:
        secret = student.widget("selectbox", "Your secret")
        row_box = student.widget("selectbox", "Seat row")
        month = student.widget("selectbox", "Birthday month")
        volunteer = student.widget("checkbox", "volunteer")
        send = student.widget("button", "Send my made-up answer")
        states = [
            WidgetState(id=secret.id, string_value=str(random.randint(1, 10))),
            WidgetState(id=row_box.id, string_value=str(random.randint(1, 20))),
            WidgetState(id=month.id, string_value=str(random.randint(1, 12))),
            WidgetState(id=volunteer.id, bool_value=random.random() < 0.1),
            Student.button_state(send),
        ]
        await asyncio.sleep(random.uniform(0, TAP_WINDOW_S))
        result = await student.rerun(*states, fragment_id=send.fragment_id)
        if "Your made-up answer is in" not in student.text():
            raise ProtocolError(f"no acknowledgement after the tap: {student.text()[:200]!r}")
        times.append(result.seconds)

    await asyncio.gather(*(one(s) for s in students))
    return times


def new_game(db_url: str) -> tuple[str, int]:
    """An ε guessing game at ε = 1, its first round on show."""
    import survey

    store = survey.SurveyStore(db_url)
    games = survey.GameStore(store)
    created = games.create_game("Bench game", 1.0, 10)
    games.next_round(created.game.id, created.admin_key)
    store.dispose()
    return created.game.code, created.game.id


def stored_guesses(db_url: str, game_id: int) -> int:
    import survey

    store = survey.SurveyStore(db_url)
    tallies = survey.GameStore(store).tallies(game_id)
    store.dispose()
    return sum(t.n for t in tallies.values())


async def tap_game(students: list[Student]) -> list[float]:
    times: list[float] = []

    async def one(student: Student) -> None:
        button = student.widget("button", random.choice(("With the record", "Without it")))
        await asyncio.sleep(random.uniform(0, TAP_WINDOW_S))
        result = await student.tap(button)
        if "Your guess is in" not in student.text():
            raise ProtocolError(f"no acknowledgement after the tap: {student.text()[:200]!r}")
        times.append(result.seconds)

    await asyncio.gather(*(one(s) for s in students))
    return times


def new_checkin(db_url: str) -> tuple[str, int, str]:
    """A progress check-in about four lessons at ε = 4: (code, id, admin key)."""
    import survey

    store = survey.SurveyStore(db_url)
    created = survey.CheckinStore(store).create(list(CHECKIN_LESSONS), 4.0)
    store.dispose()
    return created.checkin.code, created.checkin.id, created.admin_key


def stored_reports(db_url: str, checkin_id: int) -> int:
    import survey

    store = survey.SurveyStore(db_url)
    n = survey.CheckinStore(store).reports(checkin_id, len(CHECKIN_LESSONS)).n
    store.dispose()
    return n


CHECKIN_LESSONS = ("anonymisation", "laplace", "binary_rr", "dpsgd")


async def tap_checkin(students: list[Student]) -> list[float]:
    """Each phone sends its report as its browser does: the private component's one trigger,
    the bits its JavaScript drew (here drawn at random: the server cannot tell)."""
    times: list[float] = []

    async def one(student: Student) -> None:
        (component,) = [w for w in student.widgets.values() if w.kind == "bidi_component"]
        bits = "".join(random.choice("01") for _ in CHECKIN_LESSONS)
        await asyncio.sleep(random.uniform(0, TAP_WINDOW_S))
        state = Student.trigger_state(component, "sent", bits)
        result = await student.rerun(state, fragment_id=component.fragment_id)
        if "Your report is in" not in student.text():
            raise ProtocolError(f"no acknowledgement after the tap: {student.text()[:200]!r}")
        times.append(result.seconds)

    await asyncio.gather(*(one(s) for s in students))
    return times


async def class_checkin_rows(server: Server, n: int, db_url: str) -> None:
    """The check-in's rows: `n` phones join and each sends one report (a phone does not
    poll: it has nothing to follow); then the projector, its 2-second poll with the `n`
    reports stored (one SQL query whatever n), 20 times."""
    code, checkin_id, admin_key = new_checkin(db_url)
    before = cpu_seconds(server.pids)
    students, times = await open_all(server.url, "class-checkin", f"join={code}", n)
    row("cjoin", n, times, cpu_seconds(server.pids) - before, len(times))
    before = cpu_seconds(server.pids)
    times = await tap_checkin(students)
    count = stored_reports(db_url, checkin_id)
    row("checkin", n, times, cpu_seconds(server.pids) - before, len(times), f", {count}/{n} stored")
    await asyncio.gather(*(s.close() for s in students))
    projector = Student(server.url, "class-checkin", f"manage={code}&key={admin_key}")
    await projector.open()
    fragment = projector.widget("button", "Close the check-in").fragment_id
    before, times = cpu_seconds(server.pids), []
    for _ in range(20):
        times.append((await projector.rerun(fragment_id=fragment)).seconds)
    if projector.metrics.get("Reports") != f"{n:,}":
        raise ProtocolError(f"the projector counts {projector.metrics.get('Reports')!r}, not {n}")
    row("cpoll", n, times, cpu_seconds(server.pids) - before, len(times), " (the projector)")
    await projector.close()


PARTS = (
    "lesson",
    "survey",
    "class-quiz",
    "class-heist",
    "class-game",
    "class-checkin",
    "capacity",
)


def row(
    scenario: str, n: int, times: list[float], cpu: float, events: int, extra: str = ""
) -> None:
    per_event = 1000 * cpu / events if events else float("nan")
    print(
        f"  {scenario:<10} N={n:<4} p50/p95/max {quantiles(times):<24} s  "
        f"CPU {per_event:6.1f} ms/event ({events} events){extra}"
    )


async def run_size(server: Server, n: int, db_url: str, page: str, parts: set[str]) -> None:
    """The scenarios of `parts` (lesson: open, slider, quiz; survey: join, survey; class
    quiz: qjoin, class-quiz, qpoll) with `n` students."""
    load = os.getloadavg()[0]
    if "lesson" in parts:
        await lesson_rows(server, n, page)
    if "survey" in parts:
        await survey_rows(server, n, db_url)
    if "class-quiz" in parts:
        await class_quiz_rows(server, n, db_url)
    if "class-heist" in parts:
        await class_heist_rows(server, n, db_url)
    if "class-game" in parts:
        await class_game_rows(server, n, db_url)
    if "class-checkin" in parts:
        await class_checkin_rows(server, n, db_url)
    print(f"  (load average before N={n}: {load:.2f}; server RSS now / peak {rss_mb(server.pids)})")


async def lesson_rows(server: Server, n: int, page: str) -> None:
    label = main_slider_label(page)
    before = cpu_seconds(server.pids)
    students, times = await open_all(server.url, page, "", n)
    row("open", n, times, cpu_seconds(server.pids) - before, len(times))

    before, started = cpu_seconds(server.pids), time.monotonic()
    times = await move_sliders(students, label, SLIDER_SECONDS)
    elapsed = time.monotonic() - started
    row(
        "slider",
        n,
        times,
        cpu_seconds(server.pids) - before,
        len(times),
        f", {len(times) / elapsed:.1f} reruns/s",
    )

    before = cpu_seconds(server.pids)
    times = await answer_quiz(students)
    row("quiz", n, times, cpu_seconds(server.pids) - before, len(times))
    await asyncio.gather(*(s.close() for s in students))


async def survey_rows(server: Server, n: int, db_url: str) -> None:
    code, survey_id = new_survey(db_url)
    before = cpu_seconds(server.pids)
    students, times = await open_all(server.url, "class-survey", f"join={code}", n)
    row("join", n, times, cpu_seconds(server.pids) - before, len(times))
    before = cpu_seconds(server.pids)
    times = await tap_survey(students)
    stored = stored_answers(db_url, survey_id)
    row(
        "survey",
        n,
        times,
        cpu_seconds(server.pids) - before,
        len(times),
        f", {stored}/{n} answers stored",
    )
    await asyncio.gather(*(s.close() for s in students))


async def phone_rows(
    server: Server,
    n: int,
    page: str,
    code: str,
    names: tuple[str, str, str],
    tap: Callable[[list[Student]], Awaitable[list[float]]],
    stored: Callable[[], int],
    poll_label: str,
) -> None:
    """A classroom activity's three rows: `n` phones join `page` at `?join=code`, each taps
    once (`tap`; the store must then hold `stored()` == n), and each polls once (the
    fragment of the widget labelled `poll_label`, as its 2-second timer reruns it)."""
    join, taps, poll = names
    before = cpu_seconds(server.pids)
    students, times = await open_all(server.url, page, f"join={code}", n)
    row(join, n, times, cpu_seconds(server.pids) - before, len(times))
    fragments = [s.widget("button", poll_label).fragment_id for s in students]
    before = cpu_seconds(server.pids)
    times = await tap(students)
    count = stored()
    row(taps, n, times, cpu_seconds(server.pids) - before, len(times), f", {count}/{n} stored")
    before = cpu_seconds(server.pids)
    times = await poll_quiz(students, fragments)
    row(poll, n, times, cpu_seconds(server.pids) - before, len(times))
    await asyncio.gather(*(s.close() for s in students))


async def class_quiz_rows(server: Server, n: int, db_url: str) -> None:
    code, quiz_id = new_quiz(db_url)
    names = ("qjoin", "class-quiz", "qpoll")
    stored = functools.partial(stored_quiz_answers, db_url, quiz_id)
    await phone_rows(server, n, "class-quiz", code, names, tap_quiz, stored, "A.")


async def class_heist_rows(server: Server, n: int, db_url: str) -> None:
    code, heist_id = new_heist(db_url)
    names = ("hjoin", "heist", "hpoll")
    stored = functools.partial(stored_heist_answers, db_url, heist_id)
    await phone_rows(
        server, n, "class-heist", code, names, tap_heist, stored, "Send my made-up answer"
    )


async def class_game_rows(server: Server, n: int, db_url: str) -> None:
    code, game_id = new_game(db_url)
    names = ("gjoin", "game", "gpoll")
    stored = functools.partial(stored_guesses, db_url, game_id)
    await phone_rows(server, n, "class-game", code, names, tap_game, stored, "With the record")


LESSON_ROUNDS = 3  # the median of three rounds: one round moved ±20% on a shared VM


async def lesson_round(server: Server, lesson) -> tuple[float, float | None]:
    """One round: CPU per first render of 20 new sessions at the defaults (kept open, as a
    room's are), then per main-slider rerun of 20 moves; in ms."""
    visits, moves = 20, 20
    before = cpu_seconds(server.pids)
    students = []
    for _ in range(visits):
        student = Student(server.url, lesson.url_path)
        await student.open()
        students.append(student)
    first = 1000 * (cpu_seconds(server.pids) - before) / visits
    rerun = None
    if lesson.main_control:
        slider = students[0].widget("slider", lesson.main_control)
        before = cpu_seconds(server.pids)
        for move in range(moves):
            await students[0].move(slider, 1 + move % 2)
        rerun = 1000 * (cpu_seconds(server.pids) - before) / moves
    for student in students:
        await student.close()
    return first, rerun


IDLE_CPU_S = 0.02  # the server's CPU in IDLE_WINDOW_S below which it counts as idle
IDLE_WINDOW_S = 0.5
IDLE_TIMEOUT_S = 120.0


async def until_idle(server: Server) -> None:
    """Wait until the server's processes are idle (at most IDLE_TIMEOUT_S). A lesson's first
    visit may start work shared by every later visitor in the background, once per process
    (ui/work.SharedWork: the sparse vector's audit, 5.5 s of CPU; DP-SGD's trainings): left
    running, its CPU was counted in the first renders measured after it."""
    deadline = time.monotonic() + IDLE_TIMEOUT_S
    while time.monotonic() < deadline:
        before = cpu_seconds(server.pids)
        await asyncio.sleep(IDLE_WINDOW_S)
        if cpu_seconds(server.pids) - before < IDLE_CPU_S:
            return


async def lessons_cpu(server: Server, only: list[str]) -> None:
    """CPU per first render and per main-slider rerun, every lesson, warm (after one visit and
    what it started in the background): the median of LESSON_ROUNDS rounds, and the rounds'
    range."""
    print(
        f"\nCPU per event, every lesson, warm, at defaults ({server.label}), median of "
        f"{LESSON_ROUNDS} rounds [range]"
    )
    print(f"  {'lesson':<20} {'first render':>24} {'slider rerun':>24}")
    for lesson in LESSONS:
        if only and not any(part in lesson.url_path for part in only):
            continue
        warm = Student(server.url, lesson.url_path)
        await warm.open()
        await warm.close()
        await until_idle(server)  # what the first visit started in the background, done
        rounds = [await lesson_round(server, lesson) for _ in range(LESSON_ROUNDS)]

        def cell(values: list[float | None]) -> str:
            if values[0] is None:
                return "—"
            middle, low, high = statistics.median(values), min(values), max(values)
            return f"{middle:.1f} ms [{low:.0f}–{high:.0f}]"

        print(
            f"  {lesson.url_path:<20} {cell([r[0] for r in rounds]):>24} "
            f"{cell([r[1] for r in rounds]):>24}"
        )


def start_single(stack: ExitStack, env: dict[str, str], log_dir: Path) -> Server:
    room = stack.enter_context(Room(1, log_dir=log_dir, env=env, balancer=False))
    # One replica measured directly (no balancer in the way): what `make run` serves.
    return Server(room.replica_urls[0], [room.replicas[0].pid], "one process")


async def main_async(args: argparse.Namespace) -> None:
    sizes = [int(s) for s in args.sizes.split(",") if s]
    parts = set(args.parts.split(","))
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-room-")))
        db_url = os.environ.get("SURVEY_DB_URL") or f"sqlite:///{tmp / 'survey.sqlite3'}"
        env = {"SURVEY_DB_URL": db_url}
        servers: list[Server] = []
        if args.url:
            servers.append(Server(args.url, [int(p) for p in args.pids.split(",")], args.url))
        if args.target in ("single", "both") and not args.url:
            servers.append(start_single(stack, env, tmp / "single"))
        if args.target in ("room", "both") and not args.url:
            room = stack.enter_context(Room(args.workers, log_dir=tmp / "room", env=env))
            servers.append(
                Server(
                    room.url,
                    [p.pid for p in room.replicas],
                    f"{args.workers} replicas behind HAProxy",
                    room.replica_urls,
                    room.haproxy.pid,
                )
            )
        # The students run on the same cores as the servers: below them in priority, so
        # that what they cost comes out of idle time first (the servers already started).
        os.nice(10)
        print(
            f"bench-room on {platform.node()}: {os.cpu_count()} cores, Python "
            f"{platform.python_version()}, lesson {args.lesson}"
        )
        for server in servers:
            for url in server.warm_urls:  # the first visit pays the imports
                for page in (args.lesson, "class-survey"):
                    warm = Student(url, page)
                    await warm.open()
                    await warm.close()
            if args.lessons:
                await lessons_cpu(server, args.only)
                continue
            print(f"\n{server.label} at {server.url}")
            for n in sizes:
                await run_size(server, n, db_url, args.lesson, parts)
        if "capacity" in parts and not args.lessons:
            await capacities(servers, args.lesson)


def main() -> None:
    parser = argparse.ArgumentParser(description="Simulated students against the app.")
    parser.add_argument("--target", choices=("single", "room", "both"), default="both")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--lesson", default=LESSON)
    parser.add_argument("--url", default="")
    parser.add_argument("--pids", default="")
    parser.add_argument("--lessons", action="store_true")
    parser.add_argument(
        "--parts",
        default=",".join(PARTS),
        help="comma-separated scenarios to run: " + ", ".join(PARTS),
    )
    parser.add_argument("only", nargs="*", help="with --lessons: lessons whose URL has this")
    args = parser.parse_args()
    random.seed(0)
    try:  # the simulated students share the machine's cores with the servers: uvloop's
        import uvloop  # event loop costs them less CPU per message (requirements-dev.txt)
    except ImportError:
        asyncio.run(main_async(args))
    else:
        uvloop.run(main_async(args))


if __name__ == "__main__":
    main()
