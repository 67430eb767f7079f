"""The group-by lesson's numbers, against dp/ and against simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dp
from lessons.group_by import model
from ui import datasets
from ui.columns import CELL_COLUMNS, census_cells, visits_per_person


def test_the_visits_table_is_every_census_person_with_their_rows() -> None:
    table = model.visits()
    assert np.array_equal(np.bincount(table["user"]), visits_per_person())
    assert table["place"].between(0, model.PLACES - 1).all()
    shown = model.contributions()
    assert shown.rows == len(table) and shown.people == 32_561
    # heavy-tailed: one person has dozens of rows, most have two or fewer
    assert shown.most_rows > 50 and shown.median_rows <= 2
    assert 1 < shown.most_places <= model.PLACES
    counts = model.true_counts()
    assert counts.sum() == len(table) and counts[0] == counts.max()  # clinic 1 is the busiest


@pytest.mark.parametrize(("l0", "linf"), [(1, 1), (2, 3), (4, 20)])
def test_expected_kept_is_what_bounding_keeps_on_average(l0, linf) -> None:
    """The exact expectation against 40 runs of dp.bound_partitions, within 6 standard
    errors per clinic."""
    table = model.visits()
    users, places = table["user"].to_numpy(), table["place"].to_numpy()
    runs = np.array(
        [
            np.bincount(
                places[dp.bound_partitions(users, places, l0, linf, rng=seed)],
                minlength=model.PLACES,
            )
            for seed in range(40)
        ]
    )
    expected = model.expected_kept(l0, linf)
    se = runs.std(axis=0, ddof=1) / math.sqrt(len(runs))
    assert np.all(np.abs(runs.mean(axis=0) - expected) <= 6 * se + 1e-9)
    if l0 >= model.contributions().most_places and linf >= model.contributions().most_in_one:
        np.testing.assert_allclose(expected, model.true_counts())


def test_bounding_with_no_limit_keeps_every_row() -> None:
    shown = model.contributions()
    np.testing.assert_allclose(
        model.expected_kept(shown.most_places, shown.most_in_one), model.true_counts()
    )


def test_the_error_grid_is_bias_and_laplace_noise_in_quadrature() -> None:
    frame, best = model.error_grid(1.0)
    assert len(frame) == len(model.GRID_L0) * len(model.GRID_LINF)
    row = frame[(frame["l0"] == 3) & (frame["linf"] == 5)].iloc[0]
    bias = math.sqrt(np.mean((model.expected_kept(3, 5) - model.true_counts()) ** 2))
    assert row["bias"] == pytest.approx(bias)
    assert row["noise"] == pytest.approx(math.sqrt(2) * 3 * 5 / 1.0)
    assert row["total"] == pytest.approx(math.hypot(bias, row["noise"]))
    assert frame["total"].min() == pytest.approx(
        frame[(frame["l0"] == best[0]) & (frame["linf"] == best[1])]["total"].iloc[0]
    )
    # the best bound is inside the grid and grows with ε (less noise per unit of L0·L∞)
    assert best[1] not in (model.GRID_LINF[0], model.GRID_LINF[-1])
    _, loose = model.error_grid(5.0)
    _, tight = model.error_grid(0.1)
    assert tight[0] * tight[1] < best[0] * best[1] < loose[0] * loose[1]


def test_a_lone_users_rows_pass_the_row_threshold_with_chance_delta_over_l0() -> None:
    epsilon, delta, l0, linf = 1.0, 1e-5, 3, 4
    tau = model.row_threshold(epsilon, delta, l0, linf)
    scale = dp.laplace_scale(l0 * linf, epsilon)
    released = 1.0 - dp.laplace_cdf(tau - linf, loc=0.0, scale=scale)
    assert released == pytest.approx(delta / l0, rel=1e-9)


def test_the_selection_curves_are_dps_and_the_optimal_one_shows_more() -> None:
    curves = model.selection_curves(1.0, 1e-5, 1)
    optimal = curves[curves["rule"] == model.OPTIMAL_RULE]["probability"].to_numpy()
    laplace = curves[curves["rule"] == model.LAPLACE_RULE]["probability"].to_numpy()
    n = model.SELECTION_USERS
    np.testing.assert_allclose(optimal, dp.partition_selection_probability(n, 1.0, 1e-5, 1))
    tau = dp.laplace_partition_threshold(1.0, 1e-5, 1)
    assert n[0] == 1 and laplace[0] == pytest.approx(0.5 * math.exp(-(tau - 1)), rel=1e-9)
    assert laplace[0] == pytest.approx(1e-5, rel=1e-9)  # one user's partition: δ
    assert np.all(optimal >= laplace - 1e-12)


@pytest.mark.parametrize(
    ("epsilon", "delta", "l0"), [(1.0, 1e-5, 1), (0.1, 1e-8, 6), (10.0, 1e-3, 2)]
)
def test_half_the_time_is_the_first_whole_number_of_users_at_one_half(epsilon, delta, l0) -> None:
    optimal = model.half_the_time(model.OPTIMAL_RULE, epsilon, delta, l0)
    p = dp.partition_selection_probability(np.array([optimal - 1, optimal]), epsilon, delta, l0)
    assert p[0] < 0.5 <= p[1]
    laplace = model.half_the_time(model.LAPLACE_RULE, epsilon, delta, l0)
    tau = dp.laplace_partition_threshold(epsilon, delta, l0)
    assert laplace - 1 < tau <= laplace
    assert optimal <= laplace  # the optimal rule shows a group at least as early


def test_the_census_cells_and_what_selection_hides() -> None:
    cells = census_cells()
    census_counts = datasets.census().groupby(list(CELL_COLUMNS), observed=True).size()
    assert cells["people"].sum() == census_counts.sum() and len(cells) == len(census_counts)
    shown = model.cells_shown(1.0, 1e-5)
    chance = dp.partition_selection_probability(cells["people"].to_numpy(), 1.0, 1e-5, 1)
    assert shown.expected_shown == pytest.approx(chance.sum())
    assert shown.singletons == int((cells["people"] == 1).sum()) > 0
    assert shown.hidden_people == int(cells["people"][chance < 0.5].sum())
    # a single person's cell is shown with chance δ at most: never half the time
    assert dp.partition_selection_probability(1, 1.0, 1e-5, 1) == pytest.approx(1e-5)


def test_the_pipeline_bounds_selects_and_adds_laplace_noise_of_half_the_budget() -> None:
    from scipy import stats

    epsilon, delta, l0, linf = 1.0, 1e-5, 3, 20
    residuals = []
    for seed in range(20):
        release = model.pipeline(l0, linf, epsilon, delta, seed)
        table = release.table
        assert table["kept rows"].sum() == len(model.visits()) - release.dropped_rows
        assert (table["kept rows"] <= table["true rows"]).all()
        assert release.released == int(table["released"].sum())
        assert table.loc[~table["released"], "noisy count"].isna().all()
        shown = table[table["released"]]
        residuals.extend((shown["noisy count"] - shown["kept rows"]).tolist())
    scale = dp.laplace_scale(l0 * linf, epsilon / 2)
    assert stats.kstest(residuals, stats.laplace(scale=scale).cdf).pvalue > 1e-3
    # a different budget split would be caught: Lap(L0·L∞/ε) is too narrow
    narrow = dp.laplace_scale(l0 * linf, epsilon)
    assert stats.kstest(residuals, stats.laplace(scale=narrow).cdf).pvalue < 1e-3
