"""Cached computations of the lesson "The sparse vector technique": numbers and DataFrames.

Every number comes from dp/ (dp/sparse_vector.py, dp/audit.py, dp/composition.py). The
queries are census counts and the lesson always uses the bundled census; every chart's axes
are fixed, so moving a slider shows change, not rescaling."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

import dp
from dp.sparse_vector import SPARSE_VECTOR_VARIANTS
from ui import datasets, text, work
from ui.controls import LOW_EPSILON_CURVE as CURVE_EPSILONS
from ui.controls import LOW_EPSILON_GRID as EPSILONS

# --- 1. the queries -------------------------------------------------------------------------------
AGE_STARTS: tuple[int, ...] = tuple(range(17, 90, 5))  # 17–21, 22–26, …, 87–91: 15 bands
HOURS_OVER = 40
THRESHOLDS: tuple[int, ...] = (250, 500, 750, 1_000, 1_250, 1_500)
DEFAULT_THRESHOLD = 1_000
DEFAULT_EPSILON = 0.01
NEVER = "never stops (all ⊥)"  # short: a bar label, cut past 220 px in presenter mode
RUNS = 1_000  # seeded runs drawn beside the exact probabilities
MAX_POSITIVES: tuple[int, ...] = tuple(range(1, 9))  # c on the slider
DEFAULT_POSITIVES = 3

# Offsets added to controls.seed(): one per distinct random draw on the page.
SEED_STOPS = 10
SEED_SPARSE = 20

EPSILON_OPTIONS = EPSILONS  # 0.001 … 10, as in "Choosing privately"


@dataclass(frozen=True)
class Queries:
    """The lesson's stream of counting queries: "how many people aged a to a + 4 work more
    than 40 hours a week?", one per age band, in age order. Each count moves by at most
    Δ = 1 when one person is added or removed."""

    labels: tuple[str, ...]
    answers: np.ndarray

    @property
    def m(self) -> int:
        return len(self.labels)


@datasets.cached(census_only=True, max_entries=1)
def queries() -> Queries:
    frame = datasets.census()
    age = frame["Age"].to_numpy()
    long_hours = frame["HoursPerWeek"].to_numpy() > HOURS_OVER
    answers = np.array([int(np.sum((age >= a) & (age <= a + 4) & long_hours)) for a in AGE_STARTS])
    labels = tuple(f"aged {a}–{a + 4}" for a in AGE_STARTS)
    return Queries(labels, answers.astype(float))


def true_positives(q: Queries, threshold: float) -> np.ndarray:
    """Which queries' true answers reach the threshold (the ones the analyst wants)."""
    return q.answers >= threshold


@datasets.derived
def answers_frame(q: Queries, threshold: float) -> pd.DataFrame:
    """One row per query: its label, true count and whether it is at or above T (chart 1)."""
    above = true_positives(q, threshold)
    return pd.DataFrame(
        {
            "query": list(q.labels),
            "true count": q.answers.astype(np.int64),
            "side": np.where(above, "at or above T", "below T"),
        }
    )


@datasets.cached()
def threshold_rule(threshold: float) -> pd.DataFrame:
    return pd.DataFrame(
        {"y": [float(threshold)], "label": [f"threshold T = {text.number(threshold)}"]}
    )


# --- 2. AboveThreshold ----------------------------------------------------------------------------


@datasets.cached(census_only=True, max_entries=len(THRESHOLDS) * len(EPSILONS))
def stop_probabilities(threshold: float, epsilon: float) -> np.ndarray:
    """Exact P[AboveThreshold stops at query i] (i = 0..m−1), then P[never] (Δ = 1)."""
    return dp.above_threshold_probabilities(queries().answers, threshold, epsilon)


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def stop_frame(threshold: float, epsilon: float, seed: int) -> pd.DataFrame:
    """One row per outcome (each query, then "never"): true count, exact chance, and the share
    of RUNS seeded runs that stopped there (what the chart draws and the CSV holds)."""
    q = queries()
    outcomes, _ = dp.sparse_vector_variant(
        q.answers, threshold, epsilon, 1, "correct", runs=RUNS, rng=seed
    )
    above = outcomes == 1
    stops = np.where(above.any(axis=1), above.argmax(axis=1), q.m)
    return pd.DataFrame(
        {
            "label": [*q.labels, NEVER],
            "true count": [*q.answers.astype(np.int64), -1],
            "exact probability": stop_probabilities(threshold, epsilon),
            "share of runs": np.bincount(stops, minlength=q.m + 1) / RUNS,
        }
    )


@datasets.derived
def bars_frame(frame: pd.DataFrame, threshold: float) -> pd.DataFrame:
    """The chart's rows: each label with its true count and side of T, e.g.
    "aged 27–31 (1,378 ≥ T)"."""

    def label(row) -> str:
        if row["true count"] < 0:
            return row["label"]
        side = "≥" if row["true count"] >= threshold else "<"
        return f"{row['label']} ({text.number(row['true count'])} {side} T)"

    return frame.assign(label=frame.apply(label, axis=1))


OUTCOMES = (
    "stops at a count ≥ T (true positive)",
    "stops at a count < T (false positive)",
    "never stops",
)


@datasets.cached(census_only=True, max_entries=len(THRESHOLDS))
def outcome_curves(threshold: float) -> pd.DataFrame:
    """Against ε (CURVE_EPSILONS): the exact chance that AboveThreshold stops at a query whose
    true count is at or above T, at one below T, or never."""
    above = true_positives(queries(), threshold)
    rows = []
    for epsilon in CURVE_EPSILONS:
        p = stop_probabilities(threshold, float(epsilon))
        parts = (p[:-1][above].sum(), p[:-1][~above].sum(), p[-1])
        rows.extend(
            (float(epsilon), name, float(v)) for name, v in zip(OUTCOMES, parts, strict=True)
        )
    return pd.DataFrame(rows, columns=["epsilon", "category", "probability"])


def outcome_shares(threshold: float, epsilon: float) -> dict[str, float]:
    """The three outcomes' exact chances at this ε (the metrics beside the chart)."""
    p = stop_probabilities(threshold, epsilon)
    above = true_positives(queries(), threshold)
    return dict(
        zip(
            OUTCOMES,
            (float(p[:-1][above].sum()), float(p[:-1][~above].sum()), float(p[-1])),
            strict=True,
        )
    )


@datasets.cached()
def epsilon_rule(epsilon: float) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(epsilon)], "label": [f"ε = {text.number(epsilon)}"]})


def noise_scales(epsilon: float, positives: int = 1) -> tuple[float, float]:
    """(threshold noise scale 2cΔ/ε, query noise scale 4cΔ/ε), Δ = 1."""
    return 2.0 * positives / epsilon, 4.0 * positives / epsilon


# --- 3. sparse vector with c positives ---------------------------------------------------------


@dataclass(frozen=True)
class SparseRuns:
    """RUNS seeded runs of the sparse vector at each c of MAX_POSITIVES: per c, the true
    positives missed and the false positives reported, per run on average."""

    curves: pd.DataFrame  # c, measure, value
    missed: dict[int, float]
    false_positives: dict[int, float]
    true_count: int


MISSED = "true positives missed"
FALSE = "false positives reported"
MEASURES = (MISSED, FALSE)


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def sparse_runs(threshold: float, epsilon: float, seed: int) -> SparseRuns:
    q = queries()
    above = true_positives(q, threshold)
    missed, false = {}, {}
    rows = []
    for c in MAX_POSITIVES:
        outcomes, _ = dp.sparse_vector_variant(
            q.answers, threshold, epsilon, c, "correct", runs=RUNS, rng=seed + c
        )
        reported = outcomes == 1
        hits = (reported & above).sum(axis=1)
        missed[c] = float(above.sum() - hits.mean())
        false[c] = float((reported & ~above).sum(axis=1).mean())
        rows += [(c, MISSED, missed[c]), (c, FALSE, false[c])]
    return SparseRuns(
        pd.DataFrame(rows, columns=["c", "measure", "value"]), missed, false, int(above.sum())
    )


@datasets.cached()
def c_rule(positives: int) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(positives)], "label": [f"c = {positives}"]})


@dataclass(frozen=True)
class Costs:
    """What finding the positives costs: the sparse vector (ε in all, ε/c per positive), and
    releasing all m noisy answers with the same query noise Lap(4cΔ/ε), each then
    ε/(4c)-DP, m of them by sequential composition."""

    sparse: float
    per_positive: float
    laplace_each: float
    laplace_all: float

    @property
    def sparse_cheaper(self) -> bool:
        return self.sparse < self.laplace_all


def costs(epsilon: float, positives: int, m: int) -> Costs:
    each = 1.0 / noise_scales(epsilon, positives)[1]  # ε of one Laplace answer, Δ = 1
    return Costs(
        epsilon,
        epsilon / positives,
        each,
        dp.sequential_composition([each] * m),
    )


# --- 4. spot the flaw -----------------------------------------------------------------------------
AUDIT_EPSILON = 2.0  # the ε every variant claims in the audit
AUDIT_ALPHA = 1e-6  # the audit's lower bound holds with probability ≥ 1 − α


@dataclass(frozen=True)
class Scenario:
    """One variant's audit: the neighbouring pair (each answer moves by at most Δ = 1), the
    threshold, the post-processing of the outputs into events, and the runs per side."""

    variant: str
    d: tuple[float, ...]
    d_prime: tuple[float, ...]
    threshold: float
    events: str  # "stop", "stop and value ≤ 1.5", "positives", "stopped"
    runs: int
    theory: str
    unbounded: bool  # private for no finite ε (the audit must catch it)


def _swap(m: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Lyu, Su & Li's pair: m queries at 0 then one at 1, against m at 1 then one at 0."""
    return (0.0,) * m + (1.0,), (1.0,) * m + (0.0,)


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "correct", *_swap(5), 0.5, "stop", 200_000, "ε-DP (Dwork & Roth, Theorem 3.23)", False
    ),
    Scenario(
        "no_query_noise",
        (0.0, 1.0),
        (1.0, 0.0),
        0.5,
        "stop",
        200_000,
        "∞: stopping at the 2nd query is impossible on D′",
        True,
    ),
    Scenario(
        "releases_value",
        *_swap(6),
        0.0,
        "stop and value ≤ 1.5",
        1_000_000,
        "no finite ε: the loss grows with the ⊥ before the positive",
        True,
    ),
    Scenario(
        "no_cutoff",
        (0.0,) * 40,
        (1.0,) * 40,
        0.0,
        "positives",
        200_000,
        "no finite ε: the loss grows with the number of queries",
        True,
    ),
    Scenario(
        "fresh_threshold",
        (0.0,) * 40,
        (1.0,) * 40,
        3.0,
        "stopped",
        200_000,
        "no finite ε: every ⊥ pays on its own",
        True,
    ),
    Scenario(
        "small_query_noise",
        *_swap(5),
        0.5,
        "stop",
        200_000,
        "≤ 1.5ε by the standard proof: a constant factor",
        False,
    ),
)
SCENARIO_BY_VARIANT = {s.variant: s for s in SCENARIOS}
VARIANT_LABELS = {
    "correct": "A. As in Dwork & Roth: threshold noise once, query noise 4cΔ/ε, stop after c",
    "no_query_noise": "B. No noise on the queries",
    "releases_value": "C. Releases the noisy query value with each ⊤",
    "no_cutoff": "D. Never stops: answers every query",
    "fresh_threshold": "E. Redraws the threshold noise for every query",
    "small_query_noise": "F. Query noise 2Δ/ε instead of 4cΔ/ε",
}
# The audit chart's row labels: short enough for a phone and a projector.
SHORT_LABELS = {
    "correct": "A. correct",
    "no_query_noise": "B. no query noise",
    "releases_value": "C. releases the value",
    "no_cutoff": "D. no cutoff",
    "fresh_threshold": "E. fresh threshold",
    "small_query_noise": "F. small query noise",
}
assert set(VARIANT_LABELS) == set(SPARSE_VECTOR_VARIANTS) == set(SCENARIO_BY_VARIANT)
assert set(SHORT_LABELS) == set(VARIANT_LABELS)


def events(outcomes: np.ndarray, released: np.ndarray, kind: str) -> np.ndarray:
    """Post-process one side's outputs into the audit's events (post-processing keeps any DP
    guarantee, so an audit on the events is a valid lower bound for the outputs)."""
    above = outcomes == 1
    stopped = above.any(axis=1)
    first = np.where(stopped, above.argmax(axis=1), -1)
    if kind == "stop":
        return first
    if kind == "stop and value ≤ 1.5":
        value = released[np.arange(len(first)), np.maximum(first, 0)]
        return 2 * first + (stopped & (value <= 1.5))
    if kind == "positives":
        return above.sum(axis=1)
    if kind == "stopped":
        return stopped.astype(np.int64)
    raise ValueError(f"kind must be one of the scenario events, got {kind!r}")


def audit_events(scenario: Scenario, variant: str | None = None, seed: int = 0) -> list[np.ndarray]:
    """The events of `variant` (by default the scenario's own) run `scenario.runs` times on
    each side of the scenario's pair (D, then D′), at AUDIT_EPSILON, c = 1."""
    name = variant or scenario.variant
    sides = []
    for offset, answers in enumerate((scenario.d, scenario.d_prime)):
        outcomes, released = dp.sparse_vector_variant(
            answers,
            scenario.threshold,
            AUDIT_EPSILON,
            1,
            name,
            runs=scenario.runs,
            rng=seed + offset,
        )
        sides.append(events(outcomes, released, scenario.events))
    return sides


def audit(scenario: Scenario, variant: str | None = None, seed: int = 0) -> float:
    """dp.audit_epsilon on the events of `audit_events`: a lower bound on the variant's ε."""
    return dp.audit_epsilon(*audit_events(scenario, variant, seed), alpha=AUDIT_ALPHA)


def telling_share(scenario: Scenario, on_d: np.ndarray) -> float | None:
    """For "stop and value ≤ 1.5": the share of D's runs that stop at the last question with
    a released value ≤ 1.5, the rare output that shows variant C's leak (else None)."""
    if scenario.events != "stop and value ≤ 1.5":
        return None
    return float(np.mean(on_d == 2 * (len(scenario.d) - 1) + 1))


def exact_on_pair(scenario: Scenario) -> float | None:
    """The exact ε the variant spends on its pair (the largest |ln P_D(o) − ln P_D′(o)| over
    the stop index o), where dp computes it: AboveThreshold with its own noise scales."""
    if scenario.variant not in ("correct", "small_query_noise", "no_query_noise"):
        return None
    if scenario.variant == "no_query_noise":
        return math.inf
    threshold_scale, query_scale = noise_scales(AUDIT_EPSILON)
    if scenario.variant == "small_query_noise":
        query_scale /= 2.0
    p, q = (
        dp.stopping_probabilities(np.array(side), scenario.threshold, threshold_scale, query_scale)
        for side in (scenario.d, scenario.d_prime)
    )
    keep = (p > 0) & (q > 0)
    return float(np.max(np.abs(np.log(p[keep]) - np.log(q[keep]))))


@dataclass(frozen=True)
class AuditRow:
    variant: str
    label: str
    claimed: float
    measured: float
    exact: float | None
    theory: str
    caught: bool
    broken: bool
    runs: int
    telling: float | None  # variant C: how often its telling output comes up on D


def audit_table() -> tuple[AuditRow, ...]:
    """Every variant audited on its own pair: data-free, so computed once per process (5.5 s
    of CPU on the 2-core box) and shared (ui/work.py): started in the background when the
    page opens, so it is usually done before a student presses "Run the audit"; a whole
    room pressing at once waits for that one computation, watching its progress."""
    return AUDIT_WORK.result()


# The audit's wait, measured on the 2-core test box from the button to the table, the audit
# not yet started: 5.5 s of CPU on a quiet server (7.8 s beside a test run); 6-9 s in a
# walkthrough. Usually no wait: it starts when the page opens.
AUDIT_QUIET_S, AUDIT_BUSY_S = 6, 15


def audit_progress_label() -> str:
    """What the progress bar says while the audit runs."""
    runs = [s.runs for s in SCENARIOS]
    return (
        f"Auditing {len(SCENARIOS)} versions, {text.number(min(runs))} to "
        f"{text.number(max(runs))} runs each, once for the whole class: about "
        f"{AUDIT_QUIET_S} s on a quiet server, up to {AUDIT_BUSY_S} s while a room is busy."
    )


def _audit_table() -> tuple[AuditRow, ...]:
    rows = []
    for done, s in enumerate(SCENARIOS, start=1):
        sides = audit_events(s)
        measured = dp.audit_epsilon(*sides, alpha=AUDIT_ALPHA)
        rows.append(
            AuditRow(
                s.variant,
                VARIANT_LABELS[s.variant],
                AUDIT_EPSILON,
                measured,
                exact_on_pair(s),
                s.theory,
                measured > AUDIT_EPSILON,
                s.variant != "correct",
                s.runs,
                telling_share(s, sides[0]),
            )
        )
        work.step(f"Audited {done} of {len(SCENARIOS)} versions.")
    return tuple(rows)


AUDIT_WORK = work.SharedWork("svt-audit", len(SCENARIOS), _audit_table)


@datasets.cached(census_only=True, max_entries=1)
def correct_on_every_pair() -> float:
    """The correct algorithm audited on every scenario's pair and events: its largest
    measured ε (it must stay at or below AUDIT_EPSILON)."""
    return max(audit(s, "correct", seed=100) for s in SCENARIOS)


def audit_ceiling(runs: int) -> float:
    """The largest ε an audit with `runs` per side can show at all: an event seen in every run
    on D and never on D′ (dp.audit_epsilon on two fully separated samples)."""
    return dp.audit_epsilon(np.zeros(runs), np.ones(runs), alpha=AUDIT_ALPHA)


def audit_frame(rows: tuple[AuditRow, ...], guesses: set[str]) -> pd.DataFrame:
    """The audit's table for the page and the CSV: one row per variant."""
    return pd.DataFrame(
        {
            "variant": [r.label for r in rows],
            "you said": ["broken" if r.variant in guesses else "private" for r in rows],
            "claimed ε": [r.claimed for r in rows],
            "measured ε (lower bound)": [r.measured for r in rows],
            "what theory says": [r.theory for r in rows],
            "audit verdict": [
                "caught: above its claim" if r.caught else "not caught" for r in rows
            ],
            "runs per side": [r.runs for r in rows],
        }
    )


def audit_bars(rows: tuple[AuditRow, ...]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "label": [SHORT_LABELS[r.variant] for r in rows],
            "measured": [r.measured for r in rows],
            "verdict": ["caught" if r.caught else "not caught" for r in rows],
        }
    )


def claim_rule() -> pd.DataFrame:
    return pd.DataFrame(
        {"x": [AUDIT_EPSILON], "label": [f"claimed ε = {text.number(AUDIT_EPSILON)}"]}
    )


def guess_score(rows: tuple[AuditRow, ...], guesses: set[str]) -> tuple[int, int]:
    """(variants the student judged right, all variants): broken means not ε-DP as claimed."""
    right = sum((r.variant in guesses) == r.broken for r in rows)
    return right, len(rows)


def audit_table_display(rows: tuple[AuditRow, ...], guesses: frozenset[str]) -> pd.DataFrame:
    """The audit's table as the page shows it, every number through the one formatter (what
    theory says about each is in the page's words below it, and in the CSV)."""
    return pd.DataFrame(
        {
            "version": [r.label.split(".")[0] for r in rows],
            "you said": ["broken" if r.variant in guesses else "private" for r in rows],
            "measured ε ≥": [text.number(r.measured) for r in rows],
            "exact ε on the pair": ["—" if r.exact is None else text.number(r.exact) for r in rows],
            "verdict": ["caught" if r.caught else "not caught" for r in rows],
        }
    )


def audit_table_arrow(rows: tuple[AuditRow, ...], guesses: set[str]) -> pa.Table:
    """`audit_table_display` in Arrow form (st.table with hide_index=True)."""
    return pa.Table.from_pandas(audit_table_display(rows, frozenset(guesses)), preserve_index=False)
