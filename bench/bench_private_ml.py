"""Time the lesson "Privatized data for machine learning": one logistic-regression
fit on the census, the accuracy curve cold and cached, the page's first run and warm rerun,
and the process's memory before and after the page.

Prints a Markdown table; asserts nothing. Targets: one fit on 32k rows < 1 s; the curve
computed once per (columns, mechanism, seed) and then cached; page rerun ≤ 50 ms median once
warm; memory within Community Cloud's 690 MB.

    python bench/bench_private_ml.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from page_timing import median_ms, once_ms, quiet_script_context, row  # noqa: E402

from session_memory import rss_mb  # noqa: E402
from ui import datasets  # noqa: E402
from ui import rr_training as model  # noqa: E402  (the lesson's training pipeline)

SEED = 2026
ALL = tuple(model.EXTRA_COLUMNS)


def main() -> None:
    quiet_script_context()
    print(f"# Privatized data for machine learning: timings ({os.cpu_count()} cores)\n")
    print("| what | ms | target |")
    print("|---|---:|---|")
    start_rss = rss_mb(os.getpid())
    for columns, label in (((), "age band × sex"), (ALL, "all 6 columns")):
        data = model.columns_data(columns)
        n = len(data["label"])
        blocks = [
            model.one_hot(c, len(k)) for c, k in zip(data["codes"], data["categories"], strict=True)
        ]
        features = np.hstack([model.standardised(data["clear"], np.arange(n)), *blocks])
        row(
            f"one fit on all {n:,} rows, {label} ({features.shape[1]} features)",
            median_ms(lambda f=features, y=data["label"]: model.fit(f, y)),
            "< 1,000 ms",
        )
    for columns, mechanism, label in (
        ((), model.GRR, "age band × sex, k-ary RR"),
        (ALL, model.OUE, "all 6 columns, OUE"),
    ):
        datasets.clear_shared()
        reference = once_ms(lambda c=columns: model.reference_models(c, SEED))
        row(f"reference models (a) and (c), first call: {label}", reference)
        curve = once_ms(lambda c=columns, m=mechanism: model.accuracy_curve(c, m, SEED))
        fits = len(model.EPSILON_CURVE) * model.REPEATS
        row(f"accuracy curve, first call ({fits} fits): {label}", curve)
        row(
            f"accuracy curve, cached: {label}",
            median_ms(lambda c=columns, m=mechanism: model.accuracy_curve(c, m, SEED)),
        )
    print(f"\nShared results after both curves: {datasets.shared_bytes() / 1e6:,.1f} MB.\n")

    from page_timing import MOVES, page_timings

    print("| what | ms | target |")
    print("|---|---:|---|")
    before = rss_mb(os.getpid())
    timed = page_timings("private_ml/page.py", "pml_eps")
    row("page, first run (AppTest, nothing cached)", timed["first"])
    row("page rerun once warm (AppTest, median of 15)", timed["rerun"], "≤ 50 ms")
    row(f"ε moves between fitted values (AppTest, median of {len(MOVES)})", timed["move"])
    start = time.perf_counter()
    timed["at"].select_slider(key="pml_eps").set_value(3.0).run()
    row("ε move to a new value (one fit of model (b))", 1000 * (time.perf_counter() - start))
    after = rss_mb(os.getpid())
    print(
        f"\nProcess RSS: {start_rss:,.0f} MB at start, {before:,.0f} MB before the page, "
        f"{after:,.0f} MB after it (+{after - before:,.0f} MB)."
    )


if __name__ == "__main__":
    main()
