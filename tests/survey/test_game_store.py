"""survey/game.py against a real database (SQLite always, PostgreSQL with
SURVEY_TEST_PG_URL): a whole game with 30 simulated phones, whose proven ε equals
dp.epsilon_lower_bound on the stored guesses; one guess per browser and round, only while the
round is on show; the coin fair and the release's noise the discrete Laplace at ε; the
nicknames' scores; no identity in the rows."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import numpy as np
import pytest
from concurrency_helpers import at_once
from scipy import stats
from sqlalchemy import inspect

import dp
import survey
from lessons.class_game import model
from survey import game as store_module
from survey import security
from survey.activity import AdminKeyError, SubmitResult


@pytest.fixture
def games(db_url):
    store = survey.SurveyStore(db_url)
    yield survey.GameStore(store)
    store.dispose()


def _token() -> str:
    return security.new_session_token()


def play(games, epsilon: float, rounds: int, phones: int = 30, *, seed: int = 0):
    """A whole game: each phone guesses with the best rule (with iff release ≥ base + 1)
    on a share of rounds, else at random; every round is revealed. Returns (game, tokens)."""
    made = games.create_game("Game", epsilon, rounds, rng=seed)
    game_id, key = made.game.id, made.admin_key
    tokens = [_token() for _ in range(phones)]
    rng = np.random.default_rng(seed + 1)
    for position in range(rounds):
        drawn = games.next_round(game_id, key, rng=rng)
        assert drawn is not None and drawn.position == position
        for i, token in enumerate(tokens):
            smart = i % 3 != 0
            guess = drawn.release >= made.game.base_count + 1 if smart else bool(rng.integers(2))
            assert games.submit(game_id, position, token, bool(guess)) is SubmitResult.ACCEPTED
        games.reveal(game_id, key)
        assert games.submit(game_id, position, _token(), True) is SubmitResult.CLOSED
    assert games.next_round(game_id, key) is None  # the summary
    return games.get_game(game_id), tokens


def rates_from_rows(games, game_id: int) -> tuple[int, int, int, int]:
    """The room's majority per round, recomputed from the stored guess rows themselves."""
    coins = {r.position: r.with_record for r in games.rounds(game_id)}
    votes: dict[int, list[int]] = {}
    for position, guess, _digest in games.guesses(game_id):
        votes.setdefault(position, [0, 0])[0 if guess else 1] += 1
    tp = positives = fp = negatives = 0
    for position, (with_votes, without_votes) in votes.items():
        said_with = with_votes > without_votes
        if coins[position]:
            positives += 1
            tp += said_with
        else:
            negatives += 1
            fp += said_with
    return tp, positives, fp, negatives


@pytest.mark.parametrize("epsilon", [5.0, 0.1])
def test_a_whole_game_with_30_phones_proves_what_the_stored_guesses_prove(games, epsilon) -> None:
    game, _ = play(games, epsilon, 40)
    assert game.finished
    rates = model.room_rates(game, games.rounds(game.id), games.tallies(game.id))
    tp, positives, fp, negatives = rates_from_rows(games, game.id)
    assert (rates.true_positives, rates.positives) == (tp, positives)
    assert (rates.false_positives, rates.negatives) == (fp, negatives)
    assert positives + negatives == 40 and len(games.guesses(game.id)) == 40 * 30
    # one bound after each of the 40 reveals: each at 1 − 5%/40 (the union bound)
    assert rates.proven() == dp.epsilon_lower_bound(
        tp, positives, fp, negatives, confidence=1 - 0.05 / 40
    )
    assert rates.proven() <= epsilon  # no guesser beats the promise (a 5% chance at most)
    if epsilon == 5.0:  # the best rule is right 99.3% of rounds: the room wins
        assert rates.right >= 38 and rates.proven() > 0.4
        assert "proven ε ≥" in model.verdict(rates, epsilon)


def test_the_bound_recomputed_after_every_round_holds_for_the_whole_game() -> None:
    """Finding: one 95% bound recomputed after each of 40 reveals came out above the promised
    ε in about 1% of games at ε = 0.1, and the page then said "proven ε ≥ 0.15 … ε = 0.1,
    which no guesser can beat". The bound is now corrected for the looks (each at 1 − 5%/R),
    so that over 1,000 simulated games of the best possible room the share of games in which
    any look exceeds ε is below 5% (Clopper–Pearson upper bound), and the corrected bound is
    never above the uncorrected one."""
    epsilon, rounds, games_played = 0.1, 40, 1000
    rng = np.random.default_rng(72)
    coins = rng.integers(0, 2, size=(games_played, rounds)).astype(bool)
    noise = dp.discrete_laplace_mechanism(0, epsilon, size=(games_played, rounds), rng=rng)
    said_with = noise + coins >= 1  # the best test: the release at least the count with it
    bounds: dict[tuple[int, int, int, int, int], float] = {}

    def proven(counts, looks):
        key = (*counts, looks)
        if key not in bounds:
            bounds[key] = model.Rates(*counts, looks=looks).proven() or 0.0
        return bounds[key]

    over = {1: 0, rounds: 0}
    for coin, guess in zip(coins, said_with, strict=True):
        tp = np.cumsum(coin & guess)
        positives = np.cumsum(coin)
        fp = np.cumsum(~coin & guess)
        negatives = np.arange(1, rounds + 1) - positives
        looks = list(zip(tp, positives, fp, negatives, strict=True))
        for corrected in over:
            found = [proven(tuple(map(int, c)), corrected) for c in looks if c[1] and c[3]]
            over[corrected] += max(found, default=0.0) > epsilon
        assert all(
            proven(tuple(map(int, c)), rounds) <= proven(tuple(map(int, c)), 1)
            for c in looks
            if c[1] and c[3]
        )
    upper = stats.beta.ppf(0.975, over[rounds] + 1, games_played - over[rounds])
    assert upper < 0.05, over
    assert over[1] >= over[rounds], over


def test_a_bound_above_the_promise_is_never_told_as_a_proof() -> None:
    """When a room's bound does come out above the promised ε (a lucky room), the verdict
    says so instead of "proven ε ≥ x … which no guesser can beat" with x > ε."""
    lucky = model.Rates(10, 10, 0, 10, looks=1)
    assert lucky.proven() > 0.1
    said = model.verdict(lucky, 0.1)
    assert "no guesser can beat the guarantee" in said and "lucky" in said
    assert "proven ε ≥" not in said


def test_the_best_guessers_rates_are_the_corner_of_the_region() -> None:
    """TPR = P[K ≥ 0], FPR = P[K ≥ 1] for K discrete Laplace (summed pmf), on the region's
    edge (dp.tpr_bound), at the ε they imply (dp.epsilon_from_rates)."""
    k = np.arange(0, 2000)
    for epsilon in (0.1, 1.0, 5.0):
        tpr, fpr = model.best_rates(epsilon)
        assert tpr == pytest.approx(dp.discrete_laplace_pmf(k, epsilon).sum(), rel=1e-9)
        assert fpr == pytest.approx(dp.discrete_laplace_pmf(k + 1, epsilon).sum(), rel=1e-9)
        assert dp.tpr_bound(fpr, epsilon) == pytest.approx(tpr)
        assert dp.epsilon_from_rates(tpr, fpr) == pytest.approx(epsilon)


def test_the_coin_is_fair_and_the_release_noise_is_discrete_laplace(games) -> None:
    """10 games of 40 rounds from the operating system's randomness: the coin within 6
    standard errors of ½, and release − base − coin distributed as discrete Laplace at ε = 1
    (chi-square, p > 10⁻⁴)."""
    coins, noise = [], []
    for _ in range(10):
        made = games.create_game("Game", 1.0, 40)
        for _ in range(40):
            drawn = games.next_round(made.game.id, made.admin_key)
            coins.append(drawn.with_record)
            noise.append(drawn.release - made.game.base_count - int(drawn.with_record))
    assert abs(np.mean(coins) - 0.5) < 6 * math.sqrt(0.25 / 400)
    noise = np.array(noise)
    edges = [-3, -2, -1, 0, 1, 2, 3]
    observed = [np.sum(noise <= -3)] + [np.sum(noise == k) for k in edges[1:-1]]
    observed.append(np.sum(noise >= 3))
    pmf = dp.discrete_laplace_pmf(np.arange(-2, 3), 1.0)
    tail = (1 - pmf.sum()) / 2
    expected = 400 * np.array([tail, *pmf, tail])
    assert stats.chisquare(observed, expected).pvalue > 1e-4


def test_one_guess_per_browser_and_round_even_from_threads(games) -> None:
    made = games.create_game("Game", 1.0, 3)
    games.next_round(made.game.id, made.admin_key)
    token = _token()
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(
            pool.map(lambda i: games.submit(made.game.id, 0, token, bool(i % 2)), range(16))
        )
    assert results.count(SubmitResult.ACCEPTED) == 1
    assert sum(t.n for t in games.tallies(made.game.id).values()) == 1


def test_a_guess_counts_only_for_the_round_on_show(games) -> None:
    made = games.create_game("Game", 1.0, 3)
    game_id, key = made.game.id, made.admin_key
    token = _token()
    assert games.submit(game_id, 0, token, True) is SubmitResult.CLOSED  # not started
    games.next_round(game_id, key)
    assert games.submit(game_id, 1, token, True) is SubmitResult.CLOSED  # ahead
    assert games.submit(game_id, 0, token, True) is SubmitResult.ACCEPTED
    games.next_round(game_id, key)
    assert games.submit(game_id, 0, _token(), True) is SubmitResult.CLOSED  # behind
    assert games.submit(10_000, 0, token, True) is SubmitResult.UNKNOWN
    with pytest.raises(TypeError):
        games.submit(game_id, 1, token, 1)
    with pytest.raises(AdminKeyError):
        games.next_round(game_id, "not-the-key")
    with pytest.raises(AdminKeyError):
        games.reveal(game_id, "not-the-key")
    assert games.get_game(game_id).position == 1


def test_the_rounds_coin_is_hidden_from_a_game_and_drawn_once(games) -> None:
    made = games.create_game("Game", 1.0, 3)
    drawn = games.next_round(made.game.id, made.admin_key)
    assert not hasattr(games.get_game(made.game.id), "with_record")
    assert games.round(made.game.id, 0) == drawn == games.rounds(made.game.id)[0]


def test_nickname_scores_count_revealed_rounds_only(games) -> None:
    made = games.create_game("Game", 1.0, 3)
    game_id, key = made.game.id, made.admin_key
    right, wrong, anonymous = _token(), _token(), _token()
    games.set_nickname(game_id, right, "Ada")
    games.set_nickname(game_id, wrong, "Bob")
    drawn = games.next_round(game_id, key)
    games.submit(game_id, 0, right, drawn.with_record)
    games.submit(game_id, 0, wrong, not drawn.with_record)
    games.submit(game_id, 0, anonymous, drawn.with_record)
    assert [s.answered for s in games.scores(game_id)] == [0, 0]  # not revealed yet
    games.reveal(game_id, key)
    scores = games.scores(game_id)
    assert [(s.nickname, s.correct, s.answered) for s in scores] == [("Ada", 1, 1), ("Bob", 0, 1)]
    with pytest.raises(ValueError):
        games.set_nickname(game_id, right, "\u202eevil")
    assert games.set_nickname(game_id, right, "") is None and games.nickname(game_id, right) is None


def test_bad_setups_are_refused(games) -> None:
    for epsilon, rounds, error in (
        (0.0, 10, ValueError),
        (math.nan, 10, ValueError),
        (1.0, 1, ValueError),
        (1.0, 41, ValueError),
        (True, 10, TypeError),
        (1.0, 10.0, TypeError),
    ):
        with pytest.raises(error):
            games.create_game("Game", epsilon, rounds)


def test_the_rows_keep_no_identity(games) -> None:
    game, tokens = play(games, 1.0, 2, phones=3)
    columns = {c["name"] for c in inspect(games.db.engine).get_columns("game_guesses")}
    assert columns == {"id", "game_id", "position", "guess", "session_hash", "submitted_at"}
    with games.db.reading() as conn:
        rows = [tuple(r) for r in conn.execute(store_module.game_guesses_table.select())]
    flat = " ".join(str(v) for row in rows for v in row)
    assert not any(token in flat for token in tokens)


def test_next_round_pressed_in_eight_tabs_moves_one_round(games) -> None:
    """Finding: "Next round" pressed in two tabs skipped a round (5 of 8 tries on SQLite, 2
    of 8 on PostgreSQL), and the losing press showed an error box. Each press names the
    round it was made from: eight tabs at once (real threads) move exactly one round, and
    the others get StaleState (the page says "another tab moved first")."""
    made = games.create_game("G", 1.0, 10)
    game_id, key = made.game.id, made.admin_key
    for since in range(-1, 9):
        results = at_once(8, partial(games.next_round, game_id, key, since=since))
        moved = [r for r in results if not isinstance(r, Exception)]
        assert len(moved) == 1 and moved[0].position == since + 1, results
        assert all(isinstance(r, survey.StaleState) for r in results if isinstance(r, Exception))
        assert games.state(game_id)[0] == since + 1
    assert [r.position for r in games.rounds(game_id)] == list(range(10))


def test_a_stale_reveal_or_next_changes_nothing(games) -> None:
    made = games.create_game("G", 1.0, 10)
    game_id, key = made.game.id, made.admin_key
    games.next_round(game_id, key, since=-1)
    games.next_round(game_id, key, since=0)
    with pytest.raises(survey.StaleState):
        games.reveal(game_id, key, since=0)  # a tab still showing round 0
    with pytest.raises(survey.StaleState):
        games.next_round(game_id, key, since=0)
    assert games.state(game_id) == (1, False)
