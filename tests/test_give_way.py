"""A run waiting for the heavy turn ends when nobody wants its result (deploy/give_way.py), in
a real server: simulated tabs (bench/room_client.py) on tests/apps/heavy_turns.py, served as
deploy/asgi.py serves the course. One tab holds the turn for 3 s of CPU; another asks for a
result meanwhile, then closes, asks for a newer one, or waits and is told why. What each run
computed is read from the page's log, written by the server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bench.room_client import Student
from conftest import ROOT, serve_app

ASGI = ROOT / "tests" / "apps" / "heavy_turns_asgi.py"
HOLD_S = 3.0  # CPU seconds the tab ahead computes, holding the turn (a loaded machine
# may take a second to connect the tab behind it)


@pytest.fixture(scope="module")
def heavy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("heavy_turns")
    log = folder / "computed.log"
    log.touch()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PP_HEAVY_LOG", str(log))
        with serve_app(folder, script=ASGI) as base_url:
            yield base_url, log


def lines(log: Path) -> list[str]:
    return log.read_text().splitlines()


async def until_logged(log: Path, line: str, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while line not in lines(log):
        assert time.monotonic() < deadline, f"{line!r} never logged: {lines(log)}"
        await asyncio.sleep(0.02)


def run(scenario) -> object:
    """asyncio.run in a thread of its own (after the browser tests, pytest-playwright keeps
    an event loop running in this one)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, scenario).result()


async def visit(student: Student) -> None:
    await student.open()
    await student.close()


async def with_the_turn_taken(base_url: str, log: Path, first: int, behind) -> object:
    """Warm the function up (it becomes heavy), let a tab compute `first` holding the turn,
    and run `behind(log)` meanwhile; then return its result once the tab ahead is done."""
    await visit(Student(base_url, "", f"x={first - 1}&s=0.1"))
    ahead = Student(base_url, "", f"x={first}&s={HOLD_S}")
    holding = asyncio.create_task(ahead.open())
    await until_logged(log, f"start {first}")
    try:
        return await behind(log)
    finally:
        result = await holding
        assert result.status == "FINISHED_SUCCESSFULLY" and not result.exceptions
        await ahead.close()


def test_a_tab_closed_while_waiting_its_turn_computes_nothing(heavy_server) -> None:
    base_url, log = heavy_server

    async def behind(log: Path) -> None:
        waiting = Student(base_url, "", "x=12&s=0.1")
        opening = asyncio.create_task(waiting.open())
        await until_logged(log, "asked 12")
        await asyncio.sleep(0.3)  # waiting for the turn
        await waiting.close()
        opening.cancel()

    run(with_the_turn_taken(base_url, log, 11, behind))
    # Whatever was queued has had its turn by now: a later tab's computation comes after it.
    time.sleep(0.5)
    run(visit(Student(base_url, "", "x=13&s=0.1")))
    assert "start 13" in lines(log)
    assert "start 12" not in lines(log)


def test_a_newer_run_asked_for_while_waiting_replaces_the_waiting_one(heavy_server) -> None:
    base_url, log = heavy_server

    async def behind(log: Path) -> tuple[object, dict[str, str]]:
        student = Student(base_url, "", "x=22&s=0.1")
        opening = asyncio.create_task(student.open())
        await until_logged(log, "asked 22")
        await asyncio.sleep(0.3)  # waiting for the turn
        student.query = "x=23&s=0.1"  # the student pressed "+" again
        student.send_rerun()
        result = await opening
        metrics = dict(student.metrics)
        await student.close()
        return result, metrics

    result, metrics = run(with_the_turn_taken(base_url, log, 21, behind))
    assert result.status == "FINISHED_SUCCESSFULLY" and not result.exceptions
    assert metrics == {"Result": "23"}
    assert "start 23" in lines(log)
    assert "start 22" not in lines(log)


def test_the_course_server_installs_the_yield_point() -> None:
    # deploy/asgi.py is what `make run`, `make room` and the Docker image serve.
    from deploy import asgi, give_way
    from ui import datasets

    async def start() -> list:
        async with asgi.lifespan(asgi.app):
            return list(datasets._YIELD_POINT)

    try:
        assert run(start()) == [give_way.superseded]
    finally:
        datasets.set_yield_point(None)


def test_a_tab_waiting_its_turn_is_told_why(heavy_server) -> None:
    base_url, log = heavy_server

    async def behind(log: Path) -> list[str]:
        student = Student(base_url, "", "x=32&s=0.1")
        result = await student.open()
        assert result.status == "FINISHED_SUCCESSFULLY" and not result.exceptions
        texts = list(student.texts)
        await student.close()
        return texts

    texts = run(with_the_turn_taken(base_url, log, 31, behind))
    assert any(text.startswith("Busy: 1 computation ahead of this page.") for text in texts)
