"""Beyond k-anonymity (the numbers behind the page): the census's quasi-identifiers (age,
ZIP code, sex) generalised and the smallest classes withheld until the release is
k-anonymous; what a class still reveals about its members' sensitive value (homogeneity);
l-diversity and t-closeness of the release and the classes that fail them; a skewed class
that l-diversity passes; and two k-anonymous releases of the same people linked.

Every measure is dp/attacks.py's: dp.equivalence_classes, dp.k_anonymity, dp.l_diversity,
dp.t_closeness (Machanavajjhala et al. 2007; Li, Li & Venkatasubramanian 2007)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from ui import datasets, text

# --- the generalisation --------------------------------------------------------------------------
AGE_BANDS: tuple[int, ...] = (1, 5, 10, 20, 40)  # years per band; ages run 17..90
DEFAULT_AGE_BAND = 10
ZIP_DIGITS: tuple[int, ...] = (5, 4, 3, 2, 1, 0)  # digits of the ZIP code kept
DEFAULT_ZIP_DIGITS = 3
MIN_CLASS: tuple[int, ...] = (1, 2, 5, 10, 20)  # classes smaller than this are withheld
DEFAULT_MIN_CLASS = 5
SENSITIVE = ("Income", "Occupation")
DEFAULT_SENSITIVE = "Income"
DISPLAY = {"Income": "income", "Occupation": "occupation"}  # the column, in a sentence
MISSING = "not recorded"


@dataclass(frozen=True)
class Release:
    """A generalised release: who is published, their class and sensitive value."""

    age_band: int
    zip_digits: int
    keep_sex: bool
    min_class: int
    sensitive: str
    published: np.ndarray  # bool per person: not withheld
    classes: np.ndarray  # per published person: the class index (0..classes − 1)
    sizes: np.ndarray  # per class: its size
    values: np.ndarray  # per published person: the sensitive value's code
    names: tuple[str, ...]  # the sensitive values, by code
    labels: tuple[str, ...]  # per class: its quasi-identifiers in words

    k: int  # the smallest class
    diversity: int  # the l of l-diversity (dp.l_diversity)
    closeness: float  # the t of t-closeness (dp.t_closeness)

    @property
    def withheld(self) -> int:
        return int((~self.published).sum())


def _quasi_identifiers(age_band: int, zip_digits: int, keep_sex: bool):
    census = datasets.census()
    age = census["Age"].to_numpy()
    low = (age // age_band) * age_band
    zips = census["Zip"].astype(str).str.zfill(5).str[:zip_digits].to_numpy()
    sex = census["Sex"].astype(str).to_numpy() if keep_sex else np.full(len(census), "")
    return low, zips, sex


def _class_label(low: int, width: int, zip_prefix: str, zip_digits: int, sex: str) -> str:
    ages = f"age {low}" if width == 1 else f"aged {low}–{low + width - 1}"
    where = "" if zip_digits == 0 else f", ZIP {zip_prefix}" + "*" * (5 - zip_digits)
    who = f", {sex.lower()}" if sex else ""
    return ages + where + who


@datasets.cached(census_only=True, max_entries=64)
def release(
    age_band: int, zip_digits: int, keep_sex: bool, min_class: int, sensitive: str
) -> Release:
    """Generalise (age into bands, the ZIP code to its first digits, sex kept or dropped),
    then withhold every class smaller than `min_class`: what is left is min_class-anonymous."""
    return _release(age_band, zip_digits, keep_sex, min_class, sensitive)


def _release(
    age_band: int, zip_digits: int, keep_sex: bool, min_class: int, sensitive: str
) -> Release:
    low, zips, sex = _quasi_identifiers(age_band, zip_digits, keep_sex)
    codes = np.column_stack([low, pd.factorize(zips)[0], pd.factorize(sex)[0]])
    everyone, sizes = dp.equivalence_classes(codes)
    published = sizes[everyone] >= min_class
    kept_classes, classes = np.unique(everyone[published], return_inverse=True)
    column = (
        datasets.census()[sensitive]
        .astype(object)
        .where(datasets.census()[sensitive].notna(), MISSING)
    )
    values, names = pd.factorize(column.to_numpy()[published], sort=True)
    first = np.flatnonzero(published)[np.unique(classes, return_index=True)[1]]
    labels = tuple(_class_label(int(low[i]), age_band, zips[i], zip_digits, sex[i]) for i in first)
    classes = classes.astype(np.int32)  # compact codes: a release is kept in the shared
    values = values.astype(np.int16)  # cache (a few per lesson visit)
    kept_sizes = sizes[kept_classes]
    return Release(
        age_band,
        zip_digits,
        keep_sex,
        min_class,
        sensitive,
        published,
        classes,
        kept_sizes,
        values,
        tuple(str(n) for n in names),
        labels,
        # measured once, with the release (each reads every person: ~5 ms)
        dp.k_anonymity(kept_sizes) if kept_sizes.size else 0,
        dp.l_diversity(classes, values),
        dp.t_closeness(classes, values),
    )


@dataclass(frozen=True)
class Revealed:
    """The homogeneity attack on a release: classes whose members all share one value."""

    classes: np.ndarray  # class indices, largest first
    people: int  # members of those classes
    share: float  # of the published people


@datasets.cached(census_only=True, max_entries=64)
def homogeneous(
    age_band: int, zip_digits: int, keep_sex: bool, min_class: int, sensitive: str
) -> Revealed:
    found = release(age_band, zip_digits, keep_sex, min_class, sensitive)
    distinct = _distinct_per_class(found)
    which = np.flatnonzero(distinct == 1)
    which = which[np.argsort(-found.sizes[which], kind="stable")]
    people = int(found.sizes[which].sum())
    total = int(found.sizes.sum())
    return Revealed(which, people, people / total if total else 0.0)


def _table(found: Release) -> np.ndarray:
    """People per (class, sensitive value)."""
    table = np.zeros((found.sizes.size, len(found.names)))
    np.add.at(table, (found.classes, found.values), 1.0)
    return table


def _distinct_per_class(found: Release) -> np.ndarray:
    """How many distinct sensitive values each class holds."""
    return np.count_nonzero(_table(found), axis=1)


@datasets.cached(census_only=True, max_entries=64)
def diversity_frame(
    age_band: int, zip_digits: int, keep_sex: bool, min_class: int, sensitive: str
) -> pd.DataFrame:
    """The published people by how many distinct sensitive values their class holds (1:
    the class reveals it), as shares, for every count from 1 to the number of values."""
    found = release(age_band, zip_digits, keep_sex, min_class, sensitive)
    distinct = _distinct_per_class(found)
    most = max(len(found.names), 1)
    people = np.bincount(distinct, weights=found.sizes, minlength=most + 1)[1 : most + 1]
    total = max(people.sum(), 1)
    return pd.DataFrame(
        {
            "values": np.arange(1, most + 1),
            "share": people / total,
            "kind": [REVEALED if v == 1 else DIVERSE for v in range(1, most + 1)],
        }
    )


REVEALED = "one value: the class reveals it"
DIVERSE = "two or more values"
KINDS = (REVEALED, DIVERSE)


@datasets.cached(census_only=True, max_entries=64)
def revealed_table(
    age_band: int, zip_digits: int, keep_sex: bool, min_class: int, sensitive: str, rows: int = 8
) -> pd.DataFrame:
    """The largest homogeneous classes: their quasi-identifiers, size and the value that
    every member has."""
    found = release(age_band, zip_digits, keep_sex, min_class, sensitive)
    which = homogeneous(age_band, zip_digits, keep_sex, min_class, sensitive).classes[:rows]
    value_of = np.zeros(found.sizes.size, dtype=np.int64)
    value_of[found.classes] = found.values
    return pd.DataFrame(
        {
            "class": [found.labels[c] for c in which],
            "people": [f"{int(found.sizes[c]):,}" for c in which],
            f"every one's {DISPLAY[sensitive]}": [found.names[value_of[c]] for c in which],
        }
    )


@datasets.cached(census_only=True, max_entries=64)
def closeness_frame(
    age_band: int, zip_digits: int, keep_sex: bool, min_class: int, sensitive: str
) -> pd.DataFrame:
    """The published people by their class's distance from the whole table's distribution
    (½Σ|p_class − p_all|, t-closeness's distance), in bins of 0.05 from 0 to 1."""
    found = release(age_band, zip_digits, keep_sex, min_class, sensitive)
    distance = dp.class_distances(found.classes, found.values)
    edges = np.linspace(0.0, 1.0, 21)
    index = np.clip(np.digitize(distance, edges) - 1, 0, 19)
    people = np.bincount(index, weights=found.sizes, minlength=20)
    total = max(people.sum(), 1)
    return pd.DataFrame({"start": edges[:-1], "end": edges[1:], "share": people / total})


@datasets.cached(max_entries=64)
def t_rule(value: float) -> pd.DataFrame:
    return pd.DataFrame({"x": [value], "label": [f"t = {text.number(value, 3)}"]})


@datasets.cached(census_only=True, max_entries=64)
def lost_detail(
    age_band: int, zip_digits: int, keep_sex: bool, min_class: int, sensitive: str
) -> dict[str, str]:
    """The cost: what the release withholds and blurs."""
    found = release(age_band, zip_digits, keep_sex, min_class, sensitive)
    people = int(found.sizes.sum())
    return {
        "classes": f"{found.sizes.size:,}",
        "median class": f"{int(np.median(np.repeat(found.sizes, found.sizes))):,} people",
        "withheld": f"{found.withheld:,} ({text.percent(found.withheld / len(found.published))})",
        "published": f"{people:,}",
    }


REVEALED_BANDS = ("none: k protects them", "under 1%", "1% to 10%", "more than 10%")


def revealed_band(share: float) -> int:
    if share == 0:
        return 0
    return 1 if share < 0.01 else 2 if share <= 0.1 else 3


# --- 3. why these are not enough -----------------------------------------------------------------
@dataclass(frozen=True)
class Skewed:
    label: str
    size: int
    value: str
    share: float  # of the class holding `value`
    overall: float  # of the whole table holding it


@datasets.cached(census_only=True, max_entries=64)
def most_skewed(
    age_band: int, zip_digits: int, keep_sex: bool, min_class: int, sensitive: str
) -> Skewed | None:
    """Among classes with two or more values (l-diverse at l = 2), the one whose largest
    excess of a value over the table's share is greatest (a skewness attack: the class is
    diverse, yet one value is far likelier in it than elsewhere). A missing entry counts
    towards the class's diversity but is never the value named."""
    found = release(age_band, zip_digits, keep_sex, min_class, sensitive)
    table = _table(found)
    overall = table.sum(axis=0) / table.sum()
    within = table / table.sum(axis=1, keepdims=True)
    diverse = np.count_nonzero(table, axis=1) >= 2
    big = found.sizes >= 20  # a class large enough that its share is not noise
    candidates = np.flatnonzero(diverse & big)
    if candidates.size == 0:
        return None
    excess = (within - overall)[candidates]
    # "40% of its members have “not recorded”" is no value to learn: a missing entry is
    # never the skewed one
    missing = [i for i, name in enumerate(found.names) if name == MISSING]
    excess[:, missing] = -np.inf
    row, column = np.unravel_index(np.argmax(excess), excess.shape)
    c = candidates[row]
    return Skewed(
        found.labels[c],
        int(found.sizes[c]),
        found.names[column],
        float(within[c, column]),
        float(overall[column]),
    )


# two k-anonymous releases of the same people, each generalised its own way
# (age band, ZIP digits, sex): exact age with ZIP1, and 20-year bands with ZIP3
LINKED = ((1, 1, True), (20, 3, True))
LINK_MIN_CLASS = 5


@dataclass(frozen=True)
class Linked:
    k_first: int
    k_second: int
    both: int  # people published in both
    unique: int  # of them, alone in the intersection of their two classes
    under: int  # of them, in an intersection smaller than LINK_MIN_CLASS


@datasets.cached(census_only=True, max_entries=1)
def linked() -> Linked:
    """Release 1: exact age, ZIP1 and sex; release 2: 20-year bands, ZIP3 and sex; each
    withholds its classes under 5, so each is 5-anonymous. Someone in both is in one class
    of each: the people in both classes are the intersection, and its size is what the two
    releases together leave of their k."""
    first = _release(*LINKED[0], LINK_MIN_CLASS, DEFAULT_SENSITIVE)  # not kept: only
    second = _release(*LINKED[1], LINK_MIN_CLASS, DEFAULT_SENSITIVE)  # the counts are
    both = first.published & second.published
    class_1 = np.full(first.published.size, -1)
    class_1[first.published] = first.classes
    class_2 = np.full(second.published.size, -1)
    class_2[second.published] = second.classes
    pairs = np.column_stack([class_1[both], class_2[both]])
    _, sizes = dp.equivalence_classes(pairs)
    per_person = dp.class_size_per_person(pairs)
    return Linked(
        first.k,
        second.k,
        int(both.sum()),
        int((per_person == 1).sum()),
        int((per_person < LINK_MIN_CLASS).sum()),
    )


@datasets.cached(census_only=True, max_entries=64)
def skew_words(
    age_band: int, zip_digits: int, keep_sex: bool, min_class: int, sensitive: str
) -> str:
    """The skewness attack on the current release, from its most skewed diverse class."""
    skewed = most_skewed(age_band, zip_digits, keep_sex, min_class, sensitive)
    if skewed is None:
        return (
            "**A skewed class.** No class of 20 or more people holds two values here, so "
            "there is no diverse class to skew."
        )
    return (
        f"**A skewed class.** \u201c{skewed.label}\u201d ({skewed.size:,} people) holds "
        f"more than one {DISPLAY[sensitive]}, so it passes l = 2; yet "
        f"{text.percent(skewed.share)} of its members have \u201c{skewed.value}\u201d, against "
        f"{text.percent(skewed.overall)} of the whole table. Finding someone in it moves "
        f"the odds that they have it from {text.percent(skewed.overall)} to "
        f"{text.percent(skewed.share)}: what t-closeness measures, and l-diversity does not."
    )


@datasets.cached(census_only=True, max_entries=64)
def background_words(
    age_band: int, zip_digits: int, keep_sex: bool, min_class: int, sensitive: str
) -> str:
    """Background knowledge: the people whose class holds exactly two values, where one fact
    that rules a value out reveals the other, with the largest such class as the example.
    A sensitive value with only two values (income) is the exception: there every class not
    revealed holds both, and a fact that rules one out is the income itself, so the words say
    that the class alone gives nothing away for certain and only moves the odds."""
    found = release(age_band, zip_digits, keep_sex, min_class, sensitive)
    distinct = _distinct_per_class(found)
    two = distinct == 2
    people = int(found.sizes[two].sum())
    total = int(found.sizes.sum())
    share = text.percent(people / total if total else 0.0)
    name = DISPLAY[sensitive]
    if len(found.names) == 2:
        return (
            f"**The rest hold both {name}s.** There are only two, so the other {people:,} "
            f"people ({share}) are in classes that hold both: their class alone does not give "
            f"their {name} away, and a fact from elsewhere that rules one out would already be "
            "the answer. What such a class can still do is move the odds, as the skewed class "
            "below shows."
        )
    if not people:
        return (
            f"**Background knowledge.** No class here holds exactly two {name}s, where one "
            "fact an attacker knows from elsewhere would rule one out and give away the other."
        )
    largest = int(np.flatnonzero(two)[np.argmax(found.sizes[two])])
    held = np.flatnonzero(_table(found)[largest])
    first, second = (found.names[v] for v in held)
    return (
        f"**Background knowledge narrows the rest.** {people:,} more "
        f"{'person' if people == 1 else 'people'} ({share}) {'is' if people == 1 else 'are'} "
        "in a class that holds "
        f"exactly two {name}s: one fact an attacker knows from elsewhere rules one out and "
        f"gives away the other. In the largest, \u201c{found.labels[largest]}\u201d "
        f"({int(found.sizes[largest]):,} people), everyone's {name} is \u201c{first}\u201d or "
        f"\u201c{second}\u201d: knowing that someone in it is not \u201c{first}\u201d is "
        f"knowing their {name} is \u201c{second}\u201d."
    )
