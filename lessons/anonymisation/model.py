"""Cached tables and chart builders for the lesson "Why anonymisation fails".

The pandas side of the attacks: quasi-identifier columns turned into integer codes (once
per process), the public "voter roll" and its join with the de-identified release, the
class-size and success-rate charts. The math (class sizes, uniqueness, the exact success
rate) lives in dp/attacks.py.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import dp
from data.quasi_identifiers import quasi_identifiers
from ui import datasets, text
from ui.datasets import census

ROLL_SEED = 1994  # fixed: the roll is part of the lesson's data, like the census itself
ROLL_SIZE = 2_000  # census people on the roll
ROLL_STRANGERS = 100  # voters the census never sampled (their join comes back empty)
LINK_KEYS = ("Zip", "DOB", "Sex")
REVEALED = ("Income", "MaritalStatus", "Occupation")
ATTACK_TRIES = 1_000
MISSING = "not recorded"

# Quasi-identifiers offered in the uniqueness explorer, from precise to coarse.
QUASI_IDENTIFIERS: tuple[str, ...] = (
    "ZIP code",
    "ZIP3 (first 3 digits)",
    "Date of birth",
    "Birth month",
    "Birth year",
    "Age",
    "Age band (10 years)",
    "Sex",
    "Race",
    "Marital status",
    "Education",
    "Occupation",
    "Workclass",
    "Relationship",
    "Native country",
)
SWEENEY_COLUMNS: tuple[str, ...] = ("ZIP code", "Date of birth", "Sex")

# k-anonymity class-size buckets shown on the chart (edges from dp/attacks.py).
CLASS_SIZE_LABELS: tuple[str, ...] = ("1 (unique)", "2", "3–5", "6–10", "11–50", "51+")
EPSILON_CURVE = tuple(float(e) for e in np.geomspace(0.01, 10, 121))

# Offsets added to the page seed, one per distinct draw.
SEED_ANSWER_ALL = 31
SEED_ANSWER_WITHOUT = 32
SEED_ATTACK = 33


def _codes(series: pd.Series) -> np.ndarray:
    """Integer codes of a column; a missing value (code -1) is a category of its own."""
    return pd.factorize(series, use_na_sentinel=True)[0].astype(np.int32)


@datasets.cached(census_only=True)
def quasi_identifier_codes() -> dict[str, np.ndarray]:
    """One int32 code array (32,561 entries) per quasi-identifier, computed once."""
    columns = quasi_identifiers(census())  # data/quasi_identifiers.py
    return {name: _codes(columns[name]) for name in QUASI_IDENTIFIERS}


def canonical(columns) -> tuple[str, ...]:
    """The chosen quasi-identifiers in the fixed order above (so the cache key is stable)."""
    chosen = set(columns)
    return tuple(name for name in QUASI_IDENTIFIERS if name in chosen)


@datasets.cached(census_only=True)
def uniqueness(columns: tuple[str, ...]) -> dict:
    """Share unique, number of classes, k and people per class-size bucket for a tuple of
    quasi-identifiers (call with `canonical(...)`)."""
    codes = quasi_identifier_codes()
    n = len(next(iter(codes.values())))
    matrix = (
        np.column_stack([codes[name] for name in columns])
        if columns
        else np.empty((n, 0), dtype=np.int32)
    )
    class_of_person, class_sizes = dp.equivalence_classes(matrix)
    per_person = class_sizes[class_of_person]
    return {
        "people": n,
        "share_unique": dp.share_unique(per_person),
        "classes": int(class_sizes.size),
        "k": dp.k_anonymity(per_person),
        "buckets": dp.people_by_class_size(per_person).tolist(),
    }


def _strangers(people: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Invented voters who are not in the census: a first name from someone of the same sex,
    a surname from someone else, a ZIP from the pool and a DOB in the census range."""
    taken = set(people["Name"])
    first = people["Name"].str.split().str[0]
    last = people["Name"].str.split().str[-1]
    zips = np.sort(people["Zip"].unique())
    lo, hi = people["DOB"].min(), people["DOB"].max()
    days = (hi - lo).days
    rows = []
    while len(rows) < ROLL_STRANGERS:
        donor = int(rng.integers(len(people)))
        sex = people["Sex"].iat[donor]
        name = f"{first.iat[donor]} {last.iat[int(rng.integers(len(people)))]}"
        if name in taken:
            continue
        taken.add(name)
        dob = lo + pd.Timedelta(days=int(rng.integers(days + 1)))
        rows.append((name, zips[int(rng.integers(len(zips)))], dob, sex))
    frame = pd.DataFrame(rows, columns=["Name", *LINK_KEYS])
    frame["Sex"] = pd.Categorical(frame["Sex"], categories=people["Sex"].cat.categories)
    return frame


@datasets.cached(census_only=True)
def voter_roll() -> pd.DataFrame:
    """The public roll: Name, Zip, DOB, Sex for 2,000 census people and 100 others, sorted by
    name, with `row` = the person's census row (-1 if not in the census) and `matches` =
    how many release rows share their (Zip, DOB, Sex)."""
    people = census()
    rng = np.random.default_rng(ROLL_SEED)
    picked = np.sort(rng.choice(len(people), size=ROLL_SIZE, replace=False))
    on_census = people.iloc[picked][["Name", *LINK_KEYS]].assign(row=picked)
    strangers = _strangers(people, rng).assign(row=-1)
    roll = pd.concat([on_census, strangers], ignore_index=True)
    key_counts = people.groupby(list(LINK_KEYS), observed=True).size().rename("matches")
    roll = roll.join(key_counts, on=list(LINK_KEYS))
    roll["matches"] = roll["matches"].fillna(0).astype(int)
    return roll.sort_values("Name", ignore_index=True)


@datasets.cached(census_only=True)
def default_voter() -> str:
    """The first voter (by name) who links to exactly one release row, is really that person
    and has a recorded occupation: the clearest first example."""
    roll = voter_roll()
    occupation_known = census()["Occupation"].notna().to_numpy()
    in_census = roll["row"].to_numpy() >= 0
    clear = (roll["matches"].to_numpy() == 1) & in_census
    clear[clear] = occupation_known[roll["row"].to_numpy()[clear]]
    return str(roll["Name"].iloc[int(clear.argmax())])


@datasets.cached(census_only=True)
def release_preview(rows: int = 8) -> pd.DataFrame:
    """The first rows of the 'de-identified' release: everything but Name and SSN."""
    preview = census().drop(columns=["Name", "SSN"]).head(rows)
    return preview.assign(DOB=preview["DOB"].dt.strftime("%Y-%m-%d"))


@datasets.cached(census_only=True)
def roll_preview(rows: int = 8) -> pd.DataFrame:
    """The first rows of the voter roll as shown: Name, Zip, DOB (a plain date), Sex."""
    preview = voter_roll()[["Name", *LINK_KEYS]].head(rows)
    return preview.assign(DOB=preview["DOB"].dt.strftime("%Y-%m-%d"))


@datasets.cached(census_only=True)
def link(name: str) -> pd.DataFrame:
    """Release rows (quasi-identifiers and revealed columns) whose (Zip, DOB, Sex) equal the
    voter's: the join of the roll with the release, for one name."""
    roll = voter_roll()
    voter = roll.loc[roll["Name"] == name]
    if voter.empty:
        return pd.DataFrame(columns=[*LINK_KEYS, *REVEALED])
    people = census()
    zip_code, dob, sex = (voter[col].iat[0] for col in LINK_KEYS)
    mask = (people["Zip"] == zip_code) & (people["DOB"] == dob) & (people["Sex"] == sex)
    found = people.loc[mask, [*LINK_KEYS, *REVEALED]]
    shown = {col: found[col].astype(str).where(found[col].notna(), MISSING) for col in REVEALED}
    return found.assign(
        DOB=found["DOB"].dt.strftime("%Y-%m-%d"), Sex=found["Sex"].astype(str), **shown
    )


def reidentified_words(name: str, found: pd.Series) -> str:
    """What one matching row gives away about `name`, with a column the census left empty
    said as such ("works as **not recorded** (occupation)" was shown)."""
    job = (
        "has no occupation on record"
        if found["Occupation"] == MISSING
        else f"works in **{found['Occupation']}**"
    )
    status = "" if found["MaritalStatus"] == MISSING else f", is **{found['MaritalStatus']}**"
    return (
        f"Exactly one match: re-identified. {name} earns **{found['Income']}**{status} and {job}."
    )


@datasets.cached(census_only=True)
def income_facts() -> dict:
    """The census count of >50K earners and each roll member's income (census people only)."""
    people = census()
    rich = (people["Income"] == ">50K").to_numpy()
    roll = voter_roll()
    members = roll.loc[roll["row"] >= 0]
    return {
        "count_rich": int(rich.sum()),
        "names": members["Name"].tolist(),
        "is_rich": dict(zip(members["Name"], rich[members["row"]].tolist(), strict=True)),
    }


@datasets.cached(census_only=True)
def success_curve() -> pd.DataFrame:
    """Exact success rate of the differencing attack over ε from 0.01 to 10."""
    return pd.DataFrame(
        {
            "epsilon": EPSILON_CURVE,
            "success": [dp.differencing_success_probability(e) for e in EPSILON_CURVE],
        }
    )


@datasets.cached(census_only=True)
def class_size_frame(buckets: list[int], people: int) -> pd.DataFrame:
    """People per class-size bucket, as rows for the chart."""
    return pd.DataFrame(
        {
            "bucket": CLASS_SIZE_LABELS,
            "people": buckets,
            "share": [b / people for b in buckets],
            "unique": [label == CLASS_SIZE_LABELS[0] for label in CLASS_SIZE_LABELS],
        }
    )


def describe_class_sizes(buckets: list[int], people: int, columns: tuple[str, ...]) -> str:
    """Alt text for the class-size chart."""
    parts = ", ".join(
        f"{label}: {count:,}" for label, count in zip(CLASS_SIZE_LABELS, buckets, strict=True)
    )
    on = ", ".join(columns) if columns else "no attributes"
    return f"Bar chart of the {people:,} people by how many share their {on}. {parts}."


@datasets.cached(census_only=True)
def success_marker(epsilon: float, exact: float, simulated: float, *, tries: int) -> pd.DataFrame:
    """The chosen ε on the success chart: the exact rate and the simulated one."""
    return pd.DataFrame(
        {
            "epsilon": [epsilon, epsilon],
            "success": [exact, simulated],
            "kind": ["exact", f"simulated ({tries:,} tries)"],
        }
    )


def success_title(epsilon: float, exact: float, simulated: float, *, tries: int) -> list[str]:
    """The success chart's title: at your ε, the exact rate (●) and the simulated one (◆)."""
    return [
        "Attacker's success versus ε",
        f"● exact at ε = {text.number(epsilon)}: {text.percent(exact)}",
        f"◆ {tries:,} simulated tries: {text.percent(simulated)}",
    ]


# ε from which the coin toss's label goes at its line's left end (charts.success): ~84 px
# wide, on a phone's plot (270 px over three decades) it reaches ε = 0.09 from the left and
# 1.2 from the right (a laptop's and a projector's reach less far): your ε's rule stays
# clear of it either way
COIN_LEFT_FROM = 0.3


@datasets.cached(census_only=True)
def coin_line(epsilon: float) -> pd.DataFrame:
    """The coin toss's 50% line, its label at the right end while ε is below COIN_LEFT_FROM."""
    return pd.DataFrame(
        {"success": [0.5], "label": ["coin toss: 50%"], "right": [epsilon < COIN_LEFT_FROM]}
    )


@datasets.cached(census_only=True)
def class_size_download(buckets: tuple[int, ...], people: int) -> pd.DataFrame:
    """The class-size chart's data as a download: bucket, people, share."""
    return class_size_frame(list(buckets), people)[["bucket", "people", "share"]]


@datasets.cached(census_only=True)
def zip_sizes() -> dict:
    """How many census people share each invented ZIP code: mean, median, smallest, largest."""
    sizes = census()["Zip"].value_counts()
    return {
        "mean": float(sizes.mean()),
        "median": int(sizes.median()),
        "min": int(sizes.min()),
        "max": int(sizes.max()),
    }
