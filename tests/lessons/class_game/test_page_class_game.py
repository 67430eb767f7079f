"""AppTest for lessons/class_game/page.py: a lecturer creates a game at ε = 5 and 4 rounds,
30 phones follow each round and guess (most with the best rule), the projector reveals; the
chart's points and the verdict's proven ε are dp.epsilon_lower_bound on the stored guesses;
nicknames stay hidden until shown; a phone sees its own record at the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from chart_checks import assert_valid_charts
from streamlit.testing.v1 import AppTest

import dp
import survey
from apptest_helpers import classroom_page, frames_of, rows_table
from apptest_helpers import page_words as words
from lessons.class_game import model
from ui import text

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "lessons" / "class_game/page.py")
PHONES = 30
ROUNDS = 10
PLAYED_ON_PHONES = 2  # rounds tapped through the 30 AppTest phones; the rest store-level


def page(**params: str) -> AppTest:
    return classroom_page(PAGE, **params).run()


def create(epsilon: float = 5.0, rounds: int = ROUNDS) -> AppTest:
    at = page()
    at.button_group(key="game_eps").set_value(epsilon)
    at.button_group(key="game_rounds").set_value(rounds).run()
    at.button(key="game_create").click().run()
    assert not at.exception, at.exception
    return at


def test_a_game_with_30_phones(store) -> None:
    lecturer = create(rounds=ROUNDS)
    code = lecturer.query_params["manage"]
    games = survey.GameStore(store)
    game = games.find(code)
    phones = [page(join=code) for _ in range(PHONES)]
    assert "Waiting for your lecturer" in words(phones[0])
    named = phones[0]
    named.text_input(key=model.NICKNAME_INPUT.key).input("**Ada**")
    named.button(key="FormSubmitter:game_nickname-Save nickname").click().run()
    tokens = [phone.session_state["survey_session_token"] for phone in phones]
    lecturer.button(key="game_start").click().run()
    for position in range(ROUNDS):
        drawn = games.round(game.id, position)
        for i, phone in enumerate(phones):
            smart = drawn.release >= game.base_count + 1
            guess = smart if i % 3 else not smart
            if position >= PLAYED_ON_PHONES:  # the same browsers, straight to the store
                games.submit(game.id, position, tokens[i], guess)
                continue
            phone.run()  # the fragment's poll, here a rerun
            assert f"Round {position + 1} of {ROUNDS}" in words(phone)
            assert f"{drawn.release:,}" in words(phone)
            # the coin stays on the server until the reveal: nothing the phone was sent
            # or keeps says which way it fell
            assert "It was" not in words(phone) and "the record:" not in words(phone)
            kept = phone.session_state.values()
            assert not [v for v in kept if isinstance(v, survey.Round)]
            phone.button(key=f"game_guess_{position}_{int(guess)}").click().run()
            assert "Your guess is in" in words(phone)
        lecturer.run()
        assert f"**{PHONES} guesses**" in words(lecturer)
        lecturer.button(key="game_reveal").click().run()
        assert f"It was **{model.side(drawn.with_record)}** the record" in words(lecturer)
        if position < PLAYED_ON_PHONES:
            phones[1].run()
            assert "You were right" in words(phones[1]) or "You were wrong" in words(phones[1])
        lecturer.button(key="game_next").click().run()
    assert "The game is over" in words(lecturer)
    # the verdict and the chart from the stored guesses, recomputed here
    coins = {r.position: r.with_record for r in games.rounds(game.id)}
    votes: dict[int, list[int]] = {}
    for position, guess, _ in games.guesses(game.id):
        votes.setdefault(position, [0, 0])[0 if guess else 1] += 1
    tp = sum(1 for p, (w, wo) in votes.items() if coins[p] and w > wo)
    fp = sum(1 for p, (w, wo) in votes.items() if not coins[p] and w > wo)
    positives = sum(coins.values())
    negatives = ROUNDS - positives
    points = frames_of(lecturer.get("vega_lite_chart")[0])["points"]
    if positives and negatives:
        assert points["tpr"].iloc[0] == tp / positives
        assert points["fpr"].iloc[0] == fp / negatives
        proven = dp.epsilon_lower_bound(
            tp, positives, fp, negatives, confidence=model.looks_confidence(ROUNDS)
        )
        assert f"proven ε ≥ {text.number(proven, 3)}" in words(lecturer) or proven == 0.0
    assert_valid_charts(lecturer, "class_game")
    best_tpr, best_fpr = model.best_rates(5.0)
    assert (points["tpr"].iloc[1], points["fpr"].iloc[1]) == (best_tpr, best_fpr)
    # the scores: hidden until shown, the nickname as plain text
    assert "1 gave a nickname" in words(lecturer)
    lecturer.toggle(key=f"game_show_scores_{game.id}").set_value(True).run()
    scores = rows_table(lecturer, "game-scores")
    assert scores["nickname"].tolist() == ["**Ada**"]
    phones[2].run()
    assert "The game is over. You guessed" in words(phones[2])


def test_a_guess_after_the_reveal_is_not_counted(store) -> None:
    lecturer = create()
    code = lecturer.query_params["manage"]
    lecturer.button(key="game_start").click().run()
    phone = page(join=code)
    lecturer.button(key="game_reveal").click().run()
    phone.button(key="game_guess_0_1").click().run()  # the phone still showed the buttons
    assert not phone.exception
    assert "This round is revealed: you did not guess" in words(phone)
    games = survey.GameStore(store)
    assert games.tallies(games.find(code).id) == {}


def test_without_the_key_the_projector_shows_nothing(store) -> None:
    lecturer = create()
    code = lecturer.query_params["manage"]
    stranger = page(manage=code)
    assert "open your private lecturer link" in words(stranger)
    assert "game_start" not in [b.key for b in stranger.button]
    assert "There is no game with this code" in words(page(join="ZZZZZZ"))


@pytest.mark.parametrize("epsilon", model.EPSILONS)
def test_the_create_view_says_the_best_guessers_share_at_each_epsilon(store, epsilon) -> None:
    at = page()
    at.button_group(key="game_eps").set_value(epsilon).run()
    best = model.best_rates(epsilon)[0]
    assert f"right {text.percent(best)} of the time" in words(at)


@pytest.mark.parametrize(
    ("typed", "used"),
    [
        ("http://10.0.0.5:8501", True),
        ("10.0.0.5:8501", False),  # no scheme: a phone could not open it
    ],
)
def test_the_students_address_is_used_only_when_phones_can_open_it(store, typed, used) -> None:
    """The projector's "Address of this app for students" (the machine's, every activity's)
    sets the join link and QR code when it is a usable address; otherwise the page says why
    and keeps its guess."""
    games = survey.GameStore(store)
    made = games.create_game("Address", 1.0, 10)
    lecturer = page(manage=made.game.code, key=made.admin_key)
    lecturer.session_state["game_base_url"] = typed  # as the browser sends it
    lecturer.run()
    assert not lecturer.exception, lecturer.exception
    link = [m.value for m in lecturer.markdown if "pp-join-link" in m.value][0]
    assert ("10.0.0.5" in link) == used
    assert ("Not used: an address starts with http" in words(lecturer)) == (not used)


def test_an_address_too_long_for_a_qr_code_never_reaches_it(store) -> None:
    """A forged 100,000-character address crashed the QR encoder on every activity's
    projector: the link now holds at most 200 characters of it, and nothing raises."""
    games = survey.GameStore(store)
    made = games.create_game("Address", 1.0, 10)
    lecturer = page(manage=made.game.code, key=made.admin_key)
    lecturer.session_state["game_base_url"] = "http://" + "x" * 100_000
    lecturer.run()
    assert not lecturer.exception, lecturer.exception
    link = [m.value for m in lecturer.markdown if "pp-join-link" in m.value][0]
    assert "x" * 201 not in link.replace('</span><wbr><span class="pp-nowrap">', "")


def test_next_round_pressed_in_a_stale_tab_skips_nothing_and_says_so(store) -> None:
    """Finding: "Next round" pressed in two tabs skipped a round, and the losing press showed
    an error box. The second tab's press now names the round it was made from: the game
    stays on the round the first tab moved to, and the second tab says what happened."""
    games = survey.GameStore(store)
    made = games.create_game("G", 1.0, 10)
    first = page(manage=made.game.code, key=made.admin_key)
    second = page(manage=made.game.code, key=made.admin_key)
    first.button(key="game_start").click().run()
    second.run()  # both tabs show round 1
    first.button(key="game_next").click().run()
    second.button(key="game_next").click().run()  # made from round 1: stale
    assert not second.exception and not second.error
    assert games.state(made.game.id)[0] == 1  # round 2, nothing skipped
    assert [r.position for r in games.rounds(made.game.id)] == [0, 1]
    assert any("first, so this press changed nothing" in i.value for i in second.info)


def test_the_create_view_says_ten_rounds_can_prove_nothing(store) -> None:
    """Finding: with 10 rounds the builder said "a room that is always right proves ε ≥ 0 at
    most". It now says it can prove nothing, and with 40 it names the corrected bound."""
    at = page()
    at.button_group(key="game_rounds").set_value(10).run()
    assert "even a room that is always right can prove nothing" in words(at)
    assert "ε ≥ 0 at most" not in words(at)
    at.button_group(key="game_rounds").set_value(40).run()
    most = model.provable(20, 20, looks=40)
    assert most > 0.5 and f"proves ε ≥ {text.number(most, 3)} at most" in words(at)


def test_a_phone_that_never_guessed_is_not_told_it_guessed_0_of_0(store) -> None:
    """Finding: a phone that joined and never guessed read "You guessed 0 of 0 rounds right"
    at the end."""
    lecturer = create(rounds=10)
    code = lecturer.query_params["manage"]
    phone = page(join=code)
    lecturer.button(key="game_start").click().run()
    for _ in range(10):
        lecturer.button(key="game_reveal").click().run()
        lecturer.button(key="game_next").click().run()
    assert "The game is over" in words(lecturer)
    phone.run()
    assert "You did not guess in any round" in words(phone)
    assert "0 of 0" not in words(phone)
