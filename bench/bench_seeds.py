"""Server memory after a sweep of many seeds over the lessons.

Every random chart is cached per seed, and the caches are shared by all sessions, so a
class trying many seeds (or a crawler trying `?seed=` links) grows them. Each cache has a
bound (`max_entries`); this measures what the bounds add up to on a live server.

One Chromium session (so no session storage is added): for each lesson whose charts depend
on the seed, open it from the navigation, then type each seed 1..SEEDS into the sidebar's
seed box and wait for the run. Prints the server's RSS after each lesson. Target: the whole
app under 300 MB after 200 seeds. Takes ~15-25 minutes at 200 seeds.

    python bench/bench_seeds.py [SEEDS]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402

from browser_helpers import enter_seed, open_page  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS, serve_app_process  # noqa: E402
from lessons.catalogue import LESSONS  # noqa: E402
from session_memory import rss_mb  # noqa: E402

# The lessons with caches keyed by the seed (grep "seed" in the cached functions).
SEEDED = (
    "laplace",
    "coin_flip",
    "composition",
    "choosing",
    "kary_rr",
    "unary_encoding",
    "central_vs_local",
)


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: sudo apt-get install chromium")
    lessons = [lesson for lesson in LESSONS if lesson.folder in SEEDED]
    print(f"# Server memory over a sweep of {seeds} seeds (Chromium, one session)\n")
    print("Target: under 300 MB RSS for the whole app after 200 seeds on every seeded lesson.\n")
    print("| after | server RSS MB | sweep s | seeds not taken |")
    print("|---|---:|---:|---:|", flush=True)
    with (
        tempfile.TemporaryDirectory() as log_dir,
        serve_app_process(Path(log_dir)) as (base_url, server),
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        open_page(page, base_url, "")
        print(f"| Home, first run | {rss_mb(server.pid):,.0f} | – | – |", flush=True)
        for lesson in lessons:
            open_page(page, base_url, lesson.url_path)
            start, missed = time.perf_counter(), 0
            for seed in range(1, seeds + 1):
                try:
                    enter_seed(page, str(seed))
                except AssertionError:  # a busy machine: the run did not start in time
                    missed += 1
                    open_page(page, base_url, lesson.url_path)
            seconds = time.perf_counter() - start
            print(
                f"| {lesson.title} | {rss_mb(server.pid):,.0f} | {seconds:,.0f} | {missed} |",
                flush=True,
            )
        browser.close()


if __name__ == "__main__":
    main()
