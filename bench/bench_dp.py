"""Time the dp/ local-model mechanisms against the per-person Python loop a textbook writes.

Prints a Markdown table; asserts nothing. Run with `make bench` (or
`.venv/bin/python bench/bench_dp.py` from the repository root).

Inputs are synthetic (uniform values, 24 % ones for binary RR) so that n = 1,000,000 is
possible; the mechanisms' cost does not depend on the values.
"""

from __future__ import annotations

import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dp  # noqa: E402  (after the sys.path line above)

SIZES = (32_561, 1_000_000)
LOOP_SUBSAMPLE = 100_000  # above this, the Python loop runs on a subsample, scaled linearly
TEXTBOOK_SUBSAMPLE = 32_561  # the textbook loops are slower still: time at most this many
VECTOR_REPEATS = 7
LOOP_REPEATS = 3
EPSILON = 1.0
SEED = 2026


def timed_ms(function: Callable[[], object], repeats: int) -> tuple[float, float]:
    """(best, median) wall time of one `function()` call in milliseconds.

    A call much shorter than a millisecond is timed as a batch of calls (about 20 ms per
    repeat) divided by the batch size, as `timeit` does: one perf_counter pair around a
    20-microsecond call measures mostly the timer."""
    start = time.perf_counter()
    function()
    once = time.perf_counter() - start
    batch = max(1, int(0.02 / once)) if once < 0.001 else 1
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(batch):
            function()
        times.append((time.perf_counter() - start) * 1000 / batch)
    return min(times), statistics.median(times)


# --- the per-person loops, written the way a textbook writes them -----------------------------


def loop_randomized_response(truth: list[int], p: float, q: float) -> list[int]:
    reports = []
    for x in truth:
        if x == 1:
            reports.append(1 if random.random() < p else 0)
        else:
            reports.append(0 if random.random() < q else 1)
    return reports


def loop_grr(values: list[int], k: int, epsilon: float) -> list[int]:
    p = math.exp(epsilon) / (math.exp(epsilon) + k - 1)
    reports = []
    for v in values:
        if random.random() < p:
            reports.append(v)
        else:
            other = random.randrange(k - 1)
            reports.append(other if other < v else other + 1)
    return reports


def loop_ue(values: list[int], k: int, p: float, q: float) -> list[float]:
    ones = [0] * k
    for v in values:
        for i in range(k):
            if random.random() < (p if i == v else q):
                ones[i] += 1
    n = len(values)
    return [(c - n * q) / (p - q) for c in ones]


def loop_rr_count(truth: list[int], p: float, q: float) -> int:
    return sum(loop_randomized_response(truth, p, q))


def loop_grr_counts(values: list[int], k: int, epsilon: float) -> list[int]:
    counts = [0] * k
    for report in loop_grr(values, k, epsilon):
        counts[report] += 1
    return counts


# --- the same mechanisms as the Programming DP book writes them (Near & Abuah, ch. "Local
# Differential Privacy"): one numpy call per coin, per person -----------------------------------


def textbook_randomized_response(truth: list[int], p: float, q: float) -> list[int]:
    """The book's two fair coins (so p = q = 3/4): heads answers truthfully, tails lets a
    second coin answer."""
    assert p == q == 0.75, "the book's coins are fair"
    reports = []
    for x in truth:
        if np.random.randint(0, 2) == 0:  # noqa: NPY002  (first coin: heads, tell the truth)
            reports.append(x)
        else:  # tails: the second coin answers
            reports.append(1 if np.random.randint(0, 2) == 0 else 0)  # noqa: NPY002
    return reports


def textbook_grr(values: list[int], k: int, epsilon: float) -> list[int]:
    domain = list(range(k))
    reports = []
    for response in values:
        p = np.exp(epsilon) / (np.exp(epsilon) + k - 1)
        q = 1.0 / (np.exp(epsilon) + k - 1)
        probabilities = [p if d == response else q for d in domain]
        reports.append(int(np.random.choice(domain, p=probabilities)))  # noqa: NPY002
    return reports


def textbook_ue(values: list[int], k: int, p: float, q: float) -> list[float]:
    def perturb_bit(bit: int) -> int:
        sample = np.random.random()  # noqa: NPY002
        if bit == 1:
            return 1 if sample <= p else 0
        return 1 if sample <= q else 0

    responses = [[perturb_bit(1 if d == v else 0) for d in range(k)] for v in values]
    sums = np.sum(responses, axis=0)
    n = len(values)
    return [(v - n * q) / (p - q) for v in sums]


def textbook_rr_count(truth: list[int], p: float, q: float) -> int:
    return sum(textbook_randomized_response(truth, p, q))


def textbook_grr_counts(values: list[int], k: int, epsilon: float) -> list[int]:
    return np.bincount(textbook_grr(values, k, epsilon), minlength=k).tolist()


# --- the benchmark ----------------------------------------------------------------------------


def rows_for(n: int) -> list[tuple]:
    rng = np.random.default_rng(SEED)
    random.seed(SEED)
    truth = (rng.random(n) < 0.24).astype(np.int64)
    values4 = rng.integers(0, 4, n)
    values14 = rng.integers(0, 14, n)
    counts14 = np.bincount(values14, minlength=14)
    p_ue, q_ue = dp.oue_probabilities(EPSILON)

    m = min(n, LOOP_SUBSAMPLE)
    scaled = m < n
    truth_list, v4_list, v14_list = truth[:m].tolist(), values4[:m].tolist(), values14[:m].tolist()
    t = min(n, TEXTBOOK_SUBSAMPLE)
    truth_t, v4_t, v14_t = truth_list[:t], v4_list[:t], v14_list[:t]
    generator = np.random.default_rng(SEED)  # as a page passes it: no OS entropy per call

    def ue_vectorised() -> np.ndarray:
        return dp.ue_aggregate(dp.ue_perturb(dp.ue_encode(values14, 14), p_ue, q_ue), p_ue, q_ue)

    yes = int(truth.sum())
    cases: list[tuple[str, Callable[[], object], Callable[[], object], Callable[[], object]]] = [
        (
            "randomized_response (p = q = 0.75)",
            lambda: dp.randomized_response(truth, 0.75, 0.75, rng=generator),
            lambda: loop_randomized_response(truth_list, 0.75, 0.75),
            lambda: textbook_randomized_response(truth_t, 0.75, 0.75),
        ),
        (
            "grr_perturb (k = 4, ε = 1)",
            lambda: dp.grr_perturb(values4, 4, EPSILON, rng=generator),
            lambda: loop_grr(v4_list, 4, EPSILON),
            lambda: textbook_grr(v4_t, 4, EPSILON),
        ),
        (
            "grr_perturb (k = 14, ε = 1)",
            lambda: dp.grr_perturb(values14, 14, EPSILON, rng=generator),
            lambda: loop_grr(v14_list, 14, EPSILON),
            lambda: textbook_grr(v14_t, 14, EPSILON),
        ),
        (
            "ue_encode + ue_perturb + ue_aggregate (OUE, k = 14, ε = 1)",
            ue_vectorised,
            lambda: loop_ue(v14_list, 14, p_ue, q_ue),
            lambda: textbook_ue(v14_t, 14, p_ue, q_ue),
        ),
        (
            "sample_rr_counts (p = q = 0.75)",
            lambda: dp.sample_rr_counts(yes, n, 0.75, 0.75, rng=generator),
            lambda: loop_rr_count(truth_list, 0.75, 0.75),
            lambda: textbook_rr_count(truth_t, 0.75, 0.75),
        ),
        (
            "sample_grr_counts (k = 14, ε = 1)",
            lambda: dp.sample_grr_counts(counts14, EPSILON, rng=generator),
            lambda: loop_grr_counts(v14_list, 14, EPSILON),
            lambda: textbook_grr_counts(v14_t, 14, EPSILON),
        ),
        (
            "sample_ue_counts (OUE, k = 14, ε = 1)",
            lambda: dp.sample_ue_counts(counts14, p_ue, q_ue, rng=generator),
            lambda: loop_ue(v14_list, 14, p_ue, q_ue),
            lambda: textbook_ue(v14_t, 14, p_ue, q_ue),
        ),
    ]
    rows = []
    for name, vectorised, loop, textbook in cases:
        vector_ms = timed_ms(vectorised, VECTOR_REPEATS)
        best, median = timed_ms(loop, LOOP_REPEATS)
        t_best, t_median = timed_ms(textbook, LOOP_REPEATS)
        rows.append(
            (
                name,
                n,
                vector_ms,
                (best * n / m, median * n / m),
                (t_best * n / t, t_median * n / t),
                scaled or t < n,
            )
        )
    return rows


def main() -> None:
    print("# dp/ mechanisms: vectorised numpy vs a per-person Python loop\n")
    print(
        f"Machine: {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}, numpy {np.__version__}. Times in ms per call (calls "
        "under 1 ms timed in batches): median of "
        f"{VECTOR_REPEATS} (vectorised) or {LOOP_REPEATS} (loop) runs, best in parentheses. "
        f"Speed-up = loop median / vectorised median.\n"
    )
    print(
        "| mechanism | n | vectorised/sampler ms | textbook loop ms | speed-up vs textbook "
        "| stdlib-random loop ms | speed-up vs stdlib |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    any_scaled = False
    for n in SIZES:
        for name, size, (v_best, v_med), (_, l_med), (_, t_med), scaled in rows_for(n):
            any_scaled |= scaled
            mark = " *" if scaled else ""
            print(
                f"| {name} | {size:,} | {v_med:,.3f} ({v_best:,.3f}) | {t_med:,.0f}{mark} | "
                f"{t_med / v_med:,.0f}× | {l_med:,.1f}{mark} | {l_med / v_med:,.0f}× |"
            )
    if any_scaled:
        print(
            f"\n\\* Loops timed on the first {LOOP_SUBSAMPLE:,} (stdlib) or "
            f"{TEXTBOOK_SUBSAMPLE:,} (textbook) people and scaled linearly to n."
        )
    print(
        "\nTextbook loop: one numpy call per coin and per person, as the Programming DP book "
        "(Near & Abuah) writes the mechanisms (np.random.randint coins for binary RR, "
        "np.random.choice for k-ary RR, np.random.random per bit for unary encoding). "
        "Stdlib loop: the fastest plain-Python form (random.random), a stricter baseline."
    )
    olh_bench()
    mwem_bench()


def mwem_bench() -> None:
    """MWEM on the synthetic-data lesson's default columns at its defaults, ≤ 1 s."""
    from lessons.synthetic import model

    table = model.table(model.DEFAULT_COLUMNS)
    queries, _ = model.workload(model.DEFAULT_COLUMNS)

    def run() -> np.ndarray:
        return dp.mwem(table.counts, queries, model.DEFAULT_EPSILON, model.DEFAULT_ROUNDS, rng=0)

    best, median = timed_ms(run, 5)
    print(
        f"MWEM, {table.cells} cells, {queries.shape[0]} two-way marginal queries, "
        f"T = {model.DEFAULT_ROUNDS} at ε = {model.DEFAULT_EPSILON:g}: median {median:,.0f} ms "
        f"(best {best:,.0f}); target ≤ 1,000 ms, computed once per process at the defaults."
    )


def olh_bench() -> None:
    """OLH for 32,561 users over 100 candidates, perturb + estimate, ≤ 200 ms."""
    from data.census import load_census

    zips = load_census()["Zip"].astype(int).to_numpy()
    codes, counts = np.unique(zips, return_counts=True)
    candidates = codes[np.argsort(-counts, kind="stable")[:100]]

    def run() -> np.ndarray:
        seeds, reports = dp.olh_perturb(zips, 100_000, 2.0, rng=0)
        return dp.olh_estimate(seeds, reports, 100_000, 2.0, candidates=candidates)

    best, median = timed_ms(run, 9)
    print(
        f"\nOLH, {zips.size:,} census ZIP codes (k = 100,000), perturb + estimate of 100 "
        f"candidates at ε = 2: median {median:,.0f} ms (best {best:,.0f}); target ≤ 200 ms."
    )


if __name__ == "__main__":
    main()
