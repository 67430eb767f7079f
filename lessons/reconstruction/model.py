"""Cached computations of the lesson "Reconstruction attacks".

A block: a few census people of one ZIP code, drawn by the seed, described by four
attributes (sex, age band, race group, income). The agency publishes every two-way table of
them; dp/reconstruction.py finds every dataset those tables allow, and the closest dataset to
noisy tables. The Dinur–Nissim part draws random subset-sum queries about n census people's
incomes and runs the least-squares attack. The math is in dp/reconstruction.py.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pyarrow as pa

import dp
from data.census import AGE_BAND_EDGES, AGE_BANDS
from ui import datasets, text
from ui.datasets import census

ATTRIBUTES: tuple[str, ...] = ("Sex", "Age band", "Race", "Income")
SEXES: tuple[str, ...] = ("Female", "Male")
AGE_EDGES = AGE_BAND_EDGES  # each band's first age (data/census.py)
RACES: tuple[str, ...] = ("White", "Black", "Other")  # Other: the census's three smallest groups
INCOMES: tuple[str, ...] = ("<=50K", ">50K")
VALUES: tuple[tuple[str, ...], ...] = (SEXES, AGE_BANDS, RACES, INCOMES)
LEVELS: tuple[int, ...] = tuple(len(v) for v in VALUES)
PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))

BLOCK_SIZES: tuple[int, ...] = tuple(range(6, 13))
DEFAULT_BLOCK_SIZE = 10
DEFAULT_ZIP = "05138"  # seed 2026: one dataset fits, every resident named
MAX_SOLUTIONS = 10_000  # consistent datasets counted before the page says "more than"

# The defence: ε of the whole release (all six tables), and the accuracy curve's grid.
EPSILON_CURVE: tuple[float, ...] = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
CURVE_DRAWS = 5  # noise draws averaged per ε
BASELINE_DRAWS = 2_000  # made-up blocks averaged for the "no tables" baseline

# Dinur–Nissim: n people, m queries, noise bound E = ratio · √n.
DN_PEOPLE: tuple[int, ...] = (50, 100, 200, 300, 500)
DN_QUERIES: tuple[int, ...] = (100, 250, 500, 1_000, 2_000)
DN_RATIOS: tuple[float, ...] = tuple(round(0.1 * i, 1) for i in range(41))  # 0 … 4
DN_CURVE_RATIOS: tuple[float, ...] = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0)

# Offsets added to the page seed, one per distinct draw.
SEED_BLOCK = 51
SEED_NOISE = 52
SEED_CURVE = 53
SEED_BASELINE = 54
SEED_DN = 55


# --- The block ------------------------------------------------------------------------------


def codes_of(people: pd.DataFrame) -> np.ndarray:
    """Each person's four attribute codes (sex, age band, race group, income): (n, 4)."""
    sex = (people["Sex"].astype(str) == "Male").to_numpy(dtype=np.int64)
    band = np.searchsorted(AGE_EDGES, people["Age"].to_numpy(), side="right") - 1
    race = people["Race"].astype(str).map({"White": 0, "Black": 1}).fillna(2).to_numpy()
    income = (people["Income"].astype(str) == ">50K").to_numpy(dtype=np.int64)
    return np.column_stack([sex, band, race, income]).astype(np.int64)


@datasets.cached(census_only=True)
def zip_sizes() -> pd.Series:
    """People per ZIP code of the census, by ZIP (sorted)."""
    return census().groupby("Zip", observed=True).size().sort_index()


@datasets.cached(census_only=True)
def zip_options() -> list[str]:
    """ZIP codes a block can come from: every one with at least the smallest block size."""
    sizes = zip_sizes()
    return [str(z) for z in sizes.index[sizes >= BLOCK_SIZES[0]]]


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def block(zip_code: str, size: int, seed: int) -> pd.DataFrame:
    """`size` people of ZIP `zip_code` drawn by the seed (all of them if fewer): Name, DOB,
    Sex, Age, Race, Income, their codes and labels, sorted by name."""
    people = census()
    rows = np.flatnonzero(people["Zip"].astype(str).to_numpy() == zip_code)
    rng = np.random.default_rng(seed + SEED_BLOCK)
    picked = np.sort(rng.choice(rows, size=min(size, rows.size), replace=False))
    frame = people.iloc[picked][["Name", "DOB", "Sex", "Age", "Race", "Income"]].copy()
    codes = codes_of(frame)
    frame["Age band"] = [AGE_BANDS[c] for c in codes[:, 1]]
    frame["Race group"] = [RACES[c] for c in codes[:, 2]]
    frame["Sex"] = frame["Sex"].astype(str)
    frame["Income"] = frame["Income"].astype(str)
    for i, name in enumerate(("sex_code", "band_code", "race_code", "income_code")):
        frame[name] = codes[:, i]
    return frame.sort_values("Name", ignore_index=True)


def block_codes(people: pd.DataFrame) -> np.ndarray:
    return people[["sex_code", "band_code", "race_code", "income_code"]].to_numpy()


def published_tables(people: pd.DataFrame) -> dict[tuple[int, int], np.ndarray]:
    """The six two-way tables the agency publishes for the block."""
    return dp.marginal_tables(block_codes(people), LEVELS)


# What the page shows of a block, by the block's arguments: cached results, not only their
# inputs, so a chart's Arrow form and a table's conversion are made once per process for the
# defaults every student opens with (~8 ms of this lesson's first render).
@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def published(zip_code: str, size: int, seed: int) -> dict[tuple[int, int], np.ndarray]:
    """`published_tables` of the block."""
    return published_tables(block(zip_code, size, seed))


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def published_download(zip_code: str, size: int, seed: int) -> pd.DataFrame:
    """`tables_download` of the block's published tables."""
    return tables_download(published(zip_code, size, seed))


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def reconstructed(zip_code: str, size: int, seed: int) -> pd.DataFrame:
    """`reconstruction_frame` of the block's attack."""
    return reconstruction_frame(attack(zip_code, size, seed))


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def linkage(zip_code: str, size: int, seed: int) -> pd.DataFrame:
    """`linkage_frame` of the block and its attack."""
    return linkage_frame(block(zip_code, size, seed), attack(zip_code, size, seed))


def table_frame(table: np.ndarray, pair: tuple[int, int]) -> pd.DataFrame:
    """One published table as the page shows it (st.table reads labels as Markdown: they
    are escaped): the attribute with more values down the side, so narrow columns fit;
    whole counts."""
    i, j = pair
    counts = np.asarray(table)
    if LEVELS[j] > LEVELS[i]:
        i, j, counts = j, i, counts.T
    return pd.DataFrame(
        counts,
        index=pd.Index([text.plain(v) for v in VALUES[i]], name=ATTRIBUTES[i]),
        columns=[text.plain(v) for v in VALUES[j]],
    )


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES * len(PAIRS))
def table_arrow(table: np.ndarray, pair: tuple[int, int]) -> pa.Table:
    """`table_frame` in Arrow form, made once per table and shared: st.table sends exactly
    the bytes it makes from the frame (index and all), but its own conversion costs ~1 ms a
    table, and the page shows twelve (a first render's CPU). Show it with
    `hide_index=False` (the frame's named index is shown): left to guess, st.table converts
    an Arrow table back to pandas to look at its index."""
    return pa.Table.from_pandas(table_frame(table, pair))


def table_title(pair: tuple[int, int]) -> str:
    """ "Rows × columns" as table_frame lays the table out."""
    i, j = pair
    if LEVELS[j] > LEVELS[i]:
        i, j = j, i
    return f"{ATTRIBUTES[i]} × {ATTRIBUTES[j]}"


# --- The exact attack ----------------------------------------------------------------------


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def attack(zip_code: str, size: int, seed: int) -> dict:
    """Every dataset the block's exact tables allow: how many (capped), whether the count is
    complete, the people pinned down (in every one), and how many the first one gets right."""
    people = block(zip_code, size, seed)
    truth = dp.joint_counts(block_codes(people), LEVELS)
    result = dp.reconstruct_from_marginals(
        published_tables(people), LEVELS, max_solutions=MAX_SOLUTIONS
    )
    first = result.solutions[0] if result.count else np.zeros_like(truth)
    return {
        "people": int(truth.sum()),
        "count": result.count,
        "complete": result.complete,
        "pinned": result.pinned_people,
        "pinned_counts": result.pinned,
        "first": first,
        "first_right": dp.reconstruction_matches(truth, first),
        "truth": truth,
    }


def count_text(result: dict) -> str:
    """ "1", "3" or "more than 10,000" (the search stopped)."""
    if not result["complete"]:
        return f"more than {result['count']:,}" if result["count"] else "too many to count"
    return f"{result['count']:,}"


def records_frame(counts: np.ndarray) -> pd.DataFrame:
    """Joint counts as one row per person with the four attributes' labels."""
    records = dp.records_from_counts(counts, LEVELS)
    return pd.DataFrame(
        {name: [VALUES[i][c] for c in records[:, i]] for i, name in enumerate(ATTRIBUTES)}
    )


def reconstruction_frame(result: dict) -> pd.DataFrame:
    """The reconstructed people (the first consistent dataset), each marked "pinned" when it
    is in every consistent dataset."""
    frame = records_frame(result["first"])
    left = result["pinned_counts"].copy()
    records = dp.records_from_counts(result["first"], LEVELS)
    cells = np.ravel_multi_index(records.T, LEVELS) if len(records) else np.zeros(0, int)
    pinned = []
    for cell in cells:
        pinned.append("yes" if left[cell] > 0 else "no")
        left[cell] = max(left[cell] - 1, 0)
    frame["In every dataset"] = pinned
    return frame


def linkage_frame(people: pd.DataFrame, result: dict) -> pd.DataFrame:
    """The linkage step: each resident's name, sex and age band (public: a voter list with
    birth dates) matched to the reconstructed records of the same sex and age band. Race and
    income are learned when every dataset agrees on them for that sex and age band."""
    first = dp.records_from_counts(result["first"], LEVELS)
    pinned = dp.records_from_counts(result["pinned_counts"], LEVELS)
    rows = []
    for person in people.to_dict("records"):
        key = (person["sex_code"], person["band_code"])
        same = [tuple(r[2:]) for r in first if (r[0], r[1]) == key]
        sure = [tuple(r[2:]) for r in pinned if (r[0], r[1]) == key]
        learned = len(set(same)) == 1 and len(sure) == len(same)
        race, income = (RACES[same[0][0]], INCOMES[same[0][1]]) if learned else ("?", "?")
        rows.append(
            {
                "Name": person["Name"],
                "Sex": person["Sex"],
                "Age band": person["Age band"],
                "Race (reconstructed)": race,
                "Income (reconstructed)": income,
                "Income (true)": person["Income"],
                "Learned": "yes" if learned else "no: several people match",
            }
        )
    return pd.DataFrame(rows)


# --- The defence --------------------------------------------------------------------------


def rounded(noisy: dict[tuple[int, int], np.ndarray]) -> dict[tuple[int, int], np.ndarray]:
    """Noisy tables as an agency publishes them: each count rounded to a whole number >= 0
    (post-processing: no privacy cost)."""
    return {
        pair: np.clip(np.rint(table), 0, None).astype(np.int64) for pair, table in noisy.items()
    }


def _defended(people: pd.DataFrame, epsilon: float, rng) -> tuple[dict, np.ndarray]:
    noisy = rounded(dp.noisy_marginal_tables(published_tables(people), LEVELS, epsilon, rng=rng))
    return noisy, dp.closest_dataset(noisy, LEVELS)


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def defence(zip_code: str, size: int, seed: int, epsilon: float) -> dict:
    """One noisy release of the block's tables at ε and the attacker's best guess from it:
    the dataset closest to the published (rounded) tables."""
    people = block(zip_code, size, seed)
    truth = dp.joint_counts(block_codes(people), LEVELS)
    noisy, guess = _defended(people, epsilon, np.random.default_rng(seed + SEED_NOISE))
    return {
        "tables": noisy,
        "guess": guess,
        "right": dp.reconstruction_matches(truth, guess),
        "guessed_people": int(guess.sum()),
        "people": int(truth.sum()),
        "scale": len(PAIRS) / epsilon,
    }


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def accuracy_curve(zip_code: str, size: int, seed: int) -> pd.DataFrame:
    """Share of the block's people the closest dataset gets exactly right, against ε:
    CURVE_DRAWS noisy releases per ε, their mean and its standard error ("epsilon", "share",
    "low", "high", "exact": the exact tables' share, "baseline")."""
    people = block(zip_code, size, seed)
    truth = dp.joint_counts(block_codes(people), LEVELS)
    n = int(truth.sum())
    rng = np.random.default_rng(seed + SEED_CURVE)
    rows = []
    for epsilon in EPSILON_CURVE:
        shares = [
            dp.reconstruction_matches(truth, _defended(people, epsilon, rng)[1]) / n
            for _ in range(CURVE_DRAWS)
        ]
        mean = float(np.mean(shares))
        se = float(np.std(shares, ddof=1) / math.sqrt(CURVE_DRAWS))
        rows.append({"epsilon": epsilon, "share": mean, "low": mean - se, "high": mean + se})
    frame = pd.DataFrame(rows)
    frame["low"] = frame["low"].clip(0, 1)
    frame["high"] = frame["high"].clip(0, 1)
    return frame


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def baseline_share(zip_code: str, size: int, seed: int) -> float:
    """What an attacker gets right without any table: n people made up from the census's
    nationwide mix of the four attributes (the mean over BASELINE_DRAWS made-up blocks)."""
    people = block(zip_code, size, seed)
    truth = dp.joint_counts(block_codes(people), LEVELS)
    nation = dp.joint_counts(codes_of(census()), LEVELS)
    rng = np.random.default_rng(seed + SEED_BASELINE)
    made_up = rng.multinomial(int(truth.sum()), nation / nation.sum(), size=BASELINE_DRAWS)
    return float(np.minimum(made_up, truth).sum(axis=1).mean() / truth.sum())


# --- Dinur–Nissim -------------------------------------------------------------------------


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def secret_bits(n: int, seed: int) -> np.ndarray:
    """The incomes (1 = >50K) of n census people drawn by the seed."""
    people = census()
    rows = np.random.default_rng(seed + SEED_DN).choice(len(people), size=n, replace=False)
    return (people["Income"].astype(str).to_numpy()[rows] == ">50K").astype(np.int64)


def majority_share(bits: np.ndarray) -> float:
    """Right answers from guessing the more common value for everyone (no queries)."""
    share = float(np.mean(bits))
    return max(share, 1 - share)


def _dn_accuracy(n: int, m: int, ratio: float, seed: int) -> float:
    bits = secret_bits(n, seed)
    rng = np.random.default_rng(seed + SEED_DN)
    queries = dp.random_subset_queries(n, m, rng=rng)
    answers = dp.subset_sum_answers(bits, queries, ratio * math.sqrt(n), rng=rng)
    return float(np.mean(dp.subset_sum_attack(queries, answers) == bits))


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def dn_attack(n: int, m: int, ratio: float, seed: int) -> dict:
    """One attack: n people, m queries, every answer within E = ratio·√n."""
    return {
        "accuracy": _dn_accuracy(n, m, ratio, seed),
        "bound": ratio * math.sqrt(n),
        "majority": majority_share(secret_bits(n, seed)),
    }


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def dn_curve(n: int, m: int, seed: int) -> pd.DataFrame:
    """The attack's share of right bits at each noise bound E = ratio·√n of DN_CURVE_RATIOS
    ("ratio", "bound", "share")."""
    return pd.DataFrame(
        {
            "ratio": DN_CURVE_RATIOS,
            "bound": [r * math.sqrt(n) for r in DN_CURVE_RATIOS],
            "share": [_dn_accuracy(n, m, r, seed) for r in DN_CURVE_RATIOS],
        }
    )


# The check-yourself question on E: n = 400, the page's default 1,000 queries, and the app's
# default seed, so the explanation reads the same for everyone (and in the class quiz).
QUIZ_PEOPLE = 400
QUIZ_QUERIES = 1_000
QUIZ_BOUNDS = (2.0, 100.0, 400.0)


@datasets.cached(census_only=True, max_entries=4)
def quiz_noise_explanation(seed: int) -> str:
    """The quiz's explanation, with the attack's measured accuracy at each E compared with
    guessing the majority value for everyone (not with a coin toss)."""
    n, root = QUIZ_PEOPLE, math.sqrt(QUIZ_PEOPLE)
    small, medium, large = (
        dn_attack(n, QUIZ_QUERIES, bound / root, seed)["accuracy"] for bound in QUIZ_BOUNDS
    )
    majority = majority_share(secret_bits(n, seed))
    best_noisy = max(medium, large)
    verdict = "no better than" if best_noisy <= majority else "only a little better than"
    verdict += " guessing '<=50K' for everyone"
    return (
        f"√{n} = {text.number(root)}. E = 2 is far below √n: with {QUIZ_QUERIES:,} queries the "
        f"attack gets {text.percent(small)} of the bits right. E = 100 and E = 400 are well "
        f"above √n: the rounded estimates are right {text.percent(medium)} and "
        f"{text.percent(large)} of the time, {verdict} ({text.percent(majority)}). The "
        "baseline to beat is the majority guess, not a coin toss: most people earn '<=50K'."
    )


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def dn_description(n: int, m: int, ratio: float, seed: int) -> str:
    """`describe_dn` at these sliders (the chart's alt text)."""
    return describe_dn(dn_curve(n, m, seed), n, m, dn_attack(n, m, ratio, seed))


def describe_dn(curve: pd.DataFrame, n: int, m: int, attack: dict) -> str:
    ends = curve["share"].to_numpy()
    return (
        f"Line chart: share of {n:,} incomes the attack gets right from {m:,} noisy subset "
        f"sums, against the noise bound E from 0 to 4·√n. {text.percent(ends[0])} at E = 0, "
        f"{text.percent(float(curve.loc[curve['ratio'] == 1.0, 'share'].iloc[0]))} at E = √n "
        f"= {text.number(math.sqrt(n))}, {text.percent(ends[-1])} at E = 4·√n. Your E = "
        f"{text.number(attack['bound'])}: {text.percent(attack['accuracy'])}. Guessing "
        f"'<=50K' for everyone: {text.percent(attack['majority'])}."
    )


def describe_curve(
    curve: pd.DataFrame,
    exact_share: float,
    baseline: float,
    epsilon: float,
    right: int,
    people: int,
) -> str:
    first, last = curve.iloc[0], curve.iloc[-1]
    return (
        f"Line chart: share of the block's {people} people the attacker reconstructs exactly "
        f"from noisy tables, against ε from {text.number(first['epsilon'])} to "
        f"{text.number(last['epsilon'])} (log scale): {text.percent(first['share'])} at the "
        f"left end, {text.percent(last['share'])} at the right; exact tables give "
        f"{text.percent(exact_share)}, made-up people {text.percent(baseline)}. At your "
        f"ε = {text.number(epsilon)} this release's guess has {right} of {people} right."
    )


# --- Chart data ---------------------------------------------------------------------------


@datasets.cached(census_only=True)
def levels_frame(
    rows: tuple[tuple[object, float], ...], placed: tuple[tuple[str, bool, bool], ...]
) -> pd.DataFrame:
    """Reference lines: one row per (words, share) of `rows`, its label the words and place
    (right, under) that charts.level_places chose: fields "share", "label", "right",
    "under"."""
    shares = [share for _, share in rows]
    labels, right, under = zip(*placed, strict=True)
    return pd.DataFrame(
        {"share": shares, "label": list(labels), "right": list(right), "under": list(under)}
    )


@datasets.cached(census_only=True)
def mark_frame(x_field: str, x: float, share: float) -> pd.DataFrame:
    """The chosen setting's point (its words are in the chart's title)."""
    return pd.DataFrame({x_field: [x], "share": [share]})


def tables_download(tables: dict[tuple[int, int], np.ndarray]) -> pd.DataFrame:
    """The published tables in one long CSV: table, row value, column value, count."""
    rows = []
    for (i, j), table in tables.items():
        for a, row_value in enumerate(VALUES[i]):
            for b, column_value in enumerate(VALUES[j]):
                rows.append(
                    {
                        "table": table_title((i, j)),
                        "row": f"{ATTRIBUTES[i]} = {row_value}",
                        "column": f"{ATTRIBUTES[j]} = {column_value}",
                        "count": int(table[a, b]),
                    }
                )
    return pd.DataFrame(rows)
