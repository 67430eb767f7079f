"""A class quiz across two replicas behind HAProxy (deploy/room.py), one of which dies
mid-question: every answer a phone saw acknowledged is in the store; when the lecturer moves
on, phones on the surviving replica and the reconnected phones of the dead one all follow to
the next question. Fails if a quiz's state lived in one replica's memory.

Needs Debian's haproxy (`make test` installs it when run as root); skipped without it."""

from __future__ import annotations

import asyncio
import random

from test_room_replicas import AFFINITY, ROOM_MARKS, TOKEN_COOKIE, run_in_own_loop

import survey
from bench.room_client import ProtocolError, Student
from deploy.room import Room
from lessons.class_quiz.model import lesson_questions

pytestmark = ROOM_MARKS

PHONES = 16
ACCEPTED = "Your answer is in"


async def scenario(room: Room, db_url: str) -> dict:
    store = survey.SurveyStore(db_url)
    quizzes = survey.QuizStore(store)
    created = quizzes.create_quiz("Replicas", list(lesson_questions("laplace")))
    code, quiz_id, key = created.quiz.code, created.quiz.id, created.admin_key
    quizzes.show(quiz_id, key, 0)

    phones = [Student(room.url, "class-quiz", f"join={code}") for _ in range(PHONES)]
    for phone in phones:
        result = await phone.open()
        assert result.exceptions == [] and phone.widget("button", "A.")
    on_r1 = [p for p in phones if p.cookies[AFFINITY] == "r1"]
    assert PHONES // 4 <= len(on_r1) <= 3 * PHONES // 4

    acknowledged, cut_off = [], []
    random.seed(35)

    async def tap(phone: Student) -> None:
        try:
            await phone.tap(phone.widget("button", random.choice(("A.", "B.", "C."))))
        except ProtocolError:
            cut_off.append(phone)
            return
        if ACCEPTED in phone.text():
            acknowledged.append(phone)

    taps = asyncio.gather(*(tap(p) for p in phones))
    await asyncio.sleep(0.05)
    await asyncio.to_thread(room.kill_replica, 0)
    await taps
    quizzes.show(quiz_id, key, 1)  # the lecturer moves on (from any replica: the store)
    following = {}
    for phone in phones:
        try:
            if phone in cut_off:
                raise ProtocolError("cut off")
            await phone.rerun(fragment_id=phone.widget("button", "A.").fragment_id)
            following[id(phone)] = phone.text()
        except ProtocolError:  # its replica died: the tab reconnects through the balancer
            again = Student(room.url, "class-quiz", f"join={code}")
            again.cookies = dict(phone.cookies)
            assert (await again.open()).exceptions == []
            following[id(phone)] = again.text()
    return {
        "quizzes": quizzes,
        "quiz_id": quiz_id,
        "acknowledged": [p.cookies[TOKEN_COOKIE] for p in acknowledged],
        "following": following,
    }


def test_a_quiz_runs_across_replicas_and_survives_one_dying(tmp_path) -> None:
    db_url = f"sqlite:///{tmp_path / 'survey.sqlite3'}"
    with Room(2, log_dir=tmp_path / "logs", env={"SURVEY_DB_URL": db_url}) as room:
        found = run_in_own_loop(scenario(room, db_url))
    quizzes, quiz_id = found["quizzes"], found["quiz_id"]
    assert found["acknowledged"]
    for token in found["acknowledged"]:
        assert quizzes.sent_option(quiz_id, 0, token) is not None
    assert sum(quizzes.counts(quiz_id)[0]) >= len(found["acknowledged"])
    assert all("Question 2 of 3" in shown for shown in found["following"].values())
    quizzes.store.dispose()
