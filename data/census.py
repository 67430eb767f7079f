"""Loading the bundled census dataset (data/census.csv.gz), and its column facts; no Streamlit.

`load_census()` is plain pandas, for tests and benchmarks; the pages use
`ui.datasets.census()`, which loads it once per process and hands every caller the *same*
DataFrame (never mutate it; pandas 3 copy-on-write makes derived frames independent).

The file itself is built by data/build_census.py; see data/README.md.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

DATA_PATH = Path(__file__).resolve().parent / "census.csv.gz"

SYNTHETIC_COLUMNS = ("Name", "DOB", "SSN", "Zip")
STRING_COLUMNS = ("Name", "SSN", "Zip")
CATEGORY_COLUMNS = (
    "Sex",
    "Race",
    "MaritalStatus",
    "Relationship",
    "Education",
    "Occupation",
    "Workclass",
    "NativeCountry",
    "Income",
)
INT_COLUMNS = ("Age", "EducationNum", "HoursPerWeek", "CapitalGain", "CapitalLoss", "Fnlwgt")

COLUMNS_DESCRIPTION: dict[str, str] = {
    "Name": "Synthetic: invented full name, unique, first name matching Sex.",
    "DOB": "Synthetic: invented date of birth, consistent with the real Age on 1994-04-01.",
    "SSN": "Synthetic: invented social security number, area 900-999 (never issued).",
    "Zip": "Synthetic: invented 5-digit ZIP code from a pool of 300 of uneven sizes.",
    "Sex": "Sex as recorded by the census (Male / Female).",
    "Age": "Age in years on the census reference date (17-90).",
    "Race": "Race as recorded by the census (5 groups).",
    "MaritalStatus": "Marital status (e.g. Married-civ-spouse, Never-married, Divorced).",
    "Relationship": "Role in the household (e.g. Husband, Wife, Own-child, Not-in-family).",
    "Education": "Highest education level reached (e.g. HS-grad, Bachelors, Doctorate).",
    "EducationNum": "Education level as a number, 1 (Preschool) to 16 (Doctorate).",
    "Occupation": "Occupation group (14 groups; missing for some people).",
    "Workclass": "Type of employer (e.g. Private, Self-emp-not-inc, State-gov; may be missing).",
    "HoursPerWeek": "Usual hours worked per week.",
    "CapitalGain": "Capital gains in the year, in US dollars.",
    "CapitalLoss": "Capital losses in the year, in US dollars.",
    "NativeCountry": "Country of birth (may be missing).",
    "Income": "Yearly income above or below 50,000 US dollars (<=50K / >50K).",
    "Fnlwgt": "Census sampling weight: roughly how many people this row stands for.",
}


def load_census(path: str | Path = DATA_PATH) -> pd.DataFrame:
    """Read the bundled census file with fast, explicit dtypes.

    `DOB` is datetime64, `Name`/`SSN`/`Zip` are strings (Zip keeps leading
    zeros), the census category columns are `category`, numbers are int64.
    Missing values (empty fields in the file) are NaN.
    """
    dtypes: dict[str, object] = {col: "str" for col in STRING_COLUMNS}
    dtypes.update({col: "category" for col in CATEGORY_COLUMNS})
    dtypes.update({col: "int64" for col in INT_COLUMNS})
    df = pd.read_csv(
        path,
        dtype=dtypes,
        keep_default_na=False,
        na_values=[""],
        compression="gzip",
    )
    df["DOB"] = pd.to_datetime(df["DOB"], format="%Y-%m-%d")
    return df


# Age in bands of about ten years (the census's youngest are 17): each band's first age, and
# its name. Reconstruction attacks and Privatized data for ML tabulate people by them.
AGE_BAND_EDGES: tuple[int, ...] = (17, 25, 35, 45, 55, 65)
AGE_BANDS: tuple[str, ...] = ("17–24", "25–34", "35–44", "45–54", "55–64", "65+")
