"""The class heist and the ε guessing game under storage faults: a lecturer's button and a
phone's tap say in words what failed (naming their own activity), never a traceback; a
read-only database says so and offers no form or button that would fail when tapped."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import survey
from apptest_helpers import classroom_page, failing_with, fault_messages
from ui import activity

ROOT = Path(__file__).resolve().parents[3]
HEIST = str(ROOT / "lessons" / "class_heist" / "page.py")
GAME = str(ROOT / "lessons" / "class_game" / "page.py")
REASONS = list(survey.STORAGE_FAULTS)


@pytest.fixture
def stores(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'survey.sqlite3'}"
    monkeypatch.setenv("SURVEY_DB_URL", url)
    store = survey.SurveyStore(url)
    yield survey.HeistStore(store), survey.GameStore(store)
    store.dispose()


def page(path: str, **params: str) -> AppTest:
    return classroom_page(path, **params).run()


@pytest.mark.parametrize("reason", REASONS)
def test_every_fault_on_the_heists_buttons_and_form_is_explained(
    stores, monkeypatch, reason
) -> None:
    heists, _ = stores
    made = heists.create_heist("Faults", "Row", 5, "Month", 12)
    heists.submit(made.heist.id, survey.new_session_token(), 4, 2, 3, volunteer=True)
    phone = page(HEIST, join=made.heist.code)
    monkeypatch.setattr(survey.HeistStore, "submit", failing_with(reason))
    phone.selectbox(key="heist_secret").set_value(4)
    phone.selectbox(key="heist_a").set_value(2)
    phone.selectbox(key="heist_b").set_value(3)
    phone.button(key="FormSubmitter:heist_answer-Send my made-up answer").click().run()
    expected = activity.fault_message(reason, student=True, activity="heist")
    assert not phone.exception and expected in fault_messages(phone)
    assert "class heist" in expected
    # (patched before the page runs: the button's callback holds the method it was given)
    monkeypatch.setattr(survey.HeistStore, "pick_target", failing_with(reason))
    lecturer = page(HEIST, manage=made.heist.code, key=made.admin_key)
    lecturer.button(key="heist_pick").click().run()
    expected = activity.fault_message(reason, student=False, activity="heist")
    assert not lecturer.exception and expected in fault_messages(lecturer)


@pytest.mark.parametrize("reason", REASONS)
def test_every_fault_in_the_game_is_explained(stores, monkeypatch, reason) -> None:
    _, games = stores
    made = games.create_game("Faults", 1.0, 10)
    with monkeypatch.context() as patch:  # (before the run that draws the button)
        patch.setattr(survey.GameStore, "next_round", failing_with(reason))
        lecturer = page(GAME, manage=made.game.code, key=made.admin_key)
        lecturer.button(key="game_start").click().run()
        expected = activity.fault_message(reason, student=False, activity="game")
        assert not lecturer.exception and expected in fault_messages(lecturer)
    lecturer.run()
    lecturer.button(key="game_start").click().run()  # the fault has passed: it starts
    assert "Round 1 of 10" in " ".join(m.value for m in lecturer.markdown)
    assert not lecturer.exception
    phone = page(GAME, join=made.game.code)
    monkeypatch.setattr(survey.GameStore, "submit", failing_with(reason))
    phone.button(key="game_guess_0_1").click().run()
    expected = activity.fault_message(reason, student=True, activity="game")
    assert not phone.exception and expected in fault_messages(phone)
    assert "guessing game" in expected


def test_a_read_only_database_says_so_before_anyone_taps(stores, monkeypatch) -> None:
    heists, games = stores
    heist = heists.create_heist("Read-only", "Row", 5, "Month", 12)
    game = games.create_game("Read-only", 1.0, 10)
    games.next_round(game.game.id, game.admin_key)
    for store_class in (survey.HeistStore, survey.GameStore):
        monkeypatch.setattr(store_class, "read_only", property(lambda self: True))
    phone = page(HEIST, join=heist.heist.code)
    assert not phone.exception
    assert "heist_secret" not in [s.key for s in phone.selectbox]
    assert activity.fault_message("read_only", student=True, activity="heist") in fault_messages(
        phone
    )
    phone = page(GAME, join=game.game.code)
    assert not phone.exception
    assert not [b for b in phone.button if b.key.startswith("game_guess_")]
    assert activity.fault_message("read_only", student=True, activity="game") in fault_messages(
        phone
    )
    lecturer = page(GAME, manage=game.game.code, key=game.admin_key)
    assert activity.fault_message("read_only", student=False, activity="game") in fault_messages(
        lecturer
    )
    assert lecturer.button(key="game_next").disabled
