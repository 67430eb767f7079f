"""Time the lesson "Reconstruction attacks": the exact block reconstruction, the
defence's integer programs, the Dinur–Nissim attack, and the page's rerun once warm.

Prints a Markdown table; asserts nothing. Targets: default block ≤ 300 ms (and cached),
Dinur–Nissim at n = 500, m = 2,000 ≤ 500 ms, page rerun ≤ 50 ms median once warm.

    python bench/bench_reconstruction.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from page_timing import median_ms, quiet_script_context, row  # noqa: E402

import dp  # noqa: E402
from lessons.reconstruction import model  # noqa: E402
from session_memory import rss_mb  # noqa: E402
from ui import datasets  # noqa: E402

SEED = 2026


def main() -> None:
    import os

    quiet_script_context()
    print("# Reconstruction attacks: timings (median of 7 unless noted)\n")
    print("| what | ms | target |")
    print("|---|---:|---|")
    people = model.block(model.DEFAULT_ZIP, model.DEFAULT_BLOCK_SIZE, SEED)
    codes = model.block_codes(people)
    tables = dp.marginal_tables(codes, model.LEVELS)
    row(
        "exact reconstruction of the default block (dp)",
        median_ms(lambda: dp.reconstruct_from_marginals(tables, model.LEVELS)),
        "≤ 300 ms",
    )
    datasets.clear_shared()
    start = time.perf_counter()
    model.attack(model.DEFAULT_ZIP, model.DEFAULT_BLOCK_SIZE, SEED)
    row("model.attack, first call (block + search)", 1000 * (time.perf_counter() - start))
    row(
        "model.attack, cached",
        median_ms(lambda: model.attack(model.DEFAULT_ZIP, model.DEFAULT_BLOCK_SIZE, SEED)),
    )
    noisy = model.rounded(dp.noisy_marginal_tables(tables, model.LEVELS, 1.0, rng=1))
    row(
        "closest dataset to noisy tables (milp)",
        median_ms(lambda: dp.closest_dataset(noisy, model.LEVELS)),
    )
    start = time.perf_counter()
    model.accuracy_curve(model.DEFAULT_ZIP, model.DEFAULT_BLOCK_SIZE, SEED)
    row(
        f"accuracy curve, first call ({len(model.EPSILON_CURVE)} ε × {model.CURVE_DRAWS} releases)",
        1000 * (time.perf_counter() - start),
    )
    rng = np.random.default_rng(SEED)
    secret = (rng.random(500) < 0.5).astype(int)
    queries = dp.random_subset_queries(500, 2_000, rng=rng)
    answers = dp.subset_sum_answers(secret, queries, 0.5 * np.sqrt(500), rng=rng)
    row(
        "Dinur–Nissim: queries + answers + attack, n = 500, m = 2,000",
        median_ms(
            lambda: dp.subset_sum_attack(
                dp.random_subset_queries(500, 2_000, rng=1),
                answers,
            )
        ),
        "≤ 500 ms",
    )
    start = time.perf_counter()
    model.dn_curve(500, 2_000, SEED)
    row(
        "Dinur–Nissim curve, first call (10 attacks at n = 500, m = 2,000)",
        1000 * (time.perf_counter() - start),
    )

    from page_timing import MOVES, page_timings

    before = rss_mb(os.getpid())
    timed = page_timings("reconstruction/page.py", "recon_eps")
    row("page, first run (AppTest, nothing cached)", timed["first"])
    row("page rerun once warm (AppTest, median of 15)", timed["rerun"], "≤ 50 ms")
    row(f"ε moves between cached values (AppTest, median of {len(MOVES)})", timed["move"])
    print(f"\nProcess RSS: {before:,.0f} MB before the page, {rss_mb(os.getpid()):,.0f} MB after.")


if __name__ == "__main__":
    main()
