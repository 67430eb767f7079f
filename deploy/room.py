"""`make room WORKERS=N`: N `streamlit run` replicas of the app behind HAProxy, on one host.

The standard way to serve one Streamlit app to more people than one process can: each
replica is the course's server (deploy/serve.py: the guarded, preloaded `st.App`) on its own
loopback port, and Debian's HAProxy
(deploy/haproxy.cfg, read as it is: this script only sets its environment variables) is
the one address the class opens. What the replicas share:

- the class store: SURVEY_DB_URL when set (PostgreSQL across hosts), else the default SQLite
  file var/survey.sqlite3 in WAL mode (one host);
- one cookie secret, STREAMLIT_SERVER_COOKIE_SECRET (kept when set, else one random secret
  for this room), so an XSRF token or cookie made by one replica checks on another;
- nothing else: sessions live in the replica the affinity cookie names; everything another
  replica needs (surveys, answers, limits, signing keys) is in the store.

Also used, as `Room`, by bench/bench_room.py and tests/survey/test_room_replicas.py.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "deploy" / "haproxy.cfg"
MAX_WORKERS = 8  # the server lines deploy/haproxy.cfg has
FIRST_BACKOFF_S = 1.0  # a process that died is started again after this, doubling per
MAX_BACKOFF_S = 30.0  # death in a row up to this; STEADY_S of life resets the doubling
STEADY_S = 60.0
START_RESTARTS = 3  # a replica that dies while the room starts is started again this often
PR_SET_PDEATHSIG = 1  # Linux prctl: a signal the child gets when its parent dies


def _die_with_parent() -> None:
    """In a child, before exec: SIGTERM it when `make room` itself dies (even by SIGKILL),
    so that no replica or HAProxy outlives the supervisor as an orphan."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def healthy(url: str, timeout_s: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            return response.status == 200
    except OSError:
        return False


def replica_cores(workers: int) -> list[int | None]:
    """The core each replica runs on: with 2 or more replicas, replica i on the i-th core this
    process may use (round robin past the last). One Streamlit process uses one core at a
    time (the GIL); left to float, two replicas on a 2-core machine each got 0.77 of a core
    (the threads of both migrating between the cores while they hand the GIL over), pinned
    0.85 each: 212 → 260 slider reruns a second, 1.8× one process (bench_room.py).
    One replica, or a system without CPU affinity, is not pinned (None)."""
    if workers < 2 or not hasattr(os, "sched_getaffinity"):
        return [None] * workers
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        return [None] * workers
    return [cores[i % len(cores)] for i in range(workers)]


class Room:
    """N replicas and HAProxy. `with Room(2) as room:` yields once HAProxy answers and every
    replica is healthy; `room.url` is the balancer, `room.replica_urls` the replicas.
    `balancer=False` starts the replicas only (what `make run` serves, for one)."""

    def __init__(
        self,
        workers: int,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        log_dir: Path | None = None,
        env: dict[str, str] | None = None,
        start_timeout_s: float = 90.0,
        balancer: bool = True,
        die_with_parent: bool = False,
    ):
        if not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
            raise ValueError(f"workers must be an int in [1, {MAX_WORKERS}], got {workers!r}")
        self.balancer = balancer
        # Only for a supervisor that starts every child from its main thread (`make room`):
        # Linux sends the signal when the *thread* that started the child ends.
        self.die_with_parent = die_with_parent
        if balancer and not Path(HAPROXY).exists():
            raise FileNotFoundError(
                f"{HAPROXY} is missing: `sudo apt-get install haproxy` (make room installs it "
                "when run as root)"
            )
        self.workers = workers
        self.host = host
        self.port = port or free_port()
        self.log_dir = Path(log_dir or ROOT / "var" / "room")
        self.start_timeout_s = start_timeout_s
        self.env = {**os.environ, **(env or {})}
        self.env.setdefault("STREAMLIT_SERVER_COOKIE_SECRET", secrets.token_hex(32))
        self.replica_ports = [free_port() for _ in range(workers)]
        self.replica_cores = replica_cores(workers)
        self.replicas: list[subprocess.Popen] = []
        self.haproxy: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return f"http://{shown}:{self.port}"

    @property
    def replica_urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.replica_ports]

    def start_replica(self, index: int) -> subprocess.Popen:
        port = self.replica_ports[index]
        command = [
            sys.executable,
            str(ROOT / "deploy" / "serve.py"),  # the course's st.App: guarded, preloaded
            "--server.headless",
            "true",
            "--server.address",
            "127.0.0.1",
            "--server.port",
            str(port),
            "--browser.gatherUsageStats",
            "false",
            "--server.fileWatcherType",
            "none",
        ]
        log = (self.log_dir / f"replica-{index + 1}.log").open("ab")
        core = self.replica_cores[index]

        def before_exec() -> None:
            if core is not None:  # every thread the replica starts inherits its core
                os.sched_setaffinity(0, {core})
            if self.die_with_parent:
                _die_with_parent()

        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=before_exec if core is not None or self.die_with_parent else None,
        )
        log.close()
        return process

    def start_haproxy(self) -> subprocess.Popen:
        haproxy_env = {**self.env, "PP_LISTEN": f"{self.host}:{self.port}"}
        for index, port in enumerate(self.replica_ports, 1):
            haproxy_env[f"PP_REPLICA_{index}"] = f"127.0.0.1:{port}"
        log = (self.log_dir / "haproxy.log").open("ab")
        process = subprocess.Popen(
            [HAPROXY, "-db", "-f", str(CONFIG)],
            env=haproxy_env,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent if self.die_with_parent else None,
        )
        log.close()
        return process

    def __enter__(self) -> Room:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        try:
            self.replicas = [self.start_replica(i) for i in range(self.workers)]
            # HAProxy starts once every replica answers: a server it checks before that is
            # marked down and only rejoins after `rise` good checks.
            self.wait_healthy(self.replica_urls)
            if not self.balancer:  # replicas only (a bench measuring one process)
                return self
            self.haproxy = self.start_haproxy()
            self.wait_healthy([self.url])
        except BaseException:
            self.stop()
            raise
        return self

    def wait_healthy(self, urls: list[str], *, say=print) -> None:
        """Wait until every URL answers its health check. A replica that dies meanwhile is
        started again at once, as supervise() does after start-up (at most
        START_RESTARTS times each: a replica that keeps dying is a broken setup, told with
        its log); HAProxy exiting is a broken setup at once."""
        deadline = time.monotonic() + self.start_timeout_s
        restarts = [0] * len(self.replicas)
        pending = list(urls)
        while pending:
            if self.haproxy is not None and self.haproxy.poll() is not None:
                raise RuntimeError(
                    f"haproxy exited with {self.haproxy.returncode}; see {self.log_dir}"
                )
            for i, process in enumerate(self.replicas):
                if process.poll() is None:
                    continue
                if restarts[i] == START_RESTARTS:
                    raise RuntimeError(
                        f"replica {i + 1} exited with {process.returncode} "
                        f"{START_RESTARTS + 1} times while the room started; see {self.log_dir}"
                    )
                restarts[i] += 1
                say(
                    f"replica {i + 1} exited ({process.returncode}) while the room started; "
                    "restarting it",
                    flush=True,
                )
                self.replicas[i] = self.start_replica(i)
            pending = [url for url in pending if not healthy(f"{url}/_stcore/health")]
            if pending and time.monotonic() > deadline:
                raise TimeoutError(f"not healthy after {self.start_timeout_s:.0f} s: {pending}")
            time.sleep(0.25)

    def kill_replica(self, index: int) -> None:
        """SIGKILL one replica: no clean shutdown, as when a machine or process dies."""
        self.replicas[index].send_signal(signal.SIGKILL)
        self.replicas[index].wait(timeout=10)

    def supervise(self, stopping: threading.Event, *, say=print, poll_s: float = 0.5) -> None:
        """Keep the room serving until `stopping` is set. A replica (or HAProxy) that
        exits is started again on its own port after a backoff (FIRST_BACKOFF_S, doubling
        for each death in a row up to MAX_BACKOFF_S; STEADY_S of life resets it), and every
        death and restart is logged; the others serve on meanwhile (HAProxy's health checks
        take a dead replica out and the restarted one back in)."""
        names = [f"replica {i + 1}" for i in range(self.workers)] + ["haproxy"]
        deaths = [0] * len(names)
        due: list[float | None] = [None] * len(names)
        started = [time.monotonic()] * len(names)
        while not stopping.wait(poll_s):
            processes = [*self.replicas, self.haproxy]
            now = time.monotonic()
            for i, process in enumerate(processes):
                if process is None:
                    continue
                if process.poll() is None:
                    if due[i] is None and now - started[i] >= STEADY_S:
                        deaths[i] = 0
                    continue
                if due[i] is None:  # just died
                    backoff = min(FIRST_BACKOFF_S * 2 ** deaths[i], MAX_BACKOFF_S)
                    deaths[i] += 1
                    due[i] = now + backoff
                    say(
                        f"{names[i]} exited ({process.returncode}); restarting it in "
                        f"{backoff:.0f} s (death {deaths[i]} in a row)",
                        flush=True,
                    )
                elif now >= due[i]:
                    if i < self.workers:
                        self.replicas[i] = self.start_replica(i)
                        fresh = self.replicas[i]
                    else:
                        self.haproxy = fresh = self.start_haproxy()
                    due[i], started[i] = None, now
                    say(f"{names[i]} restarted (pid {fresh.pid})", flush=True)

    def stop(self) -> None:
        for process in [self.haproxy, *self.replicas]:
            if process is not None and process.poll() is None:
                process.terminate()
        for process in [self.haproxy, *self.replicas]:
            if process is None:
                continue
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)

    def __exit__(self, *_exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8501)
    parser.add_argument("--log-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    stopping = threading.Event()

    def stop(signum, _frame) -> None:  # Ctrl-C, or SIGTERM from Docker, systemd, Kubernetes
        print(f"{signal.Signals(signum).name}: stopping the room", flush=True)
        stopping.set()

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)
    with Room(
        args.workers, host=args.host, port=args.port, log_dir=args.log_dir, die_with_parent=True
    ) as room:
        print(f"{args.workers} replicas behind HAProxy: open {room.url}")
        for index, (url, process) in enumerate(
            zip(room.replica_urls, room.replicas, strict=True), 1
        ):
            print(f"  replica {index}: {url} (pid {process.pid})")
        print(f"  haproxy pid {room.haproxy.pid}; logs in {room.log_dir}")
        print("  A replica that dies is restarted; Ctrl-C stops them all.", flush=True)
        room.supervise(stopping)
    print("stopped: every replica and HAProxy", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
