"""One session flooding reruns: what it costs the server, and what a bystander waits.

A modified tab (bench/room_client.Student on loopback) opens a lesson and then sends rerun
requests as fast as the socket takes them, without waiting for answers, for FLOOD_SECONDS
(bounded by MAX_MESSAGES). Two seconds in, a bystander opens the class quiz; every second a
phone-like poll runs. Printed: messages sent, the server's CPU over the flood and until it is
idle again (utime + stime from /proc), the bystander's first render and the polls' waits.

    .venv/bin/python bench/bench_flood.py            # starts its own `streamlit run`
    .venv/bin/python bench/bench_flood.py --url http://127.0.0.1:8501 --pid 1234

The app's per-session budget (ui/pace.py) is what keeps a flood from stalling the room.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from picows import WSMsgType  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402

from bench.room_client import Student  # noqa: E402

FLOOD_SECONDS = 10.0
RATE = 1_800  # messages a second: the finding's flood (18,000 in 10 s)
MAX_MESSAGES = 50_000
BYSTANDER_AT_S = 2.0
PAGE = "laplace"
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def flood(base_url: str) -> int:
    flooder = Student(base_url, PAGE, timeout_s=120)
    await flooder.open()
    message = BackMsg()
    message.rerun_script.query_string = ""
    message.rerun_script.page_name = PAGE
    message.rerun_script.page_script_hash = flooder.page_script_hash
    payload = message.SerializeToString()
    sent, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < FLOOD_SECONDS and sent < MAX_MESSAGES:
        while sent < min(RATE * elapsed, MAX_MESSAGES):
            flooder._ws.send(WSMsgType.BINARY, payload)
            sent += 1
        await asyncio.sleep(0.002)  # let the loop write
    await flooder.close()
    return sent


async def bystander(base_url: str) -> tuple[float, list[float]]:
    await asyncio.sleep(BYSTANDER_AT_S)
    student = Student(base_url, "class-quiz", timeout_s=120)
    opened = await student.open()
    polls = []
    for _ in range(int(FLOOD_SECONDS - BYSTANDER_AT_S)):
        await asyncio.sleep(1.0)
        polls.append((await student.rerun()).seconds)
    await student.close()
    return opened.seconds, polls


async def scenario(base_url: str, pid: int) -> None:
    before = cpu_seconds(pid)
    start = time.perf_counter()
    sent, (first, polls) = await asyncio.gather(flood(base_url), bystander(base_url))
    flood_cpu = cpu_seconds(pid) - before
    last = cpu_seconds(pid)
    while True:  # until the server is idle again (a backlog of runs drains)
        await asyncio.sleep(1.0)
        now = cpu_seconds(pid)
        if now - last < 0.05 or time.perf_counter() - start > 120:
            break
        last = now
    total = cpu_seconds(pid) - before
    print(f"flood: {sent:,} rerun messages in {FLOOD_SECONDS:.0f} s on /{PAGE}")
    print(f"server CPU: {flood_cpu:.1f} s during the flood, {total:.1f} s until idle")
    print(f"bystander: class quiz opened in {first:.2f} s (2 s into the flood)")
    print(f"bystander reruns: median {statistics.median(polls):.3f} s, max {max(polls):.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url")
    parser.add_argument("--pid", type=int)
    args = parser.parse_args()
    if args.url:
        asyncio.run(scenario(args.url, args.pid))
        return
    port = 8600 + os.getpid() % 300
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.25)
        asyncio.run(Student(url, PAGE).open())  # warm: the first visit's caches
        asyncio.run(scenario(url, server.pid))
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
