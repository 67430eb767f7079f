"""The bundled census file: reproducible, faithful to the raw extract, sane synthetic columns."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import logging
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from data.census import COLUMNS_DESCRIPTION, DATA_PATH, load_census
from ui.datasets import census

ROOT = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = ROOT / "data" / "build_census.py"


def _load_build_module():
    spec = importlib.util.spec_from_file_location("build_census", BUILD_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _load_build_module()

EXPECTED_COLUMNS = [
    "Name",
    "DOB",
    "SSN",
    "Zip",
    "Sex",
    "Age",
    "Race",
    "MaritalStatus",
    "Relationship",
    "Education",
    "EducationNum",
    "Occupation",
    "Workclass",
    "HoursPerWeek",
    "CapitalGain",
    "CapitalLoss",
    "NativeCountry",
    "Income",
    "Fnlwgt",
]

OCCUPATION_COUNTS = {
    "Prof-specialty": 4140,
    "Craft-repair": 4099,
    "Exec-managerial": 4066,
    "Adm-clerical": 3770,
    "Sales": 3650,
    "Other-service": 3295,
    "Machine-op-inspct": 2002,
    "Transport-moving": 1597,
    "Handlers-cleaners": 1370,
    "Farming-fishing": 994,
    "Tech-support": 928,
    "Protective-serv": 649,
    "Priv-house-serv": 149,
    "Armed-Forces": 9,
}


@pytest.fixture(scope="module")
def df() -> pd.DataFrame:
    return load_census()


def test_committed_file_equals_fresh_rebuild(tmp_path):
    if not build.DEFAULT_RAW.is_file():
        pytest.skip(f"raw census file not available at {build.DEFAULT_RAW}; cannot rebuild")
    out = tmp_path / "census.csv.gz"
    build.main(["--raw", str(build.DEFAULT_RAW), "--out", str(out), "--quiet"])
    fresh, committed = out.read_bytes(), DATA_PATH.read_bytes()
    # Content first (clearer failure), then the exact bytes (gzip header, zlib output).
    assert gzip.decompress(fresh) == gzip.decompress(committed), "CSV content differs"
    assert hashlib.sha256(fresh).hexdigest() == hashlib.sha256(committed).hexdigest()


def test_gzip_header_is_reproducible():
    head = DATA_PATH.read_bytes()[:10]
    assert head[:3] == b"\x1f\x8b\x08"
    assert head[3] == 0, "no FNAME/FEXTRA flags: no embedded file name"
    assert head[4:8] == b"\x00\x00\x00\x00", "mtime must be 0"


def test_file_is_small():
    assert DATA_PATH.stat().st_size < 5_000_000


def test_raw_text_format():
    text = gzip.decompress(DATA_PATH.read_bytes()).decode("utf-8")
    assert "\r" not in text
    assert text.splitlines()[0] == ",".join(EXPECTED_COLUMNS)
    assert "?" not in text


def test_columns_and_dtypes(df):
    assert list(df.columns) == EXPECTED_COLUMNS
    assert pd.api.types.is_datetime64_dtype(df["DOB"])
    for col in ["Name", "SSN", "Zip"]:
        assert pd.api.types.is_string_dtype(df[col]), col
    for col in [
        "Sex",
        "Race",
        "MaritalStatus",
        "Relationship",
        "Education",
        "Occupation",
        "Workclass",
        "NativeCountry",
        "Income",
    ]:
        assert isinstance(df[col].dtype, pd.CategoricalDtype), col
    for col in ["Age", "EducationNum", "HoursPerWeek", "CapitalGain", "CapitalLoss", "Fnlwgt"]:
        assert df[col].dtype == np.int64, col
    assert set(COLUMNS_DESCRIPTION) == set(EXPECTED_COLUMNS)
    for col in build.SYNTHETIC_COLUMNS:
        assert "synthetic" in COLUMNS_DESCRIPTION[col].lower()


def test_facts_from_raw_readme(df):
    assert len(df) == 32_561
    assert int((df["Age"] >= 40).sum()) == 14_237
    counts = df["Occupation"].value_counts(dropna=False)
    assert {k: int(counts[k]) for k in OCCUPATION_COUNTS} == OCCUPATION_COUNTS
    assert int(df["Occupation"].isna().sum()) == 1843
    assert len(df["Occupation"].cat.categories) == len(OCCUPATION_COUNTS)
    assert set(df["Income"].cat.categories) == {"<=50K", ">50K"}
    assert set(df["Sex"].cat.categories) == {"Female", "Male"}


def test_first_row_matches_raw(df):
    row = df.iloc[0]
    assert (row["Age"], row["Workclass"], row["Fnlwgt"], row["Education"]) == (
        39,
        "State-gov",
        77516,
        "Bachelors",
    )
    assert (row["CapitalGain"], row["HoursPerWeek"], row["NativeCountry"]) == (
        2174,
        40,
        "United-States",
    )


def test_no_question_marks(df):
    for col in df.columns:
        if df[col].dtype != object and not pd.api.types.is_string_dtype(df[col]):
            if isinstance(df[col].dtype, pd.CategoricalDtype):
                assert "?" not in df[col].cat.categories, col
            continue
        assert not (df[col] == "?").any(), col


def test_names_unique_and_match_sex(df):
    assert df["Name"].is_unique
    assert df["Name"].notna().all()
    pattern = r"^[A-Z][a-z]+ (?:[A-Z]\. )?[A-Z][A-Za-z']+$"
    assert df["Name"].str.match(pattern).all()
    assert not df["Name"].str.contains(r"\d").any()
    first = df["Name"].str.split(" ").str[0]
    male = df["Sex"] == "Male"
    assert first[male].isin(build.MALE_FIRST_NAMES).all()
    assert first[~male].isin(build.FEMALE_FIRST_NAMES).all()
    last = df["Name"].str.split(" ").str[-1]
    assert last.isin(build.SURNAMES).all()


def test_name_lists_are_big_and_disjoint():
    assert len(set(build.MALE_FIRST_NAMES)) >= 150
    assert len(set(build.FEMALE_FIRST_NAMES)) >= 150
    assert len(set(build.SURNAMES)) >= 300
    assert not set(build.MALE_FIRST_NAMES) & set(build.FEMALE_FIRST_NAMES)


def test_ssns(df):
    assert df["SSN"].is_unique
    assert df["SSN"].str.fullmatch(r"9\d\d-\d\d-\d{4}").all()
    assert not df["SSN"].str.contains(r"-00-|-0000$").any()


def test_zips(df):
    assert df["Zip"].str.fullmatch(r"\d{5}").all()
    assert df["Zip"].str.startswith("0").any(), "leading zeros must survive loading"
    sizes = df["Zip"].value_counts()
    assert 200 <= len(sizes) <= 500
    assert sizes.min() >= 5, "every ZIP is shared by several people"
    quasi_unique = ~df.duplicated(["Zip", "DOB", "Sex"], keep=False)
    assert quasi_unique.mean() > 0.8, "ZIP + DOB + Sex identifies most people"


def test_dob_consistent_with_age(df):
    ref = pd.Timestamp(build.REFERENCE_DATE)
    assert ref == pd.Timestamp("1994-04-01")
    dob = df["DOB"]
    assert dob.notna().all()
    before_birthday = (dob.dt.month > ref.month) | (
        (dob.dt.month == ref.month) & (dob.dt.day > ref.day)
    )
    age = ref.year - dob.dt.year - before_birthday.astype(int)
    assert (age == df["Age"]).all()
    # Uniform over the valid days: birthdays spread over the whole year.
    assert dob.dt.day_of_year.nunique() >= 360


def test_missing_values_are_nan(df):
    assert int(df["Workclass"].isna().sum()) == 1836
    assert int(df["NativeCountry"].isna().sum()) == 583
    for col in ["Name", "DOB", "SSN", "Zip", "Sex", "Age", "Income"]:
        assert df[col].notna().all(), col


def test_census_is_cached_once_per_process():
    logging.getLogger("streamlit").setLevel(logging.ERROR)  # "No runtime found" warning
    first = census()
    assert first is census()
    assert len(first) == 32_561


def test_raw_checksum_guard(tmp_path):
    bad = tmp_path / "adult.data"
    bad.write_text("39, State-gov\n")
    with pytest.raises(SystemExit, match="sha256"):
        build.read_raw(bad)
