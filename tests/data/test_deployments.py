"""data/deployments.csv and its loader: every row sourced and well formed, a broken file
refused, and every ρ converted as the lessons show it."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import dp
from data.deployments import COLUMNS, DEPLOYMENTS_PATH, load_deployments


def test_the_file_has_the_exact_header_and_at_least_15_sourced_rows() -> None:
    raw = pd.read_csv(DEPLOYMENTS_PATH, dtype=str, keep_default_na=False)
    assert tuple(raw.columns) == COLUMNS
    table = load_deployments()
    assert len(table) >= 15
    assert table["source"].str.contains(r"https?://", regex=True).all()
    assert (table["epsilon"].notna() | table["rho"].notna()).all()
    assert table["year"].between(2000, 2030).all()
    # several budgets of one deployment are several rows: the census's persons and units
    census = table[table["organisation"] == "US Census Bureau"]
    assert sorted(census["rho"]) == [0.07, 2.56]
    assert sum(census["rho"]) == pytest.approx(2.63)  # the Bureau's published total


def test_the_census_persons_rho_is_its_production_scale() -> None:
    # persons_global_scale = 339/542 in the Bureau's production code: ρ = 1/scale²
    persons = load_deployments().query("unit_of_privacy == 'person'").iloc[0]
    assert persons["rho"] == pytest.approx((542 / 339) ** 2, abs=0.005)
    # the Bureau's ε = 17.14 at δ = 10⁻¹⁰ is the tight conversion of the unrounded ρ
    assert dp.zcdp_to_approx_dp((542 / 339) ** 2, 1e-10) == pytest.approx(17.14, abs=0.005)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("A,b,2020,user,,,,per day,https://x.org", "neither epsilon nor rho"),
        ("A,b,2020,user,1,,,per day,a book without an address", "no address"),
        ("A,b,20,user,1,,,per day,https://x.org", "year"),
        ("A,b,2020,user,1/2,,,per day,https://x.org", "plain number"),
        ("A,b,2020,user,1,1.5,,per day,https://x.org", "out of range"),
        ("A,b,2020,,1,,,per day,https://x.org", "unit_of_privacy is empty"),
        ("A,b,2020,user,-1,,,per day,https://x.org", "plain number"),
    ],
)
def test_a_broken_row_is_refused_naming_it(tmp_path, row, message) -> None:
    path = tmp_path / "deployments.csv"
    path.write_text(",".join(COLUMNS) + "\n" + row + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message) as caught:
        load_deployments(path)
    assert "row 2" in str(caught.value)


def test_a_wrong_header_is_refused(tmp_path) -> None:
    path = tmp_path / "deployments.csv"
    path.write_text("organisation,release,epsilon\nA,b,1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="header"):
        load_deployments(path)


def test_every_rho_converts_as_the_lessons_show_it() -> None:
    from lessons.approximate_dp import model as approximate
    from ui import deployments, text

    charted = deployments.deployments().table
    listed = approximate.deployments_frame(1e-10)
    for index, row in charted.iterrows():
        if math.isnan(row["rho"]):
            assert row["epsilon_used"] == row["epsilon"]
            continue
        delta = deployments.ASSUMED_DELTA if math.isnan(row["delta"]) else row["delta"]
        assert row["epsilon_used"] == dp.zcdp_to_approx_dp(row["rho"], delta)
        assert f"from ρ = {text.number(row['rho'])} at δ = {text.power_of_ten(delta)}" in row["how"]
        assert listed.loc[index, "ε"].startswith(
            text.number(dp.zcdp_to_approx_dp(row["rho"], 1e-10))
        )
