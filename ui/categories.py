"""The active dataset's categorical attributes as true histograms, and the picker that
chooses one: the census's four (age band × sex, race, occupation, education) while it is in
use, else a categorical column of the student's file. The randomized-response lessons for
many values (k-ary RR, unary encoding) survey them; the cache (`ui.datasets.cached`) shares
census results between sessions and keeps a file's in its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ui import controls, datasets, userdata
from ui.datasets import census

# Attribute key -> label shown in the picker (and its value in a shared link: ?kary_attribute=Race).
ATTRIBUTES: dict[str, str] = {
    "age_sex": "Age band × sex",
    "race": "Race",
    "occupation": "Occupation",
    "education": "Education",
}

FILE_PREFIX = "file:"  # Attribute.key of a column of an uploaded file


@dataclass(frozen=True)
class Attribute:
    """One attribute's true histogram: category labels, counts, people counted and left out.
    `key` is a census attribute's key, or FILE_PREFIX + the column of an uploaded file."""

    key: str
    title: str
    labels: tuple[str, ...]
    counts: np.ndarray
    missing: int

    @property
    def k(self) -> int:
        return len(self.labels)

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    @property
    def heading(self) -> str:
        """The title with a capital first letter (for a title or a sentence start)."""
        return self.title[:1].upper() + self.title[1:]

    @property
    def from_census(self) -> bool:
        return not self.key.startswith(FILE_PREFIX)


@datasets.cached()
def attribute(key: str) -> Attribute:
    """The true histogram of one attribute (a plain count of the census)."""
    people = census()
    if key == "age_sex":
        older = people["Age"] >= 40
        female = people["Sex"] == "Female"
        labels = ("<40 female", "<40 male", "≥40 female", "≥40 male")
        counts = [
            (~older & female).sum(),
            (~older & ~female).sum(),
            (older & female).sum(),
            (older & ~female).sum(),
        ]
        return Attribute(key, "age band × sex", labels, np.array(counts, dtype=np.int64), 0)
    column = {"race": "Race", "occupation": "Occupation", "education": "Education"}[key]
    values = people[column]
    if key == "education":
        order = (
            people[["Education", "EducationNum"]]
            .drop_duplicates()
            .sort_values("EducationNum")["Education"]
            .astype(str)
        )
        labels = tuple(order)
    else:
        labels = tuple(str(c) for c in values.cat.categories)
    counts = values.value_counts().reindex(labels).to_numpy(dtype=np.int64)
    return Attribute(key, column.lower(), labels, counts, int(values.isna().sum()))


def file_attribute(frame: pd.DataFrame, column: str) -> Attribute:
    """The true histogram of one column of an uploaded file (categories in sorted order,
    missing values left out). Never cached across sessions."""
    values = frame[column]
    present = values[values.notna()].astype(str)
    counts = present.value_counts()
    labels = tuple(sorted(counts.index))
    return Attribute(
        FILE_PREFIX + column,
        column,
        labels,
        counts.reindex(labels).to_numpy(dtype=np.int64),
        int(values.isna().sum()),
    )


def pick_attribute(prefix: str, *, default: str = "occupation") -> Attribute | None:
    """The attribute picker: the census attributes (radio `<prefix>_attribute`) while the
    census is in use, else the file's categorical columns (selectbox `<prefix>_column`);
    both bound to the URL. None (the picker has shown a warning) when no column fits."""
    if datasets.on_census():
        key = controls.radio(
            "Attribute to survey",
            options=list(ATTRIBUTES),
            format_func=ATTRIBUTES.get,
            index=list(ATTRIBUTES).index(default),
            captions=[f"k = {attribute(k).k}" for k in ATTRIBUTES],
            horizontal=True,
            key=f"{prefix}_attribute",
        )
        return attribute(key)
    column = userdata.pick_categorical_column(
        f"{prefix}_column", label="Column to survey", bind=True
    )
    return None if column is None else file_attribute(datasets.active().frame, column)


def count_domain(attr: Attribute) -> tuple[float, float]:
    """A fixed count axis for one attribute: room for the largest true count, for reports
    drifting toward n/k at small ε, and for negative estimates. It depends on neither ε
    nor the draw."""
    top = 1.4 * max(float(attr.counts.max()), attr.n / attr.k)
    step = 10 ** np.floor(np.log10(top))
    top = float(np.ceil(top / step) * step)
    return -0.4 * top, top
