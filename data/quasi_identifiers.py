"""The attributes "Why anonymisation fails" lets a student combine: the census's own columns
and the coarser ones derived from them. The lesson's model counts their classes; its code
behind the chart prints this very function (ui.snippets.source_of). No Streamlit."""

from __future__ import annotations

import pandas as pd


def quasi_identifiers(census: pd.DataFrame) -> dict[str, pd.Series]:
    """Each attribute by its name on the page, one value per person (a missing value is a
    value of its own); the coarser ones derived from the raw columns."""
    dob = census["DOB"]
    return {
        "ZIP code": census["Zip"],
        "ZIP3 (first 3 digits)": census["Zip"].str[:3],
        "Date of birth": dob,
        "Birth month": dob.dt.year * 100 + dob.dt.month,
        "Birth year": dob.dt.year,
        "Age": census["Age"],
        "Age band (10 years)": census["Age"] // 10,
        "Sex": census["Sex"],
        "Race": census["Race"],
        "Marital status": census["MaritalStatus"],
        "Education": census["Education"],
        "Occupation": census["Occupation"],
        "Workclass": census["Workclass"],
        "Relationship": census["Relationship"],
        "Native country": census["NativeCountry"],
    }
