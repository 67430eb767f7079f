"""survey/checkin.py and the check-in's randomizer against a real database (SQLite always,
PostgreSQL with SURVEY_TEST_PG_URL): the report of k bits spends exactly the ε the lecturer
chose (checked by enumerating every pair of progress sets and every report); 30 simulated
phones' estimates fall within their 95% intervals of the truth in at least 90 of 100 seeded
rooms; one report per browser and none after Close, from eight threads at once; the stored
rows hold the randomized bits only."""

from __future__ import annotations

import itertools
import math
from functools import partial

import numpy as np
import pytest
from concurrency_helpers import at_once
from sqlalchemy import inspect

import dp
import survey
from lessons.class_checkin import model
from survey import checkin as store_module
from survey import security
from survey.activity import AdminKeyError, SubmitResult

LESSONS = ("anonymisation", "laplace", "binary_rr", "dpsgd")


@pytest.fixture
def checkins(db_url):
    store = survey.SurveyStore(db_url)
    yield survey.CheckinStore(store)
    store.dispose()


def _token() -> str:
    return security.new_session_token()


def _report(row) -> str:
    return "".join("1" if bit else "0" for bit in row)


@pytest.mark.parametrize(("epsilon", "k"), [(4.0, 3), (0.5, 4), (16.0, 2), (1.0, 1), (8.0, 5)])
def test_a_report_of_k_bits_spends_exactly_epsilon(epsilon, k) -> None:
    """Every pair of progress sets (2^k each) and every report (2^k): the largest log ratio
    of a report's probabilities is ε. Plain OUE at ε on each bit would spend
    k ln((e^ε + 1)/2), more than ε for k ≥ 2: this enumeration tells them apart."""
    bits = model.bit_probabilities(epsilon, k)
    keep = math.exp(epsilon / k) / (1 + math.exp(epsilon / k))
    assert bits.p == pytest.approx(keep) and bits.q == pytest.approx(1 - keep)
    assert dp.rr_epsilon(bits.p, 1 - bits.q) == pytest.approx(epsilon / k)  # one bit: ε/k
    sets = list(itertools.product((0, 1), repeat=k))
    worst = 0.0
    for report in sets:
        logs = [
            sum(
                math.log((bits.p if t else bits.q) if r else (1 - bits.p if t else 1 - bits.q))
                for t, r in zip(truth, report, strict=True)
            )
            for truth in sets
        ]
        worst = max(worst, max(logs) - min(logs))
    assert worst == pytest.approx(epsilon, rel=1e-12)
    plain = dp.oue_probabilities(epsilon)
    plain_loss = k * math.log(plain[0] / plain[1])
    assert k == 1 or plain_loss > epsilon * 1.2


@pytest.mark.parametrize("per_bit", [0.1, 0.5, 1.0, 2.0, 4.0])
def test_per_bit_randomized_response_beats_oue_at_the_same_budget(per_bit) -> None:
    """OUE's shape with the budget split the same way (p = 1/2, q = e^(−ε/k)/2: also ε/k a
    bit) has the larger variance at every share of the class: 1.6 times at ε/k = 1 when
    nobody has worked through the lesson, more when everyone has."""
    k = 4
    bits = model.bit_probabilities(per_bit * k, k)
    oue_q = math.exp(-per_bit) / 2
    assert dp.rr_epsilon(0.5, 1 - oue_q) == pytest.approx(per_bit)  # a fair comparison
    for share in (0.0, 0.5, 1.0):
        ours = dp.ue_variance(30, bits.p, bits.q, share)
        oue = dp.ue_variance(30, 0.5, oue_q, share)
        assert ours < oue, (share, ours, oue)
    if per_bit == 1.0:
        ratio = dp.ue_variance(30, 0.5, oue_q, 0.0) / dp.ue_variance(30, bits.p, bits.q, 0.0)
        assert 1.6 <= ratio < 1.7


def test_thirty_phones_estimates_fall_within_their_intervals_in_90_of_100_rooms() -> None:
    """100 seeded rooms of 30 phones at the default ε over four lessons (true shares 90%,
    60%, 30%, 5%): each lesson's debiased count is within its 95% interval of the truth in
    at least 90 rooms. The estimates themselves are unbiased (mean within 6 SE)."""
    epsilon, k, n, rooms = model.DEFAULT_EPSILON, 4, 30, 100
    shares = np.array([0.9, 0.6, 0.3, 0.05])
    bits = model.bit_probabilities(epsilon, k)
    within = np.zeros(k, dtype=int)
    errors = []
    for seed in range(rooms):
        rng = np.random.default_rng(seed)
        truth = rng.random((n, k)) < shares
        sent = dp.ue_perturb(truth, bits.p, bits.q, rng=rng)
        reports = survey.Reports(n, tuple(int(c) for c in sent.sum(axis=0)))
        frame = model.estimates(reports, LESSONS, epsilon)
        true_counts = truth.sum(axis=0)
        within += (frame["low"] <= true_counts) & (true_counts <= frame["high"])
        errors.append(frame["estimate"].to_numpy() - true_counts)
    assert (within >= 90).all(), within
    se = np.sqrt([dp.ue_variance(n, bits.p, bits.q, s) for s in shares] / np.float64(rooms))
    assert (np.abs(np.mean(errors, axis=0)) < 6 * se).all()


def test_a_broken_randomizer_is_caught_by_the_interval_check() -> None:
    """The same rooms with phones that send their truth as it is (no randomizing) but are
    debiased as if randomized: the estimates leave their intervals in most rooms."""
    epsilon, k, n = model.DEFAULT_EPSILON, 4, 30
    shares = np.array([0.9, 0.6, 0.3, 0.05])
    within = np.zeros(k, dtype=int)
    for seed in range(100):
        truth = np.random.default_rng(seed).random((n, k)) < shares
        reports = survey.Reports(n, tuple(int(c) for c in truth.sum(axis=0)))
        frame = model.estimates(reports, LESSONS, epsilon)
        counts = truth.sum(axis=0)
        within += (frame["low"] <= counts) & (counts <= frame["high"])
    assert (within < 90).any(), within


def test_a_whole_check_in_with_30_phones(checkins) -> None:
    made = checkins.create(list(LESSONS), 4.0)
    checkin = made.checkin
    assert checkin.lessons == LESSONS and checkin.is_open and checkin.epsilon == 4.0
    rng = np.random.default_rng(0)
    bits = model.bit_probabilities(4.0, 4)
    sent = dp.ue_perturb(rng.random((30, 4)) < 0.5, bits.p, bits.q, rng=rng)
    tokens = [_token() for _ in range(30)]
    for token, row in zip(tokens, sent, strict=True):
        assert checkins.submit(checkin.id, token, _report(row)) is SubmitResult.ACCEPTED
        assert checkins.submit(checkin.id, token, _report(row)) is SubmitResult.DUPLICATE
    assert checkins.sent(checkin.id, tokens[3]) == _report(sent[3])
    assert checkins.sent(checkin.id, _token()) is None
    reports = checkins.reports(checkin.id, 4)
    assert reports == survey.Reports(30, tuple(int(c) for c in sent.sum(axis=0)))
    assert checkins.reports(checkins.create(["laplace"], 1.0).checkin.id, 1) == survey.Reports(
        0, (0,)
    )
    checkins.close(checkin.id, made.admin_key)
    assert not checkins.get(checkin.id).is_open
    assert checkins.submit(checkin.id, _token(), "1010") is SubmitResult.CLOSED
    with pytest.raises(survey.StaleState):
        checkins.close(checkin.id, made.admin_key)
    with pytest.raises(AdminKeyError):
        checkins.close(checkin.id, "not-the-key")


def test_one_report_per_browser_even_from_threads(checkins) -> None:
    made = checkins.create(list(LESSONS), 4.0)
    token = _token()
    results = at_once(16, lambda: checkins.submit(made.checkin.id, token, "1111"))
    assert results.count(SubmitResult.ACCEPTED) == 1, results
    assert results.count(SubmitResult.DUPLICATE) == 15, results
    assert checkins.reports(made.checkin.id, 4).n == 1


def test_close_pressed_in_eight_tabs_closes_once(checkins) -> None:
    made = checkins.create(list(LESSONS), 4.0)
    results = at_once(8, partial(checkins.close, made.checkin.id, made.admin_key))
    assert results.count(None) == 1, results
    assert all(isinstance(r, survey.StaleState) for r in results if r is not None)


def test_reports_racing_close_are_all_counted_or_all_refused(checkins) -> None:
    """Eight threads: one closes, seven phones send. Every report the store accepted is
    counted, none arrives after the close, and each phone heard the truth."""
    made = checkins.create(list(LESSONS), 4.0)
    checkin_id = made.checkin.id
    tokens = iter([_token() for _ in range(7)])
    calls = [partial(checkins.close, checkin_id, made.admin_key)] + [
        partial(checkins.submit, checkin_id, next(tokens), "0110") for _ in range(7)
    ]
    turn = iter(range(8))
    results = at_once(8, lambda: calls[next(turn)]())
    accepted = sum(r is SubmitResult.ACCEPTED for r in results)
    assert all(r in (None, SubmitResult.ACCEPTED, SubmitResult.CLOSED) for r in results), results
    assert checkins.reports(checkin_id, 4).n == accepted
    assert checkins.submit(checkin_id, _token(), "0110") is SubmitResult.CLOSED
    assert checkins.reports(checkin_id, 4).n == accepted


def test_bad_setups_and_reports_are_refused(checkins) -> None:
    for lessons, error in [
        ([], ValueError),
        (["laplace"] * 2, ValueError),
        (["Laplace"], ValueError),
        (["a,b"], ValueError),
        ([f"l{i}" for i in range(41)], ValueError),
        ("laplace", TypeError),
        ([1], ValueError),
    ]:
        with pytest.raises(error, match="lessons"):
            checkins.create(lessons, 1.0)
    for epsilon, error in [(0.0, ValueError), (math.inf, ValueError), (True, TypeError)]:
        with pytest.raises(error, match="epsilon"):
            checkins.create(["laplace"], epsilon)
    made = checkins.create(list(LESSONS), 4.0)
    for bits, error in [("10a1", ValueError), ("", ValueError), (1010, TypeError)]:
        with pytest.raises(error, match="bits"):
            checkins.submit(made.checkin.id, _token(), bits)
    # a report of another length is not this check-in's: nothing is stored
    assert checkins.submit(made.checkin.id, _token(), "101") is SubmitResult.CLOSED
    assert checkins.submit(made.checkin.id, _token(), "10101") is SubmitResult.CLOSED
    assert checkins.submit(10_000, _token(), "1010") is SubmitResult.UNKNOWN
    assert checkins.reports(made.checkin.id, 4).n == 0
    with pytest.raises(ValueError, match="k must"):
        model.bit_probabilities(1.0, 0)


def test_the_rows_keep_the_randomized_bits_and_no_identity(checkins) -> None:
    made = checkins.create(list(LESSONS), 4.0)
    tokens = [_token() for _ in range(3)]
    for token in tokens:
        checkins.submit(made.checkin.id, token, "1001")
    columns = {c["name"] for c in inspect(checkins.db.engine).get_columns("checkin_reports")}
    assert columns == {"id", "checkin_id", "bits", "session_hash", "submitted_at"}
    with checkins.db.reading() as conn:
        table = store_module.checkin_reports_table
        query = table.select().where(table.c.checkin_id == made.checkin.id)
        rows = [tuple(r) for r in conn.execute(query)]
    flat = " ".join(str(v) for row in rows for v in row)
    assert not any(token in flat for token in tokens)
    assert [row[2] for row in rows] == ["1001"] * 3
