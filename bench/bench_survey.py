"""Sustained class-survey submissions per second, SQLite and PostgreSQL.

    python bench/bench_survey.py            # SQLite; PostgreSQL too if SURVEY_TEST_PG_URL is set

Each run: one survey, N distinct browser sessions submitting from W threads for about
`SECONDS` seconds (each submission a separate transaction, as in the app). Target: at
least 200 submissions per second on SQLite on a 2-core machine.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import survey  # noqa: E402
from survey import security  # noqa: E402

SECONDS = 3.0
WORKERS = (1, 8, 32)


def sustained_rate(url: str, workers: int, seconds: float = SECONDS) -> tuple[int, float]:
    """(accepted submissions, submissions per second) with `workers` threads."""
    store = survey.SurveyStore(url, pool_size=max(workers, 5))
    created = store.create_survey("Benchmark question?", survey.two_coins())
    deadline = time.perf_counter() + seconds
    accepted = 0
    lock = threading.Lock()

    def worker(_: int) -> None:
        nonlocal accepted
        done = 0
        while time.perf_counter() < deadline:
            result = store.submit(created.survey.id, security.new_session_token(), done % 2)
            done += result is survey.SubmitResult.ACCEPTED
        with lock:
            accepted += done

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(worker, range(workers)))
    elapsed = time.perf_counter() - start
    assert store.counts(created.survey.id).responses == accepted
    store.dispose()
    return accepted, accepted / elapsed


def main() -> None:
    targets = [("SQLite (file, WAL)", f"sqlite:///{Path(tempfile.mkdtemp()) / 'b.sqlite3'}")]
    pg_url = os.environ.get("SURVEY_TEST_PG_URL")
    if pg_url:
        targets.append(("PostgreSQL", pg_url))
    print(f"Class survey: sustained submissions ({SECONDS:g} s per row; target >= 200/s)")
    print(f"{'database':<20} {'threads':>7} {'accepted':>9} {'per second':>11}")
    for name, url in targets:
        for workers in WORKERS:
            accepted, rate = sustained_rate(url, workers)
            print(f"{name:<20} {workers:>7} {accepted:>9,} {rate:>11,.0f}")
    if not pg_url:
        print('PostgreSQL skipped: set SURVEY_TEST_PG_URL (eval "$(bash ci/postgres.sh)").')


if __name__ == "__main__":
    main()
