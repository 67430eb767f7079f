"""Cached tables and chart builders for the lesson "Why anonymisation fails".

The pandas side of the attacks: quasi-identifier columns turned into integer codes (once
per process), the public "voter roll" and its join with the de-identified release, the
class-size and success-rate charts. The math (class sizes, uniqueness, the exact success
rate) lives in dp/attacks.py.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

import dp
from ui import charts
from ui.data import census

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


def _codes(series: pd.Series) -> np.ndarray:
    """Integer codes of a column; a missing value (code -1) is a category of its own."""
    return pd.factorize(series, use_na_sentinel=True)[0].astype(np.int32)


@st.cache_data(show_spinner=False)
def quasi_identifier_codes() -> dict[str, np.ndarray]:
    """One int32 code array (32,561 entries) per quasi-identifier, computed once."""
    people = census()
    dob = people["DOB"]
    columns = {
        "ZIP code": people["Zip"],
        "ZIP3 (first 3 digits)": people["Zip"].str[:3],
        "Date of birth": dob,
        "Birth month": dob.dt.year * 100 + dob.dt.month,
        "Birth year": dob.dt.year,
        "Age": people["Age"],
        "Age band (10 years)": people["Age"] // 10,
        "Sex": people["Sex"],
        "Race": people["Race"],
        "Marital status": people["MaritalStatus"],
        "Education": people["Education"],
        "Occupation": people["Occupation"],
        "Workclass": people["Workclass"],
        "Relationship": people["Relationship"],
        "Native country": people["NativeCountry"],
    }
    return {name: _codes(columns[name]) for name in QUASI_IDENTIFIERS}


def canonical(columns) -> tuple[str, ...]:
    """The chosen quasi-identifiers in the fixed order above (so the cache key is stable)."""
    chosen = set(columns)
    return tuple(name for name in QUASI_IDENTIFIERS if name in chosen)


@st.cache_data(show_spinner=False)
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


@st.cache_data(show_spinner=False)
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


@st.cache_data(show_spinner=False)
def default_voter() -> str:
    """The first voter (by name) who links to exactly one release row, is really that person
    and has a recorded occupation: the clearest first example."""
    roll = voter_roll()
    occupation_known = census()["Occupation"].notna().to_numpy()
    in_census = roll["row"].to_numpy() >= 0
    clear = (roll["matches"].to_numpy() == 1) & in_census
    clear[clear] = occupation_known[roll["row"].to_numpy()[clear]]
    return str(roll["Name"].iloc[int(clear.argmax())])


@st.cache_data(show_spinner=False)
def release_preview(rows: int = 8) -> pd.DataFrame:
    """The first rows of the 'de-identified' release: everything but Name and SSN."""
    preview = census().drop(columns=["Name", "SSN"]).head(rows)
    return preview.assign(DOB=preview["DOB"].dt.strftime("%Y-%m-%d"))


@st.cache_data(show_spinner=False)
def roll_preview(rows: int = 8) -> pd.DataFrame:
    """The first rows of the voter roll as shown: Name, Zip, DOB (a plain date), Sex."""
    preview = voter_roll()[["Name", *LINK_KEYS]].head(rows)
    return preview.assign(DOB=preview["DOB"].dt.strftime("%Y-%m-%d"))


@st.cache_data(show_spinner=False)
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


@st.cache_data(show_spinner=False)
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


@st.cache_data(show_spinner=False)
def success_curve() -> pd.DataFrame:
    """Exact success rate of the differencing attack over ε from 0.01 to 10."""
    return pd.DataFrame(
        {
            "epsilon": EPSILON_CURVE,
            "success": [dp.differencing_success_probability(e) for e in EPSILON_CURVE],
        }
    )


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


@st.cache_data(show_spinner=False)
def _class_size_base_spec(people: int, title: str) -> dict:
    """The class-size chart as a Vega-Lite dict reading the named dataset "classes" (filled
    in by `class_size_spec`): building an Altair chart costs tens of ms, a dict copy does not."""
    base = alt.Chart(alt.Data(name="classes")).encode(
        x=alt.X(
            "bucket:N",
            sort=list(CLASS_SIZE_LABELS),
            scale=alt.Scale(domain=list(CLASS_SIZE_LABELS)),
            title="people sharing your combination (class size)",
            axis=alt.Axis(labelAngle=0),
        ),
        y=alt.Y(
            "share:Q",
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(format="%"),
            title=f"share of the {people:,} people",
        ),
    )
    bars = base.mark_bar().encode(
        color=alt.condition(alt.datum.unique, alt.value(charts.VERMILLION), alt.value(charts.BLUE)),
        tooltip=[
            alt.Tooltip("bucket:N", title="class size"),
            alt.Tooltip("people:Q", format=",", title="people"),
            alt.Tooltip("share:Q", format=".1%", title="share"),
        ],
    )
    labels = base.mark_text(dy=-8, fontWeight="bold").encode(text=alt.Text("people:Q", format=","))
    chart = (bars + labels).properties(
        title=title, height=charts.DEFAULT_HEIGHT, width=charts.DEFAULT_WIDTH
    )
    return charts.vega_template(chart)


def class_size_spec(buckets: tuple[int, ...], people: int, *, title: str) -> dict:
    """Vega-Lite spec of the bar chart of how many people share their combination: fixed
    categories, a fixed 0–100% axis, the unique bar vermillion, every bar labelled with its
    count."""
    frame = class_size_frame(list(buckets), people)
    return charts.fill_template(_class_size_base_spec(people, title), datasets={"classes": frame})


def describe_class_sizes(buckets: list[int], people: int, columns: tuple[str, ...]) -> str:
    """Alt text for the class-size chart."""
    parts = ", ".join(
        f"{label}: {count:,}" for label, count in zip(CLASS_SIZE_LABELS, buckets, strict=True)
    )
    on = ", ".join(columns) if columns else "no attributes"
    return f"Bar chart of the {people:,} people by how many share their {on}. {parts}."


@st.cache_data(show_spinner=False)
def _success_base_spec(right_half: bool, tries: int) -> dict:
    """The static part of the success chart as a Vega-Lite dict; the marker layers read the
    named dataset "marker", filled in by `success_spec`."""
    x = alt.X(
        "epsilon:Q",
        scale=alt.Scale(type="log", domain=[0.01, 10], nice=False),
        axis=alt.Axis(values=[0.01, 0.1, 1, 10], format="~g"),
        title="privacy loss ε per query (log scale)",
    )
    y_scale = alt.Scale(domain=[0.4, 1.0], nice=False)
    y = alt.Y("success:Q", scale=y_scale, axis=alt.Axis(format="%"), title="attacker guesses right")
    curve = (
        alt.Chart(success_curve())
        .mark_line(color=charts.BLUE, strokeWidth=3)
        .encode(
            x=x,
            y=y,
            tooltip=[
                alt.Tooltip("epsilon:Q", format="~g", title="ε"),
                alt.Tooltip("success:Q", format=".1%", title="exact"),
            ],
        )
    )
    coin = pd.DataFrame({"success": [0.5], "label": ["coin toss: 50%"]})
    coin_rule = (
        alt.Chart(coin)
        .mark_rule(color=charts.GREY, strokeDash=[2, 2])
        .encode(y=alt.Y("success:Q", scale=y_scale))
    )
    coin_text = (
        alt.Chart(coin)
        .mark_text(align="left", baseline="top", dx=4, dy=4, color="#555555")
        .encode(y=alt.Y("success:Q", scale=y_scale), x=alt.value(0), text="label:N")
    )
    marker = alt.Data(name="marker")
    rule = (
        alt.Chart(marker)
        .transform_filter(alt.datum.kind == "exact")
        .mark_rule(color=charts.BLACK, strokeDash=[6, 3], strokeWidth=2)
        .encode(x=x)
    )
    points = (
        alt.Chart(marker)
        .mark_point(size=110, filled=True)
        .encode(
            x=x,
            y=y,
            shape=alt.Shape(
                "kind:N",
                scale=alt.Scale(
                    domain=["exact", f"simulated ({tries:,} tries)"], range=["circle", "diamond"]
                ),
                legend=alt.Legend(title=None, orient="top-left"),
            ),
            color=alt.Color(
                "kind:N",
                scale=alt.Scale(
                    domain=["exact", f"simulated ({tries:,} tries)"],
                    range=[charts.BLACK, charts.ORANGE],
                ),
                legend=alt.Legend(title=None, orient="top-left"),
            ),
            tooltip=["kind:N", alt.Tooltip("success:Q", format=".1%")],
        )
    )
    label = (
        alt.Chart(marker)
        .transform_filter(alt.datum.kind == "exact")
        .mark_text(
            align="right" if right_half else "left",
            dx=-8 if right_half else 8,
            dy=-12,
            fontWeight="bold",
        )
        .encode(x=x, y=y, text="label:N")
    )
    chart = (curve + coin_rule + coin_text + rule + points + label).properties(
        title="Attacker's success versus ε",
        height=charts.DEFAULT_HEIGHT,
        width=charts.DEFAULT_WIDTH,
    )
    return charts.vega_template(chart)


def success_spec(epsilon: float, exact: float, simulated: float, *, tries: int) -> dict:
    """Exact success rate versus ε (log x axis, fixed 0.01–10 and 40–100%), a dashed
    coin-toss line at 50%, the chosen ε as a dashed rule labelled with the exact rate, and
    the simulated share as an orange diamond beside the black exact circle."""
    marker = [
        {
            "epsilon": epsilon,
            "success": exact,
            "kind": "exact",
            "label": f"your ε = {epsilon:g}: {exact:.1%}",
        },
        {
            "epsilon": epsilon,
            "success": simulated,
            "kind": f"simulated ({tries:,} tries)",
            "label": "",
        },
    ]
    return charts.fill_template(
        _success_base_spec(epsilon > 0.3, tries), datasets={"marker": marker}
    )


@st.cache_data(show_spinner=False)
def class_size_download(buckets: tuple[int, ...], people: int) -> pd.DataFrame:
    """The class-size chart's data as a download: bucket, people, share."""
    return class_size_frame(list(buckets), people)[["bucket", "people", "share"]]
