"""The class heist and the ε guessing game across two replicas behind HAProxy
(deploy/room.py): phones on both replicas answer and are counted exactly once; what the
lecturer does through the store (pick a target, reveal a round) reaches every phone, on
either replica, at its next poll. Fails if a heist's or a game's state lived in one
replica's memory.

Needs Debian's haproxy (`make test` installs it when run as root); skipped without it."""

from __future__ import annotations

import asyncio

from test_room_replicas import AFFINITY, ROOM_MARKS, TOKEN_COOKIE, run_in_own_loop

import survey
from bench.room_client import Student
from deploy.room import Room

pytestmark = ROOM_MARKS

PHONES = 12


def on_both_replicas(phones: list[Student]) -> None:
    on_r1 = [p for p in phones if p.cookies[AFFINITY] == "r1"]
    assert 1 <= len(on_r1) <= len(phones) - 1


async def heist_scenario(room: Room, db_url: str) -> dict:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    store = survey.SurveyStore(db_url)
    heists = survey.HeistStore(store)
    made = heists.create_heist("Replicas", "Seat row", 20, "Birthday month", 12)
    phones = [Student(room.url, "class-heist", f"join={made.heist.code}") for _ in range(PHONES)]
    for phone in phones:
        assert (await phone.open()).exceptions == []
    on_both_replicas(phones)

    async def send(i: int, phone: Student) -> None:
        send = phone.widget("button", "Send my made-up answer")
        states = [
            WidgetState(
                id=phone.widget("selectbox", "Your secret").id, string_value=str(1 + i % 10)
            ),
            WidgetState(id=phone.widget("selectbox", "Seat row").id, string_value=str(1 + i)),
            WidgetState(id=phone.widget("selectbox", "Birthday month").id, string_value="3"),
            WidgetState(id=phone.widget("checkbox", "volunteer").id, bool_value=i == 5),
            Student.button_state(send),
        ]
        await phone.rerun(*states, fragment_id=send.fragment_id)
        assert "Your made-up answer is in" in phone.text()
        await phone.rerun(*states, fragment_id=send.fragment_id)  # a double tap: once

    await asyncio.gather(*(send(i, p) for i, p in enumerate(phones)))
    heists.pick_target(made.heist.id, made.admin_key)  # from the lecturer's replica
    seen = []
    for phone in phones:
        await phone.rerun(fragment_id=phone.widget("button", "Send").fragment_id)
        seen.append(phone.text())
    return {"heists": heists, "made": made, "phones": phones, "seen": seen}


def test_a_heist_across_replicas(tmp_path) -> None:
    db_url = f"sqlite:///{tmp_path / 'survey.sqlite3'}"
    with Room(2, log_dir=tmp_path / "logs", env={"SURVEY_DB_URL": db_url}) as room:
        found = run_in_own_loop(heist_scenario(room, db_url))
    heists, made = found["heists"], found["made"]
    assert heists.count_answers(made.heist.id) == (PHONES, 1)
    targets = [i for i, text in enumerate(found["seen"]) if "You are the target" in text]
    assert targets == [5]  # the one volunteer, whichever replica it is on
    assert all("it is not you" in text for i, text in enumerate(found["seen"]) if i != 5)
    heists.store.dispose()


async def game_scenario(room: Room, db_url: str) -> dict:
    store = survey.SurveyStore(db_url)
    games = survey.GameStore(store)
    made = games.create_game("Replicas", 1.0, 10)
    games.next_round(made.game.id, made.admin_key)
    phones = [Student(room.url, "class-game", f"join={made.game.code}") for _ in range(PHONES)]
    for phone in phones:
        assert (await phone.open()).exceptions == []
    on_both_replicas(phones)

    async def guess(i: int, phone: Student) -> None:
        button = phone.widget("button", "With the record" if i % 2 else "Without it")
        await phone.tap(button)
        assert "Your guess is in" in phone.text()

    await asyncio.gather(*(guess(i, p) for i, p in enumerate(phones)))
    games.reveal(made.game.id, made.admin_key)
    seen = []
    for phone in phones:
        await phone.rerun(fragment_id=phone.widget("button", "With the record").fragment_id)
        seen.append(phone.text())
    return {"games": games, "made": made, "seen": seen, "phones": phones}


def test_a_game_across_replicas(tmp_path) -> None:
    db_url = f"sqlite:///{tmp_path / 'survey.sqlite3'}"
    with Room(2, log_dir=tmp_path / "logs", env={"SURVEY_DB_URL": db_url}) as room:
        found = run_in_own_loop(game_scenario(room, db_url))
    games, made = found["games"], found["made"]
    tally = games.tallies(made.game.id)[0]
    assert (tally.with_record, tally.without) == (PHONES // 2, PHONES // 2)
    assert all("the volunteer's record" in text for text in found["seen"])
    tokens = {p.cookies[TOKEN_COOKIE] for p in found["phones"]}
    assert len(tokens) == PHONES
    games.store.dispose()
