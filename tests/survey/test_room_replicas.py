"""Two replicas behind HAProxy (deploy/room.py, deploy/haproxy.cfg), and one dies mid-survey.

Simulated students (bench/room_client.py: Streamlit's own WebSocket protocol, like a tab)
join a survey through the balancer and answer; halfway through, one replica is killed with
SIGKILL. Then:
- every answer a student saw acknowledged is in the store;
- the projector, served by the surviving replica, counts every stored answer;
- every student of the dead replica reconnects (the balancer sends its affinity cookie to
  the live replica) and is told whether the answer counted: "already answered" when it is
  in the store, the buttons again when it is not, and a new tap then counts.
The test fails if answers, surveys or signing keys are kept in a replica's memory: the
surviving replica would not know the dead one's answers or tokens.

Needs Debian's haproxy (`make test` installs it when run as root); skipped without it.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import survey
from bench.room_client import ProtocolError, Student
from deploy.room import HAPROXY, Room

# The room's tests (this one and the two that import these marks): marked "room", and skipped
# without Debian's haproxy.
ROOM_MARKS = [
    pytest.mark.room,
    pytest.mark.skipif(
        not Path(HAPROXY).exists() and shutil.which("haproxy") is None,
        reason="needs Debian's haproxy: `sudo apt-get install haproxy` (make test installs it)",
    ),
]
pytestmark = ROOM_MARKS

STUDENTS = 24
ACCEPTED = "Your reported answer is in"
ALREADY = "This browser has already answered this survey"
AFFINITY = "PP_REPLICA"
TOKEN_COOKIE = "pp_survey_me"


def replica_of(student: Student) -> str:
    return student.cookies[AFFINITY]


async def scenario(room: Room, db_url: str) -> dict:
    store = survey.SurveyStore(db_url)
    created = store.create_survey("Did you sleep more than 7 hours?", survey.two_coins())
    code, survey_id = created.survey.code, created.survey.id

    students = [Student(room.url, "class-survey", f"join={code}") for _ in range(STUDENTS)]
    for student in students:  # one after another: leastconn alternates the replicas
        result = await student.open()
        assert result.exceptions == [] and student.widget("button", "Yes")
    on = {name: [s for s in students if replica_of(s) == name] for name in ("r1", "r2")}
    assert len(on["r1"]) >= STUDENTS // 3 and len(on["r2"]) >= STUDENTS // 3, on

    acknowledged: list[Student] = []
    cut_off: list[Student] = []
    random.seed(28)
    order = random.sample(students, len(students))
    first, second = order[: STUDENTS // 2], order[STUDENTS // 2 :]

    async def tap(student: Student) -> None:
        try:
            await student.tap(student.widget("button", random.choice(("Yes", "No"))))
        except ProtocolError:
            cut_off.append(student)
            return
        if ACCEPTED in student.text():
            acknowledged.append(student)

    await asyncio.gather(*(tap(s) for s in first))
    # While the second half is tapping, replica 1 dies: no clean shutdown.
    second_taps = asyncio.gather(*(tap(s) for s in second))
    await asyncio.sleep(0.05)
    await asyncio.to_thread(room.kill_replica, 0)
    await second_taps
    # A tab whose replica died notices on its next message: every student of r1 does.
    for student in on["r1"]:
        if student not in cut_off:
            try:
                await student.rerun()
            except ProtocolError:
                cut_off.append(student)

    # Reconnect, as the tab does: same browser, so same cookies (the student token, and
    # the affinity cookie naming the dead replica, which the balancer overrides).
    reconnected = {}
    for student in cut_off:
        again = Student(room.url, "class-survey", f"join={code}")
        again.cookies = dict(student.cookies)
        result = await again.open()
        assert result.exceptions == []
        reconnected[student.cookies[TOKEN_COOKIE]] = again

    # Told the truth: "already answered" exactly when the answer is in the store; else the
    # buttons again, and that tap counts.
    told = {}
    for token, again in reconnected.items():
        stored = store.has_answered(survey_id, token)
        told[token] = (stored, ALREADY in again.text(), replica_of(again))
        if not stored:
            result = await again.tap(again.widget("button", "Yes"))
            assert result.exceptions == [] and ACCEPTED in again.text()

    lecturer = Student(room.url, "class-survey", f"manage={code}&key={created.admin_key}")
    await lecturer.open()
    # The join QR is an image in the surviving replica's memory, rebuilt there: the
    # projector's browser fetches it through the balancer, its cookie naming that replica.
    assert replica_of(lecturer) == "r2" and lecturer.images
    qr = await asyncio.to_thread(lecturer.fetch, lecturer.images[0])
    return {
        "store": store,
        "survey_id": survey_id,
        "acknowledged": [s.cookies[TOKEN_COOKIE] for s in acknowledged],
        "on_r1": [s.cookies[TOKEN_COOKIE] for s in on["r1"]],
        "told": told,
        "tokens": [s.cookies[TOKEN_COOKIE] for s in students],
        "projector": lecturer,
        "qr": qr,
    }


def run_in_own_loop(coroutine):
    """asyncio.run in a thread of its own: after the browser tests, pytest-playwright's sync
    API keeps an event loop running in this thread, where asyncio.run refuses to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_a_replica_killed_mid_survey_loses_no_acknowledged_answer(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'survey.sqlite3'}"
    with Room(2, log_dir=tmp_path / "logs", env={"SURVEY_DB_URL": db_url}) as room:
        if None not in room.replica_cores:  # each replica on its own core (2+ cores here)
            for process, core in zip(room.replicas, room.replica_cores, strict=True):
                assert os.sched_getaffinity(process.pid) == {core}
        found = run_in_own_loop(scenario(room, db_url))
        assert room.replicas[1].poll() is None  # the survivor still serves
    store, survey_id = found["store"], found["survey_id"]

    # Every acknowledged answer is stored (acknowledged on either replica).
    assert found["acknowledged"], "no tap was acknowledged"
    for token in found["acknowledged"]:
        assert store.has_answered(survey_id, token)

    # Every student of the dead replica came back, to the survivor, and was told the truth.
    assert set(found["on_r1"]) <= set(found["told"])
    for stored, says_already, replica in found["told"].values():
        assert replica == "r2"
        assert says_already == stored
    # In the end every student's answer is in, once.
    for token in found["tokens"]:
        assert store.has_answered(survey_id, token)
    assert store.counts(survey_id).responses == STUDENTS

    # The projector on the surviving replica counts every stored answer.
    shown = found["projector"].metrics["Answers / devices joined"]
    assert shown.split(" / ")[0] == str(STUDENTS), shown
    status, content_type, body = found["qr"]
    assert (status, content_type) == (200, "image/png") and body.startswith(b"\x89PNG")
    store.dispose()
