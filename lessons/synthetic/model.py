"""Cached computations of the lesson "Synthetic data": numbers and DataFrames.

A contingency table of a few banded census columns, released as synthetic data two ways:
the naive way (noisy one-way marginals, columns sampled independently) and MWEM over all
two-way marginals (dp/synthetic.py). Counts move by at most 1 when one person is added or
removed; the table's total n is public. The lesson always uses the bundled census."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

import dp
from data.banded import COLUMNS, Table, contingency_table
from ui import datasets, text

DEFAULT_COLUMNS = ("age band", "sex", "marital status", "education", "income")
MIN_COLUMNS, MAX_COLUMNS = 4, 6
EPSILONS: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
DEFAULT_EPSILON = 1.0
ROUNDS: tuple[int, ...] = (10, 50, 100, 200, 500, 1_000)
DEFAULT_ROUNDS = 500
SEED_NAIVE = 10  # offsets added to controls.seed()
SEED_MWEM = 20
SEED_ROWS = 30


@datasets.cached(census_only=True, max_entries=32)
def table(columns: tuple[str, ...]) -> Table:
    return contingency_table(datasets.census(), columns)


def pairs(columns: tuple[str, ...]) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(len(columns)), 2))


@datasets.cached(census_only=True, max_entries=32)
def workload(columns: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """All two-way marginal queries (rows) and, per row, which pair it belongs to."""
    t = table(columns)
    blocks, owner = [], []
    for i, pair in enumerate(pairs(columns)):
        q = dp.marginal_queries(t.shape, pair)
        blocks.append(q)
        owner += [i] * q.shape[0]
    return np.vstack(blocks).astype(float), np.array(owner)  # floats: BLAS for q @ x


# --- 2. the naive way ----------------------------------------------------------------------------


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def naive(columns: tuple[str, ...], epsilon: float, seed: int) -> np.ndarray:
    """Noisy one-way marginals (ε/c per column: each person is in one cell of each, so a
    column's marginal costs ε/c by parallel composition across its cells and the c columns
    add up by sequential composition), clipped at 0, and the columns assumed independent."""
    t = table(columns)
    rng = np.random.default_rng(seed)
    grid = t.counts.reshape(t.shape)
    shares = []
    for axis in range(len(t.shape)):
        marginal = grid.sum(axis=tuple(a for a in range(len(t.shape)) if a != axis))
        noisy = dp.laplace_mechanism(marginal, 1.0, epsilon / len(t.shape), rng=rng)
        noisy = np.clip(noisy, 0.0, None)
        shares.append(
            noisy / noisy.sum() if noisy.sum() > 0 else np.full(noisy.size, 1 / noisy.size)
        )
    product = shares[0]
    for share in shares[1:]:
        product = np.multiply.outer(product, share)
    return product.ravel() * t.n


def marginal_frame(
    counts: np.ndarray, columns: tuple[str, ...], pair: tuple[int, int], which: str
) -> pd.DataFrame:
    """The two-way marginal of `counts` over `pair`, one row per cell (a heatmap's data)."""
    t = table(columns)
    grid = counts.reshape(t.shape)
    others = tuple(a for a in range(len(t.shape)) if a not in pair)
    two = grid.sum(axis=others)
    a, b = (COLUMNS[columns[i]] for i in pair)
    rows = [
        (which, a.labels[i], b.labels[j], float(two[i, j]))
        for i in range(len(a.labels))
        for j in range(len(b.labels))
    ]
    return pd.DataFrame(rows, columns=["table", "row", "column", "count"])


# --- 3. MWEM -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Release:
    counts: np.ndarray
    chosen: np.ndarray  # per round, the pair whose marginal was measured


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def mwem(columns: tuple[str, ...], epsilon: float, rounds: int, seed: int) -> Release:
    t = table(columns)
    queries, owner = workload(columns)
    counts, chosen = dp.mwem_trace(t.counts, queries, epsilon, rounds, rng=seed)
    return Release(counts, owner[chosen])


def workload_error(columns: tuple[str, ...], counts: np.ndarray) -> tuple[float, float]:
    """(max, mean) absolute error over every two-way marginal cell, in people."""
    queries, _ = workload(columns)
    gap = np.abs(queries @ counts - queries @ table(columns).counts)
    return float(gap.max()), float(gap.mean())


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def errors_by_rounds(columns: tuple[str, ...], epsilon: float, seed: int) -> pd.DataFrame:
    """Workload error (max and mean) against T for MWEM, with the naive release at the same ε
    as flat lines (the real table's error is 0)."""
    rows = []
    naive_max, naive_mean = workload_error(columns, naive(columns, epsilon, seed + SEED_NAIVE))
    for t in ROUNDS:
        high, mean = workload_error(columns, mwem(columns, epsilon, t, seed + SEED_MWEM).counts)
        rows += [
            (t, "MWEM, max", high),
            (t, "MWEM, mean", mean),
            (t, "naive, max", naive_max),
            (t, "naive, mean", naive_mean),
        ]
    return pd.DataFrame(rows, columns=["rounds", "series", "error"])


@datasets.derived
def rounds_words(errors: pd.DataFrame, rounds: int, epsilon: float) -> str:
    """Who has the smaller largest error at T = rounds, in this run, and where the naive
    release wins, whether more or fewer rounds would change that here (read off the same
    curve the chart draws) or only a larger ε: at ε = 0.1 no T on the slider lets MWEM win,
    so "try more rounds" was wrong there (and at the slider's largest ε, so is "try a larger
    ε")."""
    wide = errors.pivot(index="rounds", columns="series", values="error")
    wins = wide.index[wide["MWEM, max"] < wide["naive, max"]]
    if rounds in wins:
        return "Here, in this run, MWEM beats the naive release on the largest error."
    if len(wins):
        at = ", ".join(f"{t:,}" for t in wins)
        return (
            "Here, in this run, the naive release still has the smaller largest error; on "
            f"the same seed MWEM beats it at T = {at} (where the chart's lines cross)."
        )
    larger = "; try a larger ε" if epsilon < max(EPSILONS) else ", even at the slider's largest"
    return (
        "Here, in this run, the naive release has the smaller largest error at every T on "
        f"the slider: at ε = {text.number(epsilon)} the budget is too thin for MWEM's "
        f"rounds{larger}."
    )


def choices_frame(columns: tuple[str, ...], release: Release) -> pd.DataFrame:
    names = [f"{columns[a]} × {columns[b]}" for a, b in pairs(columns)]
    counts = np.bincount(release.chosen, minlength=len(names))
    return pd.DataFrame({"marginal": names, "rounds": counts})


# --- 4. what it cannot do ------------------------------------------------------------------------


def majority_income(columns: tuple[str, ...]) -> tuple[str, float]:
    """The most common income band of the real table and its share: the accuracy of a
    classifier that answers it for everyone."""
    t = table(columns)
    axis = columns.index("income")
    counts = t.counts.reshape(t.shape).sum(axis=tuple(i for i in range(len(t.shape)) if i != axis))
    top = int(np.argmax(counts))
    return COLUMNS["income"].labels[top], float(counts[top] / counts.sum())


def three_way_error(columns: tuple[str, ...], counts: np.ndarray) -> float:
    """Mean absolute error over every three-way marginal cell (none of them in MWEM's
    workload), in people."""
    t = table(columns)
    gaps = []
    for triple in itertools.combinations(range(len(columns)), 3):
        q = dp.marginal_queries(t.shape, triple).astype(float)
        gaps.append(np.abs(q @ counts - q @ t.counts))
    return float(np.mean(np.concatenate(gaps)))


def rare_cells(
    columns: tuple[str, ...], release: Release, naive_counts: np.ndarray
) -> pd.DataFrame:
    """The 8 smallest non-empty real cells against their synthetic counts."""
    t = table(columns)
    order = [i for i in np.argsort(t.counts, kind="stable") if t.counts[i] > 0][:8]
    rows = []
    for cell in order:
        coords = np.unravel_index(cell, t.shape)
        label = ", ".join(COLUMNS[c].labels[k] for c, k in zip(columns, coords, strict=True))
        rows.append((label, int(t.counts[cell]), release.counts[cell], naive_counts[cell]))
    return pd.DataFrame(rows, columns=["people like this", "real", "MWEM", "naive"])


@datasets.cached(census_only=True, max_entries=32)
def classifier_accuracy(columns: tuple[str, ...], rounds: int, seed: int) -> pd.DataFrame:
    """Accuracy on the real table of a logistic regression predicting income from the other
    columns (one-hot), trained on real rows, on MWEM's synthetic rows and on the naive
    ones, at every ε of EPSILONS (needs the income column)."""
    from sklearn.linear_model import LogisticRegression  # scikit-learn: a runtime dependency

    t = table(columns)
    target = columns.index("income")
    cells = np.indices(t.shape).reshape(len(t.shape), -1).T  # every cell's codes

    def features(codes: np.ndarray) -> np.ndarray:
        blocks = [np.eye(t.shape[i])[codes[:, i]] for i in range(len(t.shape)) if i != target]
        return np.hstack(blocks)

    def accuracy(weights: np.ndarray) -> float:
        model = LogisticRegression(max_iter=500)
        labels = cells[:, target]
        if len(np.unique(labels[weights > 0])) < 2:
            return float(np.sum(t.counts * (labels == labels[np.argmax(weights)])) / t.n)
        model.fit(features(cells), labels, sample_weight=weights)
        predicted = model.predict(features(cells))
        return float(np.sum(t.counts * (predicted == labels)) / t.n)

    rows = [(eps, "trained on real data", accuracy(t.counts)) for eps in EPSILONS]
    for eps in EPSILONS:
        rows.append(
            (
                eps,
                "trained on MWEM's synthetic data",
                accuracy(mwem(columns, eps, rounds, seed + SEED_MWEM).counts),
            )
        )
        rows.append(
            (
                eps,
                "trained on the naive synthetic data",
                accuracy(naive(columns, eps, seed + SEED_NAIVE)),
            )
        )
    return pd.DataFrame(rows, columns=["epsilon", "model", "accuracy"])


def mwem_against_real(real: float, mwem_by_epsilon: pd.Series) -> str:
    """Where the classifier trained on MWEM's data stands against the one trained on the real
    table, in this state (columns and seed): below it at every ε, level with it (to the
    digits shown) or above it somewhere. With few columns, the two-way relationships MWEM
    measured can be all that a logistic regression on them uses."""
    best_at = float(mwem_by_epsilon.idxmax())
    best = float(mwem_by_epsilon.max())
    words = f"The real-data model reaches {text.percent(real)}; "
    if text.percent(best) == text.percent(real):
        where = "matches it"
    elif best > real:
        where = "passes it"
    else:
        return words + (
            f"MWEM's stays below it at every ε (at best {text.percent(best)}, at ε = "
            f"{text.number(best_at)}), because it kept only the two-way relationships it "
            "measured."
        )
    return words + (
        f"MWEM's {where} at ε = {text.number(best_at)} ({text.percent(best)}): with these "
        "columns, the two-way relationships it measured are enough for this classifier."
    )


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def synthetic_table(
    columns: tuple[str, ...], epsilon: float, rounds: int, seed: int
) -> pd.DataFrame:
    """n synthetic people drawn from MWEM's release, with the columns' labels (the CSV)."""
    t = table(columns)
    release = mwem(columns, epsilon, rounds, seed + SEED_MWEM)
    codes = dp.synthetic_rows(release.counts, t.n, t.shape, rng=seed + SEED_ROWS)
    return pd.DataFrame(
        {c: np.asarray(COLUMNS[c].labels, dtype=object)[codes[:, i]] for i, c in enumerate(columns)}
    )


def number_people(value: float) -> str:
    return text.number(round(value))


@datasets.cached()
def rounds_rule(rounds: int) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(rounds)], "label": [f"T = {text.number(rounds)}"]})


def valid_columns(picked: list[str]) -> str | None:
    """None if 4–6 columns are picked, else what is wrong, in words."""
    if len(picked) < MIN_COLUMNS:
        return f"Pick at least {MIN_COLUMNS} columns (you have {len(picked)})."
    if len(picked) > MAX_COLUMNS:
        return f"Pick at most {MAX_COLUMNS} columns (you have {len(picked)})."
    return None


def heatmap_frame(
    columns: tuple[str, ...], counts: np.ndarray, pair: tuple[int, int]
) -> pd.DataFrame:
    """The real and the synthetic two-way marginal over `pair`, one row per cell and table."""
    return pd.concat(
        [
            marginal_frame(table(columns).counts, columns, pair, "real"),
            marginal_frame(counts, columns, pair, "synthetic"),
        ],
        ignore_index=True,
    )


def rare_cells_display(
    columns: tuple[str, ...], release: Release, naive_counts: np.ndarray
) -> pd.DataFrame:
    """`rare_cells` with every number through the one formatter (whole people), and each
    cell's label as plain text: st.table reads cells as Markdown, and with income picked
    first a label starts ">50K, ..." (a block quote)."""
    frame = rare_cells(columns, release, naive_counts)
    frame["people like this"] = [text.plain(label) for label in frame["people like this"]]
    for column in ("real", "MWEM", "naive"):
        frame[column] = [number_people(v) for v in frame[column]]
    return frame


def one_table(frame: pd.DataFrame, which: str) -> pd.DataFrame:
    """The rows of `heatmap_frame` for one table ("real" or "synthetic"), for its heatmap."""
    return frame[frame["table"] == which].drop(columns="table").reset_index(drop=True)


SHOWN_PAIR = "age band × marital status"  # where the naive release loses the most


def default_pair(names: list[str]) -> int:
    return names.index(SHOWN_PAIR) if SHOWN_PAIR in names else 0


# --- what the page shows, cached by its settings (a rerun recomputes nothing: ARCHITECTURE §6) ---


@dataclass(frozen=True)
class View:
    """Everything section 3 shows at one (columns, ε, T, seed)."""

    release: Release
    mwem_error: tuple[float, float]
    naive_error: tuple[float, float]
    three_way: tuple[float, float]  # MWEM, naive
    choices: pd.DataFrame
    rare: pa.Table


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def view(columns: tuple[str, ...], epsilon: float, rounds: int, seed: int) -> View:
    release = mwem(columns, epsilon, rounds, seed + SEED_MWEM)
    naive_counts = naive(columns, epsilon, seed + SEED_NAIVE)
    return View(
        release,
        workload_error(columns, release.counts),
        workload_error(columns, naive_counts),
        (three_way_error(columns, release.counts), three_way_error(columns, naive_counts)),
        choices_frame(columns, release),
        pa.Table.from_pandas(
            rare_cells_display(columns, release, naive_counts), preserve_index=False
        ),
    )


@dataclass(frozen=True)
class NaiveView:
    error: tuple[float, float]
    frame: pd.DataFrame
    real: pd.DataFrame
    synthetic: pd.DataFrame


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def naive_view(
    columns: tuple[str, ...], epsilon: float, seed: int, pair: tuple[int, int]
) -> NaiveView:
    counts = naive(columns, epsilon, seed + SEED_NAIVE)
    frame = heatmap_frame(columns, counts, pair)
    return NaiveView(
        workload_error(columns, counts),
        frame,
        one_table(frame, "real"),
        one_table(frame, "synthetic"),
    )
