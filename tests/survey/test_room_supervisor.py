"""`make room` as a lecturer runs it (`python deploy/room.py`, its own entry point): one
replica is killed mid-quiz with SIGKILL. Before, the room logged "stopping the room" and cut
off all 40 students, the healthy replica's included; SIGTERM to the supervisor left both
replicas and HAProxy running as orphans. Now the other replica's phones keep answering, the
dead one is restarted within seconds (logged), no acknowledged answer is lost, and SIGTERM
stops every child.

Needs Debian's haproxy (`make test` installs it when run as root); skipped without it."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_room_replicas import AFFINITY, ROOM_MARKS, TOKEN_COOKIE, run_in_own_loop

import survey
from bench.room_client import ProtocolError, Student
from deploy.room import ROOT, Room, free_port, healthy

pytestmark = ROOM_MARKS

PHONES = 12
ACCEPTED = "Your answer is in"
QUESTION = survey.QuizQuestion("Which?", ("a", "b", "c"), 1, "b.")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


class RoomProcess:
    """`deploy/room.py` in a process of its own, its output read line by line."""

    def __init__(self, tmp_path: Path, db_url: str):
        self.port = free_port()
        self.out = tmp_path / "room.out"
        env = {**os.environ, "SURVEY_DB_URL": db_url, "PYTHONUNBUFFERED": "1"}
        command = [
            sys.executable,
            str(ROOT / "deploy" / "room.py"),
            "--workers",
            "2",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--log-dir",
            str(tmp_path / "logs"),
        ]
        with self.out.open("wb") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        self.url = f"http://127.0.0.1:{self.port}"

    def text(self) -> str:
        return self.out.read_text(errors="replace")

    def wait_for(self, pattern: str, timeout_s: float = 90.0) -> re.Match:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            found = re.search(pattern, self.text())
            if found:
                return found
            if self.process.poll() is not None:
                pytest.fail(f"room.py exited ({self.process.returncode}):\n{self.text()}")
            time.sleep(0.2)
        pytest.fail(f"no {pattern!r} within {timeout_s:.0f} s:\n{self.text()}")

    def children(self) -> list[int]:
        found = re.findall(r"\(pid (\d+)\)|haproxy pid (\d+)", self.text())
        return [int(pid) for pair in found for pid in pair if pid]


def answer_button(phone: Student, position: int, option: int):
    """The answer button of question `position` (the phone keeps every widget it saw)."""
    suffix = f"quiz_answer_{position}_{option}"
    (button,) = [w for w in phone.widgets.values() if w.kind == "button" and w.id.endswith(suffix)]
    return button


async def tap_all(
    phones: list[Student], position: int, option: int
) -> tuple[list[Student], list[Student]]:
    acknowledged, cut_off = [], []

    async def tap(phone: Student) -> None:
        try:
            await phone.tap(answer_button(phone, position, option))
        except ProtocolError:
            cut_off.append(phone)
            return
        if ACCEPTED in phone.text():
            acknowledged.append(phone)

    await asyncio.gather(*(tap(p) for p in phones))
    return acknowledged, cut_off


async def scenario(room: RoomProcess, quizzes: survey.QuizStore, created, pids) -> dict:
    code, quiz_id, key = created.quiz.code, created.quiz.id, created.admin_key
    quizzes.show(quiz_id, key, 0)
    phones = [Student(room.url, "class-quiz", f"join={code}") for _ in range(PHONES)]
    for phone in phones:
        assert (await phone.open()).exceptions == []
    on_first = [p for p in phones if p.cookies[AFFINITY] == "r1"]
    on_second = [p for p in phones if p.cookies[AFFINITY] != "r1"]
    assert on_first and on_second
    taps = asyncio.create_task(tap_all(phones, 0, 0))
    await asyncio.sleep(0.05)
    os.kill(pids[0], signal.SIGKILL)  # replica 1 dies mid-question
    acknowledged, _ = await taps
    # the second replica's phones keep answering: the lecturer moves on, they tap again
    quizzes.show(quiz_id, key, 1)
    for phone in on_second:
        await phone.rerun(fragment_id=answer_button(phone, 0, 0).fragment_id)
    again, cut = await tap_all(on_second, 1, 1)
    return {"acknowledged": acknowledged + again, "second": on_second, "again": again, "cut": cut}


def test_make_room_restarts_a_dead_replica_and_stops_every_child(tmp_path) -> None:
    db_url = f"sqlite:///{tmp_path / 'survey.sqlite3'}"
    quizzes = survey.QuizStore(survey.SurveyStore(db_url))
    created = quizzes.create_quiz("Supervised", [QUESTION, QUESTION])
    room = RoomProcess(tmp_path, db_url)
    children: list[int] = []
    try:
        room.wait_for(r"Ctrl-C stops them all")
        replica_pids = [int(p) for p in re.findall(r"replica \d: \S+ \(pid (\d+)\)", room.text())]
        replica_urls = re.findall(r"replica \d: (\S+) \(pid", room.text())
        assert len(replica_pids) == 2
        found = run_in_own_loop(scenario(room, quizzes, created, replica_pids))
        # every phone on the healthy replica answered the next question
        assert found["cut"] == [] and len(found["again"]) == len(found["second"])
        # the dead replica is back, on its own port, within seconds
        restarted = room.wait_for(r"replica 1 restarted \(pid (\d+)\)", timeout_s=30)
        assert "replica 1 exited (-9)" in room.text() and "stopping the room" not in room.text()
        deadline = time.monotonic() + 60
        while not healthy(f"{replica_urls[0]}/_stcore/health"):
            assert time.monotonic() < deadline, room.text()
            time.sleep(0.25)
        assert alive(int(restarted.group(1))) and alive(replica_pids[1])
        # no acknowledged answer lost
        for phone in found["acknowledged"]:
            token = phone.cookies[TOKEN_COOKIE]
            assert any(
                quizzes.sent_option(created.quiz.id, position, token) is not None
                for position in (0, 1)
            )
        children = [p for p in room.children() if alive(p)]
        assert len(children) == 3  # the restarted replica, the other, HAProxy
    finally:
        room.process.send_signal(signal.SIGTERM)  # what Docker, systemd and Kubernetes send
        room.process.wait(timeout=60)
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in children if alive(pid)], room.text()
    assert "SIGTERM: stopping the room" in room.text()
    quizzes.store.dispose()


class _StaticReplicas(Room):
    """A room whose replicas are tiny static servers answering /_stcore/health (the logic of
    start-up under test, not Streamlit), and whose first replica is SIGKILLed just as HAProxy
    starts: after every replica answered, before the room is up."""

    def __init__(self, site: Path, **kwargs):
        super().__init__(2, **kwargs)
        self.site = site
        self.said: list[str] = []

    def start_replica(self, index: int) -> subprocess.Popen:
        port = str(self.replica_ports[index])
        return subprocess.Popen(
            [sys.executable, "-m", "http.server", port, "--bind", "127.0.0.1"],
            cwd=self.site,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def start_haproxy(self) -> subprocess.Popen:
        self.kill_replica(0)
        return super().start_haproxy()

    def wait_healthy(self, urls: list[str], *, say=print) -> None:
        super().wait_healthy(urls, say=lambda line, **_: self.said.append(line))


def test_a_replica_that_dies_while_the_room_starts_is_restarted(tmp_path) -> None:
    """Finding: a replica dying during `make room`'s start-up (after HAProxy answers, before
    the banner) ended the whole room with "RuntimeError … exited with -9" (3 of 3). It is
    now started again, as after start-up, and the room comes up with every replica."""
    site = tmp_path / "site"
    (site / "_stcore").mkdir(parents=True)
    (site / "_stcore" / "health").write_text("ok")
    room = _StaticReplicas(site, log_dir=tmp_path / "logs", start_timeout_s=30)
    with room:
        assert room.said == ["replica 1 exited (-9) while the room started; restarting it"]
        assert all(process.poll() is None for process in room.replicas)
        deadline = time.monotonic() + 20
        while not all(healthy(f"{url}/_stcore/health") for url in room.replica_urls):
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert healthy(f"{room.url}/_stcore/health")
