"""Tabs that change the seed on every run: what they cost the server, and what a bystander
waits.

The seed is a cache key of every seeded computation and takes a million values, so a tab
that sends a new one with each rerun makes a seeded page compute afresh every time (the
reconstruction page: ~0.6 s of CPU a run). Each tab here sends the seed's widget state and
nothing else, and awaits each run: within every per-tab budget (deploy/guard.py,
ui/pace.py). Meanwhile a bystander moves the Laplace lesson's slider every 0.5 s. Printed
per number of tabs: the server's CPU, the tabs' runs, the bystander's move p50 and max.

`--impatient`: each tab presses twice, a new seed and 0.2 s later another (a student
pressing the seed's "+" again before the page is drawn), and awaits the second's page: the
first's run is superseded, and gives way if it is still waiting its turn (deploy/give_way.py).

`--room N`: instead, N students open the page at once from a lecturer's link with a seed
the server has not seen (`?seed=…`), three times, a new seed each time: the server's CPU
and the seconds until the last student's page is drawn. `--room N --distinct`: each
student a seed of their own (the lecturer says "everyone, press new seed"), once, while a
bystander moves the Laplace slider: also the bystander's move, p50 and max. `--root DIR`
serves the checkout at DIR (a worktree of an older commit, for a before/after).

    .venv/bin/python bench/bench_seed_flood.py [--impatient] [TABS ...]  # default: 0 1 3 6
    .venv/bin/python bench/bench_seed_flood.py --room 20 [--distinct] [--root DIR]
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from bench.bench_flood import cpu_seconds, serve  # noqa: E402
from bench.room_client import Student  # noqa: E402

PAGE = "reconstruction"
SECONDS = 15.0
MOVE_EVERY_S = 0.5


async def new_seeds(url: str, stop: asyncio.Event, impatient: bool = False) -> int:
    """One tab: a new seed each run until `stop` (`impatient`: two, see above); its pages."""
    tab = Student(url, PAGE, timeout_s=180)
    await tab.open()
    seed = tab.widget("number_input", "Random seed")
    runs = 0
    while not stop.is_set():
        press = WidgetState(id=seed.id, int_value=random.randint(0, 999_999))
        if not impatient:
            await tab.rerun(press)
        else:
            drawn = asyncio.create_task(tab.rerun(press))
            await asyncio.sleep(0.2)
            if not drawn.done():
                tab.send_rerun(WidgetState(id=seed.id, int_value=random.randint(0, 999_999)))
            await drawn
        runs += 1
    await tab.close()
    return runs


async def bystander(url: str, until: asyncio.Future | None = None) -> list[float]:
    """Seconds of each move of the Laplace lesson's first slider, one every MOVE_EVERY_S, for
    SECONDS or until `until` is done."""
    student = Student(url, "laplace", timeout_s=180)
    await student.open()
    slider = next(w for w in student.widgets.values() if w.kind == "slider")
    moves, step, end = [], 1, time.perf_counter() + SECONDS

    def going() -> bool:
        return not until.done() if until is not None else time.perf_counter() < end

    while going():
        moves.append((await student.move(slider, step)).seconds)
        step = -step
        await asyncio.sleep(MOVE_EVERY_S)
    await student.close()
    return sorted(moves)


async def case(url: str, pid: int, tabs: int, impatient: bool = False) -> None:
    stop = asyncio.Event()
    before, start = cpu_seconds([pid]), time.perf_counter()
    flooders = asyncio.gather(*(new_seeds(url, stop, impatient) for _ in range(tabs)))
    await asyncio.sleep(1.0)
    moves = await bystander(url)
    stop.set()
    runs = sum(await flooders)
    took = time.perf_counter() - start
    kind = "impatient tab(s)" if impatient else "tab(s)"
    print(
        f"{tabs} {kind}: server CPU {cpu_seconds([pid]) - before:.1f} s in {took:.1f} s, "
        f"{runs} pages; bystander's move p50 {moves[len(moves) // 2] * 1000:.0f} ms, "
        f"max {moves[-1] * 1000:.0f} ms",
        flush=True,
    )


async def room(url: str, pid: int, students: int, seed: int) -> None:
    """`students` open the page at once with a new seed."""
    tabs = [Student(url, PAGE, f"seed={seed}", timeout_s=300) for _ in range(students)]
    before, start = cpu_seconds([pid]), time.perf_counter()
    await asyncio.gather(*(tab.open() for tab in tabs))
    took = time.perf_counter() - start
    print(
        f"{students} students open ?seed={seed} at once: server CPU "
        f"{cpu_seconds([pid]) - before:.1f} s, the last page drawn after {took:.1f} s",
        flush=True,
    )
    await asyncio.gather(*(tab.close() for tab in tabs))


async def distinct_room(url: str, pid: int, students: int) -> None:
    """`students` open the page at once, each with a seed of their own, beside a bystander."""
    seeds = random.sample(range(10_000, 1_000_000), students)  # the seed box holds 0-999,999
    tabs = [Student(url, PAGE, f"seed={seed}", timeout_s=600) for seed in seeds]
    before = cpu_seconds([pid])
    opened = asyncio.gather(*(tab.open() for tab in tabs))
    moves = await bystander(url, until=opened)
    results = await opened
    took = max(result.seconds for result in results)
    print(
        f"{students} students, a new seed each, at once: server CPU "
        f"{cpu_seconds([pid]) - before:.1f} s, the last page drawn after {took:.1f} s "
        f"(median {sorted(r.seconds for r in results)[students // 2]:.1f} s); bystander's "
        f"move p50 {moves[len(moves) // 2] * 1000:.0f} ms, p90 "
        f"{moves[len(moves) * 9 // 10] * 1000:.0f} ms, max {moves[-1] * 1000:.0f} ms "
        f"({len(moves)} moves)",
        flush=True,
    )
    await asyncio.gather(*(tab.close() for tab in tabs))


def main() -> None:
    args = sys.argv[1:]
    root, students = ROOT, 0
    if "--root" in args:
        at = args.index("--root")
        root = Path(args[at + 1]).resolve()
        del args[at : at + 2]
    impatient = "--impatient" in args
    if impatient:
        args.remove("--impatient")
    distinct = "--distinct" in args
    if distinct:
        args.remove("--distinct")
    if "--room" in args:
        at = args.index("--room")
        students = int(args[at + 1])
        del args[at : at + 2]
    counts = [int(arg) for arg in args] or [0, 1, 3, 6]
    server, url = serve(root)
    try:
        asyncio.run(Student(url, "laplace").open())  # warm: the bystander's page
        asyncio.run(Student(url, PAGE).open())
        if students and distinct:
            asyncio.run(distinct_room(url, server.pid, students))
            return
        if students:
            for seed in (4242, 4243, 4244):
                asyncio.run(room(url, server.pid, students, seed))
            return
        for tabs in counts:
            asyncio.run(case(url, server.pid, tabs, impatient))
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
