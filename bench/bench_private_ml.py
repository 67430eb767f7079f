"""Time the lesson "Privatized data for machine learning" (issue 16): one logistic-regression
fit on the census, the accuracy curve cold and cached, the page's first run and warm rerun,
and the process's memory before and after the page.

Prints a Markdown table; asserts nothing. Targets: one fit on 32k rows < 1 s; the curve
computed once per (columns, mechanism, seed) and then cached; page rerun ≤ 50 ms median once
warm; memory within Community Cloud's 690 MB.

    python bench/bench_private_ml.py
"""

from __future__ import annotations

import logging
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from lessons.private_ml import model  # noqa: E402
from session_memory import rss_mb  # noqa: E402
from ui import datasets  # noqa: E402

SEED = 2026
ALL = tuple(model.EXTRA_COLUMNS)


def median_ms(function, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def once_ms(function) -> float:
    start = time.perf_counter()
    function()
    return 1000 * (time.perf_counter() - start)


def row(what: str, ms: float, target: str = "") -> None:
    print(f"| {what} | {ms:,.1f} | {target} |", flush=True)


def main() -> None:
    # Outside `streamlit run`, cached functions log "missing ScriptRunContext": noise here.
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
        lambda record: "missing ScriptRunContext" not in record.getMessage()
    )
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

    from apptest_helpers import hosted_lesson

    print("| what | ms | target |")
    print("|---|---:|---|")
    datasets.clear_shared()
    before = rss_mb(os.getpid())
    start = time.perf_counter()
    at = hosted_lesson("private_ml/page.py", timeout_s=120)
    row("page, first run (AppTest, nothing cached)", 1000 * (time.perf_counter() - start))
    reruns = []
    for _ in range(15):
        start = time.perf_counter()
        at.run()
        reruns.append(time.perf_counter() - start)
    row("page rerun once warm (AppTest, median of 15)", 1000 * statistics.median(reruns), "≤ 50 ms")
    eps = at.select_slider(key="pml_eps")
    for value in (0.5, 2.0):
        eps.set_value(value).run()  # fit model (b) at these ε once
    moves = []
    for value in (0.5, 2.0, 0.5, 2.0, 1.0, 0.5, 2.0):
        start = time.perf_counter()
        eps.set_value(value).run()
        moves.append(time.perf_counter() - start)
    row("ε moves between fitted values (AppTest, median of 7)", 1000 * statistics.median(moves))
    start = time.perf_counter()
    eps.set_value(3.0).run()
    row("ε move to a new value (one fit of model (b))", 1000 * (time.perf_counter() - start))
    after = rss_mb(os.getpid())
    print(
        f"\nProcess RSS: {start_rss:,.0f} MB at start, {before:,.0f} MB before the page, "
        f"{after:,.0f} MB after it (+{after - before:,.0f} MB)."
    )


if __name__ == "__main__":
    main()
