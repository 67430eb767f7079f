"""The 2020 US Census in miniature (the numbers behind the page): TopDown on the course's
census, with its invented ZIP codes as the geography.

Geography: nation → region (the ZIP's first digit, 10) → ZIP3 (40) → ZIP5 (300). In every
unit a small histogram, sex × 3 age bands (6 cells), so a level's cells are its units × 6
and a cell's parent is the same histogram cell of its parent unit. Each person is in one
cell per level, so under add/remove-one-person neighbours every level's counts have
sensitivity 1: the discrete Gaussian with σ² = 1/(2ρ_ℓ) makes level ℓ ρ_ℓ-zCDP, and the
release is Σρ_ℓ-zCDP (dp/topdown.py, dp/gaussian.py). The nation's total is published exact,
as the states' totals were in 2020 (an invariant, outside the accounting: the guarantee
then holds between datasets with the same total, one person's record changed, which moves
two counts of a level: 2Σρ_ℓ-zCDP, the ε the page shows; the Bureau's ρ counts the same).

The split of ρ over levels starts from the Census's production proportions for its persons
file (US 104, State 1440, County 447, Tract 687, Block group 1256, Block 165, out of 4099:
`persons_geolevel_props` in the Bureau's DAS_2020_Redistricting_Production_Code), with
nation ← US, region ← State, ZIP3 ← County and ZIP5 ← the three levels below the county."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from ui import datasets, text

LEVELS = ("nation", "region", "ZIP3", "ZIP5")
# the persons file's proportions per geographic level, out of 4099 (`persons_geolevel_props`)
CENSUS_PROPORTIONS = {
    "US": 104,
    "State": 1440,
    "County": 447,
    "Tract": 687,
    "Block group": 1256,
    "Block": 165,
}
# mapped onto the four levels (nation ← US, region ← State, ZIP3 ← County, ZIP5 ← the rest)
CENSUS_LEVEL_PROPORTIONS = (104, 1440, 447, 687 + 1256 + 165)
# the sliders' defaults: those proportions in whole percent (3, 35, 11, 51; they add up to 100)
CENSUS_WEIGHTS = tuple(
    round(100 * p / sum(CENSUS_PROPORTIONS.values())) for p in CENSUS_LEVEL_PROPORTIONS
)
# 1.28: the 2020 persons tables' noise, whose ρ = 2.56 the Bureau counts for a changed record
RHOS: tuple[float, ...] = (0.05, 0.1, 0.2, 0.5, 1.0, 1.28, 2.0, 5.0, 10.0)
DEFAULT_RHO = 0.5
DELTA = 1e-10  # the δ the Census Bureau converts its ρ at
AGE_EDGES = (30, 50)  # bands 17–29, 30–49, 50+
AGE_BANDS = ("17–29", "30–49", "50+")
CELLS = tuple(f"{sex} {band}" for sex in ("men", "women") for band in AGE_BANDS)
RUNS = 10  # seeded TopDown runs behind "who pays"
SEED_RUNS = 1


@dataclass(frozen=True)
class Geography:
    units: tuple[tuple[str, ...], ...]  # per level ≥ 1: the unit names, in cell order
    unit_parents: tuple[np.ndarray, ...]  # per level ≥ 1: each unit's parent unit
    true: tuple[np.ndarray, ...]  # per level ≥ 1: the true counts, units × 6 cells, flat
    parents: tuple[np.ndarray, ...]  # per level ≥ 1: each cell's parent cell (dp.topdown's)
    total: int


@datasets.cached(census_only=True, max_entries=1)
def geography() -> Geography:
    """The units, the true counts of every level's cells and the cells' parents."""
    census = datasets.census()
    zips = census["Zip"].astype(str).to_numpy()
    zip5 = np.unique(zips)
    zip3 = np.unique([z[:3] for z in zip5])
    region = np.unique([z[0] for z in zip3])
    person_zip5 = np.searchsorted(zip5, zips)
    zip5_parent = np.searchsorted(zip3, [z[:3] for z in zip5])
    zip3_parent = np.searchsorted(region, [z[0] for z in zip3])
    band = np.digitize(census["Age"].to_numpy(), AGE_EDGES)
    cell = (census["Sex"] == "Female").to_numpy().astype(int) * len(AGE_BANDS) + band
    units_of_person = (
        np.zeros(len(census), dtype=np.int64),
        zip3_parent[zip5_parent[person_zip5]],
        zip5_parent[person_zip5],
        person_zip5,
    )
    sizes = (1, region.size, zip3.size, zip5.size)
    true = []
    for unit, size in zip(units_of_person, sizes, strict=True):
        counts = np.zeros((size, len(CELLS)), dtype=np.int64)
        np.add.at(counts, (unit, cell), 1)
        true.append(counts.ravel())
    unit_parents = (
        np.zeros(1, dtype=np.int64),
        np.zeros(region.size, dtype=np.int64),
        zip3_parent,
        zip5_parent,
    )
    parents = [np.zeros(len(CELLS), dtype=np.int64)]  # the nation's cells under the total
    for level in range(1, len(LEVELS)):
        parents.append((unit_parents[level][:, None] * len(CELLS) + np.arange(len(CELLS))).ravel())
    return Geography(
        units=(("nation",), tuple(f"region {r}" for r in region), tuple(zip3), tuple(zip5)),
        unit_parents=unit_parents,
        true=tuple(true),
        parents=tuple(parents),
        total=len(census),
    )


def level_rhos(rho: float, weights: tuple[int, ...]) -> np.ndarray:
    """ρ_ℓ = ρ·w_ℓ/Σw: the total split in proportion to the weights."""
    w = np.asarray(weights, dtype=float)
    return rho * w / w.sum()


def level_variances(rho: float, weights: tuple[int, ...]) -> np.ndarray:
    """σ²_ℓ = 1/(2ρ_ℓ): a sensitivity-1 count with discrete Gaussian noise is ρ_ℓ-zCDP."""
    return 1.0 / (2.0 * level_rhos(rho, weights))


@dataclass(frozen=True)
class Runs:
    noisy: tuple[np.ndarray, ...]  # per level: RUNS × cells, the noisy measurements
    final: tuple[np.ndarray, ...]  # per level: RUNS × cells, after TopDown


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def runs(rho: float, weights: tuple[int, ...], seed: int) -> Runs:
    """RUNS seeded releases: every level's true counts + discrete Gaussian noise
    (dp.discrete_gaussian, σ²_ℓ), then dp.topdown under the exact nation total."""
    geo = geography()
    rng = np.random.default_rng(seed)
    variances = level_variances(rho, weights)
    noisy = [np.empty((RUNS, t.size)) for t in geo.true]
    final = [np.empty((RUNS, t.size), dtype=np.int64) for t in geo.true]
    for run in range(RUNS):
        measured = [
            t + dp.discrete_gaussian(float(v), size=t.size, rng=rng)
            for t, v in zip(geo.true, variances, strict=True)
        ]
        released = dp.topdown(measured, list(geo.parents), geo.total)
        for level in range(len(LEVELS)):
            noisy[level][run] = measured[level]
            final[level][run] = released[level]
    return Runs(tuple(noisy), tuple(final))


EPSILON_LABEL = "ε with the exact total (2ρ, δ = 10⁻¹⁰)"


def epsilon_of(rho: float) -> float:
    """The ε (at δ = 10⁻¹⁰, dp.zcdp_to_approx_dp) that holds with the exact total: between
    datasets that share it, one person's record changed moves two counts of a level by 1
    (L2 sensitivity √2), so the noise calibrated as ρ under add/remove is 2ρ-zCDP there.
    The Bureau's published ρ is counted the same way (`bounded=True` in
    DAS_2020_Redistricting_Production_Code's programs/engine/curve.py and budget.py)."""
    return dp.zcdp_to_approx_dp(2 * rho, DELTA)


@datasets.cached(max_entries=64)
def levels_frame(rho: float, weights: tuple[int, ...]) -> pd.DataFrame:
    """Per level: its share of ρ, ρ_ℓ, the noise's SD (dp.discrete_gaussian_std: below its
    parameter σ_ℓ, far below when σ_ℓ is small), σ_ℓ, and the median true cell count."""
    geo = geography()
    rhos = level_rhos(rho, weights)
    variances = level_variances(rho, weights)
    return pd.DataFrame(
        {
            "level": list(LEVELS),
            "share": rhos / rho,
            "rho": rhos,
            "sd": [dp.discrete_gaussian_std(float(v)) for v in variances],
            "sigma": np.sqrt(variances),
            "median cell": [float(np.median(t)) for t in geo.true],
        }
    )


def sd_words(sd: float, sigma: float) -> str:
    """The ZIP5 noise's SD beside its parameter σ_ℓ, compared as they are now: the same to
    the digits shown while σ is large, far apart when it is small."""
    if text.number(sd) == text.number(sigma):
        return (
            "That is the noise's standard deviation, from its pmf; here it equals its parameter "
            r"$\sigma_\ell = \sqrt{1/(2\rho_\ell)}$"
            f" = {text.number(sigma)} to the digits shown. A discrete "
            "Gaussian's SD falls below σ when σ is under about 0.8 (try ρ = 10)."
        )
    ratio = sigma / sd
    # just under 0.8 the two differ in the 4th digit: "0.11% larger", not "1 times larger"
    larger = (
        f"{text.percent(ratio - 1, 2)} larger"
        if ratio < 1.01
        else f"{text.number(ratio, 3)} times larger"
    )
    return (
        "That is the noise's standard deviation, from its pmf; its parameter "
        r"$\sigma_\ell = \sqrt{1/(2\rho_\ell)}$"
        f" = {text.number(sigma)} is {larger}: a discrete Gaussian's variance is below σ², "
        "far below when σ is under about 0.8."
    )


# --- 2. Making it a table ---------------------------------------------------------------------
def zip3_choices() -> tuple[str, ...]:
    return geography().units[2]


DEFAULT_ZIP3_INDEX = 0


@datasets.derived
def children_frame(result: Runs, zip3_index: int, cell: int) -> pd.DataFrame:
    """The first run's ZIP5 counts of one ZIP3, one histogram cell: true, noisy, final."""
    geo = geography()
    units = np.flatnonzero(geo.unit_parents[3] == zip3_index)
    cells = units * len(CELLS) + cell
    return pd.DataFrame(
        {
            "zip": [geo.units[3][u] for u in units],
            "true": geo.true[3][cells],
            "noisy": result.noisy[3][0, cells],
            "final": result.final[3][0, cells],
        }
    )


def parent_count(result: Runs, zip3_index: int, cell: int) -> tuple[int, float, int]:
    """The parent's (ZIP3's) true count, its noisy measurement and its final count, first
    run."""
    geo = geography()
    at = zip3_index * len(CELLS) + cell
    return int(geo.true[2][at]), float(result.noisy[2][0, at]), int(result.final[2][0, at])


# --- 3. Who pays ------------------------------------------------------------------------------
@datasets.derived
def unit_errors(result: Runs) -> pd.DataFrame:
    """Per unit below the nation: its true population and the mean over the runs of
    |final total − true total| ÷ true total (the relative error of its population)."""
    geo = geography()
    rows = []
    for level in range(1, len(LEVELS)):
        true = geo.true[level].reshape(-1, len(CELLS)).sum(axis=1)
        final = result.final[level].reshape(RUNS, -1, len(CELLS)).sum(axis=2)
        relative = np.mean(np.abs(final - true), axis=0) / true
        rows.append(pd.DataFrame({"level": LEVELS[level], "people": true, "error": relative}))
    return pd.concat(rows, ignore_index=True)


COUNT_BINS = (0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 10_000)
NOISY = "noisy measurement"
FINAL = "after TopDown"


@datasets.derived
def bias_frame(result: Runs) -> pd.DataFrame:
    """ZIP5 cells grouped by their true count: the mean signed error of the noisy
    measurement and of the released count, ± 2 standard errors (over cells and runs)."""
    geo = geography()
    true = geo.true[3]
    edges = np.asarray(COUNT_BINS)
    which = np.digitize(true, edges[1:-1])
    rows = []
    for kind, values in ((NOISY, result.noisy[3]), (FINAL, result.final[3].astype(float))):
        errors = values - true[None, :]
        for b, label in enumerate(bin_labels()):
            chosen = errors[:, which == b].ravel()
            mean = float(chosen.mean()) if chosen.size else np.nan
            se = float(chosen.std(ddof=1) / np.sqrt(chosen.size)) if chosen.size > 1 else np.nan
            rows.append(
                {
                    "true count": label,
                    "kind": kind,
                    "bias": mean,
                    "low": mean - 2 * se,
                    "high": mean + 2 * se,
                    "cells": int(chosen.size),
                }
            )
    return pd.DataFrame(rows)


def bin_labels() -> tuple[str, ...]:
    """The bias chart's groups of true counts: "0", "3–4", …, "200+"."""
    edges = COUNT_BINS
    out = []
    for b in range(len(edges) - 1):
        low, high = edges[b], edges[b + 1] - 1
        out.append(
            f"{low}" if low == high else f"{low}–{high}" if b < len(edges) - 2 else f"{low}+"
        )
    return tuple(out)


ACCURATE = 0.05  # "accurate": a population within 5% on average


def accurate_from(errors: pd.DataFrame) -> int | None:
    """The smallest population p such that every unit (of any level) of at least p people
    has a mean relative error under ACCURATE: the next population above the largest unit
    that misses it (ties included: a unit of the same size as one that misses is not "from"
    it); None if even the largest units miss it."""
    people = errors["people"].to_numpy()
    bad = errors["error"].to_numpy() >= ACCURATE
    if not bad.any():
        return int(people.min())
    above = people[people > people[bad].max()]
    return int(above.min()) if above.size else None


@datasets.cached(max_entries=16)
def accurate_rule(people: int | None) -> pd.DataFrame:
    if people is None:
        return pd.DataFrame({"x": [np.nan], "label": [""]})
    return pd.DataFrame({"x": [float(people)], "label": [f"within 5% from {people:,}"]})


@datasets.cached(max_entries=64)
def levels_long(rho: float, weights: tuple[int, ...]) -> pd.DataFrame:
    """The levels chart's rows: per level, the noise SD and the median true cell count."""
    frame = levels_frame(rho, weights)
    return pd.DataFrame(
        {
            "level": list(frame["level"]) * 2,
            "kind": ["noise SD"] * len(frame) + ["median cell count"] * len(frame),
            "people": np.concatenate([frame["sd"], frame["median cell"]]),
        }
    )


TRUE_KIND, NOISY_KIND, FINAL_KIND = "true", "noisy", "released"


@datasets.derived
def children_long(children: pd.DataFrame) -> pd.DataFrame:
    """The children chart's rows: per ZIP5, its true, noisy and released count."""
    return pd.DataFrame(
        {
            "zip": list(children["zip"]) * 3,
            "kind": [TRUE_KIND] * len(children)
            + [NOISY_KIND] * len(children)
            + [FINAL_KIND] * len(children),
            "count": np.concatenate(
                [children["true"], children["noisy"], children["final"]]
            ).astype(float),
        }
    )


def weights_words(weights: tuple[int, ...]) -> str:
    shares = np.asarray(weights, dtype=float) / sum(weights)
    return ", ".join(f"{level} {text.percent(s)}" for level, s in zip(LEVELS, shares, strict=True))


SMALL_PLACE = (20, 40)  # the prediction's ZIP5s: this many people
ERROR_BANDS = ("under 1%", "1% to 5%", "5% to 20%", "20% or more")
ERROR_EDGES = (0.01, 0.05, 0.2)


def small_place_error(errors: pd.DataFrame) -> float:
    """The mean relative error of the ZIP5s of SMALL_PLACE people."""
    low, high = SMALL_PLACE
    chosen = errors[(errors["level"] == "ZIP5") & errors["people"].between(low, high)]
    return float(chosen["error"].mean())


def error_band(errors: pd.DataFrame) -> int:
    return int(np.searchsorted(ERROR_EDGES, small_place_error(errors), side="right"))


def zip3s_with_negatives(result: Runs, cell: int) -> tuple[str, ...]:
    """The ZIP3s of which a ZIP5 count of `cell` was measured below zero in the first run."""
    geo = geography()
    below = result.noisy[3][0, cell :: len(CELLS)] < 0  # one per ZIP5
    parents = np.unique(geo.unit_parents[3][below])
    return tuple(geo.units[2][int(p)] for p in parents)


def negatives_words(children: pd.DataFrame, result: Runs, cell: int, rho: float) -> str:
    """Which of one parent's children were measured below zero, and what they became; when
    none was, which other ZIP3s of this run have one in this cell, or, when none has, that
    a smaller ρ adds noise (not at the slider's smallest: "try a smaller ρ" was said there
    too, and "a ZIP3 with small ZIP5s" where no ZIP3 had one)."""
    negatives = children[children["noisy"] < 0]
    if negatives.empty:
        others = zip3s_with_negatives(result, cell)
        if others:
            named = ", ".join(others[:3]) + (", …" if len(others) > 3 else "")
            return (
                f"None measured below zero here; in this run {len(others)} of the "
                f"{len(zip3_choices())} ZIP3s have one in this cell ({named})."
            )
        if rho > min(RHOS):
            return (
                "None measured below zero here, nor in any ZIP3 in this cell in this run: a "
                "smaller ρ adds more noise."
            )
        return (
            "None measured below zero here, nor in any ZIP3 in this cell in this run, even "
            "at the slider's smallest ρ."
        )
    measured = ", ".join(f"{row.zip}: {text.number(row.noisy)}" for row in negatives.itertuples())
    released = ", ".join(f"{row.final}" for row in negatives.itertuples())
    return f"{len(negatives)} measured below zero ({measured}) and came out as {released}."


@datasets.cached(max_entries=64)
def levels_table(rho: float, weights: tuple[int, ...]) -> pd.DataFrame:
    """The levels as the page's table writes them."""
    levels = levels_frame(rho, weights)
    return pd.DataFrame(
        {
            "level": levels["level"],
            "share of ρ": [text.percent(s) for s in levels["share"]],
            "the level's ρ": [text.number(r) for r in levels["rho"]],
            "its σ": [text.number(s) for s in levels["sigma"]],
            "SD": [text.number(s) for s in levels["sd"]],
            "median cell": [text.number(m) for m in levels["median cell"]],
        }
    )


ERROR_FLOOR = 1e-4  # the who-pays chart's log axis starts here (an exact unit sits on it)


@datasets.derived
def units_frame(result: Runs) -> pd.DataFrame:
    """unit_errors with an error of 0 raised to ERROR_FLOOR, where the log axis starts."""
    errors = unit_errors(result)
    return errors.assign(error=errors["error"].clip(lower=ERROR_FLOOR))


def who_pays_alt(errors: pd.DataFrame, accurate: int | None) -> str:
    """The who-pays chart's numbers in words: each level's median error, and the size from
    which every place is within 5%."""
    medians = "; ".join(
        f"{level} {text.percent(float(errors[errors['level'] == level]['error'].median()))}"
        for level in LEVELS[1:]
    )
    tail = (
        f"Every unit of at least {accurate:,} people is within 5%."
        if accurate is not None
        else "Even the largest units are not all within 5%."
    )
    return (
        "Points for the 10 regions, 40 ZIP3s and 300 ZIP5s: population on a log axis against "
        f"the mean relative error of the released population. Median error: {medians}. {tail}"
    )


def bias_alt(bias: pd.DataFrame) -> str:
    """The bias chart's numbers in words: each group's mean signed error, measured and
    released."""

    def said(kind: str, lead: str) -> str:
        rows = bias[bias["kind"] == kind]
        return "; ".join(
            f"{label}{lead}{text.signed(b, 2)}"
            for label, b in zip(rows["true count"], rows["bias"], strict=True)
        )

    return (
        f"Mean signed error of ZIP5 cells grouped by their true count, over {RUNS} releases: "
        f"{said(NOISY, ': measured ')}; released {said(FINAL, ': ')}."
    )


@dataclass(frozen=True)
class WhoPays:
    """What section 3 says about one set of runs, each from the numbers."""

    accurate: int | None  # every place of at least this many people is within 5%
    alt: str  # the who-pays chart's words
    bias_alt: str  # the bias chart's words
    bias_said: str  # the paragraph under the bias chart
    small_error: float  # the prediction's ZIP5s' mean relative error
    band: int  # ... as an ERROR_BANDS index


@datasets.derived
def who_pays(result: Runs) -> WhoPays:
    """Section 3's numbers and words for `result`, made once per cached result: a first
    render wrote them from its frames again (11-13 ms of a 50 ms budget)."""
    errors = unit_errors(result)
    bias = bias_frame(result)
    accurate = accurate_from(errors)
    empty = bias[(bias["kind"] == FINAL) & (bias["true count"] == "0")]["bias"].iloc[0]
    said = (
        f"{bias_words(bias)} {measurement_words(bias)} A ZIP5 cell with no one in it is "
        f"released with {text.number(empty, 3)} people on average; add up many empty cells (a "
        "rare group in every block) and the bias is no longer small. The 2020 Census's users "
        "found exactly this in small places."
    )
    return WhoPays(
        accurate=accurate,
        alt=who_pays_alt(errors, accurate),
        bias_alt=bias_alt(bias),
        bias_said=said,
        small_error=small_place_error(errors),
        band=error_band(errors),
    )


def bias_words(bias: pd.DataFrame) -> str:
    """Which groups of ZIP5 cells these releases moved up or down beyond two standard
    errors (the chart's whiskers), from the numbers."""
    released = bias[bias["kind"] == FINAL]
    up = [f"{r._1} ({text.signed(r.bias, 2)})" for r in released.itertuples() if r.low > 0]
    down = [f"{r._1} ({text.signed(r.bias, 2)})" for r in released.itertuples() if r.high < 0]
    said = []
    if up:
        said.append(f"higher than true, beyond two standard errors: {', '.join(up)}")
    if down:
        said.append(f"lower: {', '.join(down)}")
    if not said:
        return "In these releases no group of cells moved beyond two standard errors."
    return (
        f"In these {RUNS} releases, the groups of cells by true count that came out "
        + "; ".join(said)
        + "."
    )


def measurement_words(bias: pd.DataFrame) -> str:
    """What the noisy measurements' group means show, from the numbers: each is unbiased, so
    a group beyond two standard errors of 0 is chance (about 1 group in 20)."""
    measured = bias[bias["kind"] == NOISY]
    off = [
        f"{r._1} ({text.signed(r.bias, 2)})"
        for r in measured.itertuples()
        if r.low > 0 or r.high < 0
    ]
    if not off:
        return (
            f"Every one of the {len(measured)} groups of measurements is within two standard "
            "errors of its true count, as unbiased noise should be."
        )
    return (
        f"{len(off)} of the {len(measured)} groups of measurements "
        f"{'sits' if len(off) == 1 else 'sit'} beyond two standard "
        f"errors ({', '.join(off)}): the noise has mean 0, and with {len(measured)} groups "
        "about 1 in 20 does so by chance."
    )
