"""What waiting in the heavy line costs the process (ui/datasets.py, "One heavy computation at
a time"): N sessions queue behind a turn held for 5 s, and the process's CPU per second while
they wait is printed (each waiter wakes every POLL_S for its yield point, and at every turn's
end). No server: real threads calling a heavy cached function, as sessions' scripts do.

    .venv/bin/python bench/bench_line.py [N ...]     # default: 50 200
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ui import datasets  # noqa: E402

WAIT_S = 5.0
_USES = iter(range(1_000_000))


def burn(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def case(waiters: int) -> None:
    hold, inside = threading.Event(), threading.Event()
    use = next(_USES)

    @datasets.cached()
    def attack(seed: int, use: int) -> int:
        burn(datasets.HEAVY_S + 0.01)
        if seed == 0:
            inside.set()
            hold.wait()
        return seed

    attack(-1, use)  # known heavy
    holder = threading.Thread(target=attack, args=(0, use))
    holder.start()
    inside.wait()
    line = [threading.Thread(target=attack, args=(i, use)) for i in range(1, waiters + 1)]
    for thread in line:
        thread.start()
    while datasets._LINE.waiting() < waiters:
        time.sleep(0.01)
    cpu, wall = time.process_time(), time.monotonic()
    time.sleep(WAIT_S)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    hold.set()
    start = time.monotonic()
    for thread in [holder, *line]:
        thread.join()
    through = time.monotonic() - start
    print(
        f"{waiters} sessions waiting: {1000 * cpu / wall:.1f} ms of CPU a second; then through "
        f"the line in {through:.1f} s ({1000 * through / waiters:.0f} ms a turn, "
        f"{1000 * (datasets.HEAVY_S + 0.01):.0f} ms of it computing)",
        flush=True,
    )


def main() -> None:
    print(f"{os.cpu_count()} cores")
    for waiters in [int(arg) for arg in sys.argv[1:]] or [50, 200]:
        case(waiters)


if __name__ == "__main__":
    main()
