"""One hostile tab floods the server: what it costs, and what a bystander waits.

A modified tab (bench/room_client.Student on loopback) opens a lesson, then sends one kind of
message as fast as its socket takes them, without waiting for answers. Soon after it starts
(2 s into a timed flood), a bystander opens the class quiz, then taps (a rerun, answered)
once a second. Printed per case: what was sent and whether the server closed the flooding
connection, the server's CPU during the flood and until idle again (utime + stime from
/proc, every replica, and the `git` it ran), the bystander's time to open the quiz and the
slowest tap.

Cases (the floods that once stalled the room): reruns at 1,800 a second for 10 s; 2,000
reruns at once; 2,000 `load_git_info` at once; 2,000 `clear_cache` at once; with --replicas
2, 1,500 `load_git_info` to each replica of `make room` while two students tap.

    .venv/bin/python bench/bench_flood.py                 # every case, one process
    .venv/bin/python bench/bench_flood.py --replicas 2    # the room case, behind HAProxy
    .venv/bin/python bench/bench_flood.py --root /tmp/before --case git   # another checkout

The per-connection budget (deploy/guard.py) is what keeps a flood from stalling the room.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import os
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from picows import WSMsgType  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402

from bench.room_client import ProtocolError, Student  # noqa: E402

BYSTANDER_AT_S = 2.0
PAGE = "laplace"
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Case:
    name: str
    kind: str  # rerun | git | cache
    messages: int
    rate: float | None  # messages a second; None: as fast as the socket takes them
    seconds: float = 10.0  # how long the bystander keeps tapping
    bystander_at: float = 0.3  # seconds into the flood the bystander opens the quiz


CASES = {
    "rerun-rate": Case(
        "reruns, 1,800 a second for 10 s", "rerun", 18_000, 1_800.0, bystander_at=2.0
    ),
    "rerun-burst": Case("2,000 reruns at once", "rerun", 2_000, None),
    "git": Case("2,000 load_git_info at once", "git", 2_000, None),
    "cache": Case("2,000 clear_cache at once", "cache", 2_000, None),
}
ROOM_CASE = Case("1,500 load_git_info to each replica", "git", 1_500, None)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes, every thread, and of the children they waited
    for (the `git` that `load_git_info` runs)."""
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += sum(int(value) for value in fields[11:15]) / TICKS
    return total


def payload(kind: str, flooder: Student) -> bytes:
    message = BackMsg()
    if kind == "rerun":
        message.rerun_script.query_string = ""
        message.rerun_script.page_name = PAGE
        message.rerun_script.page_script_hash = flooder.page_script_hash
    elif kind == "git":
        message.load_git_info = True
    else:
        message.clear_cache = True
    return message.SerializeToString()


async def flood(url: str, case: Case) -> tuple[int, str]:
    """Sent messages, and how the connection ended ('' if the flood ended it)."""
    flooder = Student(url, PAGE, timeout_s=120)
    await flooder.open()
    data, sent, start = payload(case.kind, flooder), 0, time.perf_counter()
    while sent < case.messages and not flooder._lost:
        allowed = case.messages if case.rate is None else case.rate * (time.perf_counter() - start)
        while sent < min(allowed, case.messages) and not flooder._lost:
            flooder._ws.send(WSMsgType.BINARY, data)
            sent += 1
            if case.rate is None and sent % 200 == 0:
                await asyncio.sleep(0)  # let the loop write
        await asyncio.sleep(0.002)
    await asyncio.sleep(1.0)  # the server's answer to the last of them
    lost = flooder._lost
    await flooder.close()
    return sent, lost


async def bystander(url: str, seconds: float, delay: float = BYSTANDER_AT_S) -> tuple[float, float]:
    """Seconds to open the class quiz, and the slowest tap (a rerun, answered)."""
    await asyncio.sleep(delay)
    student = Student(url, "class-quiz", timeout_s=180)
    try:
        opened = (await student.open()).seconds
        taps = []
        for _ in range(max(1, int(seconds - delay))):
            await asyncio.sleep(1.0)
            taps.append((await student.rerun()).seconds)
    except (ProtocolError, TimeoutError) as error:
        print(f"  bystander failed: {error!r}")
        return float("inf"), float("inf")
    finally:
        await student.close()
    return opened, max(taps)


async def already_in(url: str, seconds: float) -> float:
    """A student who opened the quiz before the flood: its slowest tap during it."""
    student = Student(url, "class-quiz", timeout_s=180)
    await student.open()
    taps = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        await asyncio.sleep(1.0)
        taps.append((await student.rerun()).seconds)
    await student.close()
    return max(taps)


async def run_case(urls: list[str], front: str, pids: list[int], case: Case) -> dict:
    before = cpu_seconds(pids)
    start = time.perf_counter()
    present = [asyncio.ensure_future(already_in(front, case.seconds)) for _ in range(len(urls))]
    watcher = bystander(front, case.seconds, case.bystander_at)
    results = await asyncio.gather(*(flood(url, case) for url in urls), watcher, *present)
    count = len(urls)
    floods, (opened, tap), waits = results[:count], results[count], results[count + 1 :]
    during = cpu_seconds(pids) - before
    last = cpu_seconds(pids)
    while time.perf_counter() - start < 180:  # until the server is idle again
        await asyncio.sleep(1.0)
        now = cpu_seconds(pids)
        if now - last < 0.05:
            break
        last = now
    sent = sum(s for s, _ in floods)
    closed = [lost for _, lost in floods if lost]
    row = {
        "case": case.name,
        "sent": sent,
        "closed": f"{len(closed)}/{len(floods)}",
        "cpu_flood": during,
        "cpu_idle": cpu_seconds(pids) - before,
        "open": opened,
        "tap": max(tap, *waits),
    }
    print(
        f"{row['case']}: sent {sent:,}; flooding connections closed {row['closed']}; "
        f"server CPU {during:.1f} s during, {row['cpu_idle']:.1f} s until idle; "
        f"bystander opened the quiz in {opened:.2f} s, slowest tap {row['tap']:.2f} s",
        flush=True,
    )
    return row


def _healthy(url: str) -> bool:
    with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
        return True
    return False


def _load_room(root: Path):
    spec = importlib.util.spec_from_file_location("flood_room", root / "deploy" / "room.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Room


def serve(root: Path) -> tuple[subprocess.Popen, str]:
    """`deploy/serve.py` of the checkout at `root` on a free loopback port, once healthy: the
    process and its URL (the caller terminates it)."""
    port = 8600 + os.getpid() % 300
    server = subprocess.Popen(
        [
            sys.executable,
            str(root / "deploy" / "serve.py"),
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
        ],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(240):
        if _healthy(url):
            break
        time.sleep(0.25)
    return server, url


def bench(root: Path, replicas: int, names: list[str]) -> None:
    if replicas > 1:
        Room = _load_room(root)
        with Room(replicas, log_dir=Path("/tmp/bench-flood-room")) as room:
            pids = [process.pid for process in room.replicas]
            for url in room.replica_urls:
                asyncio.run(Student(url, PAGE).open())  # warm each replica
            asyncio.run(run_case(room.replica_urls, room.url, pids, ROOM_CASE))
        return
    server, url = serve(root)
    try:
        asyncio.run(Student(url, PAGE).open())  # warm: the first visit's caches
        asyncio.run(Student(url, "class-quiz").open())
        for name in names:
            asyncio.run(run_case([url], url, [server.pid], CASES[name]))
            for _ in range(120):  # a server closed by a flood would be a finding too
                if _healthy(url):
                    break
                time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose server runs")
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="default: all")
    args = parser.parse_args()
    print(f"server: {args.root}, {args.replicas} process(es)", flush=True)
    bench(args.root.resolve(), args.replicas, args.case or list(CASES))


if __name__ == "__main__":
    main()
