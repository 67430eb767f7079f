"""Deployment files, read as their tools would read them: the
HAProxy configuration of `make room`, the Dockerfile and the Kubernetes manifest. Images
are not built here; the rules each file must keep are checked."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib

import pytest
import yaml

from conftest import ROOT
from deploy.room import CONFIG, MAX_WORKERS, Room

STREAMLIT_CONFIG = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
HEALTH = "/_stcore/health"


# --- HAProxy (make room) ---------------------------------------------------------------
def haproxy_lines() -> list[str]:
    return [line.split("#", 1)[0].strip() for line in CONFIG.read_text().splitlines()]


def test_haproxy_config_has_what_streamlit_needs():
    lines = haproxy_lines()
    assert "balance leastconn" in lines
    assert "cookie PP_REPLICA insert indirect nocache httponly" in lines  # affinity
    assert f"option httpchk GET {HEALTH}" in lines
    assert "option redispatch" in lines  # a dead replica's tabs go to a live one
    tunnel = next(line for line in lines if line.startswith("timeout tunnel"))
    assert tunnel.endswith("4h")  # WebSockets last a lecture
    check = next(line for line in lines if line.startswith("timeout check"))
    assert int(re.search(r"(\d+)s", check).group(1)) >= 5  # a busy replica answers late
    server_default = next(line for line in lines if line.startswith("default-server"))
    assert int(re.search(r"fall (\d+)", server_default).group(1)) >= 3
    servers = [line for line in lines if line.startswith("server ")]
    assert len(servers) == MAX_WORKERS
    assert all(" check " in f"{line} " and " cookie r" in line for line in servers)
    assert not any("roundrobin" in line for line in lines)


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="needs Debian's haproxy")
@pytest.mark.parametrize("workers", [1, 2, MAX_WORKERS])
def test_haproxy_accepts_the_config_for_any_room(workers):
    env = {**os.environ, "PP_LISTEN": "127.0.0.1:8501"}
    env.update({f"PP_REPLICA_{i}": f"127.0.0.1:{8600 + i}" for i in range(1, workers + 1)})
    done = subprocess.run(
        ["haproxy", "-c", "-f", str(CONFIG)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_room_shares_one_cookie_secret_and_keeps_a_given_one():
    if not shutil.which("haproxy") and not os.path.exists("/usr/sbin/haproxy"):
        pytest.skip("needs Debian's haproxy")
    room = Room(3)
    secret = room.env["STREAMLIT_SERVER_COOKIE_SECRET"]
    assert len(secret) == 64  # one random secret for all three replicas' environment
    assert (
        Room(2, env={"STREAMLIT_SERVER_COOKIE_SECRET": "given"}).env[
            "STREAMLIT_SERVER_COOKIE_SECRET"
        ]
        == "given"
    )
    for bad in (0, MAX_WORKERS + 1, 1.5, "2"):
        with pytest.raises(ValueError, match="workers"):
            Room(bad)


def test_replicas_are_pinned_one_core_each_round_robin(monkeypatch):
    """With 2 or more replicas each runs on a core of its own (one Streamlit process
    uses one core at a time; left to float, 2 replicas on 2 cores got 0.77 of a core each,
    pinned 0.85); one replica, or one usable core, is left unpinned."""
    from deploy import room as room_module

    monkeypatch.setattr(room_module.os, "sched_getaffinity", lambda pid: {3, 1})
    assert room_module.replica_cores(1) == [None]
    assert room_module.replica_cores(2) == [1, 3]
    assert room_module.replica_cores(3) == [1, 3, 1]
    monkeypatch.setattr(room_module.os, "sched_getaffinity", lambda pid: {0})
    assert room_module.replica_cores(2) == [None, None]
    monkeypatch.delattr(room_module.os, "sched_getaffinity")
    assert room_module.replica_cores(4) == [None] * 4


# --- Dockerfile --------------------------------------------------------------------------
def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments), continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instruction, _, rest = line.partition(" ")
            found.append((instruction.upper(), rest.strip()))
    return found


def test_dockerfile_pins_its_base_runs_as_a_user_and_checks_health():
    instructions = dockerfile()
    (base,) = [rest for name, rest in instructions if name == "FROM"]
    image, _, tag = base.partition(":")
    assert image == "python"
    assert re.fullmatch(r"\d+\.\d+\.\d+-slim-\w+", tag), tag  # exact version, not "latest"
    users = [rest for name, rest in instructions if name == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    (health,) = [rest for name, rest in instructions if name == "HEALTHCHECK"]
    assert HEALTH in health and "--retries=5" in health and "--timeout=10s" in health
    (cmd,) = [rest for name, rest in instructions if name == "CMD"]
    command = yaml.safe_load(cmd)  # the exec form is a JSON array
    assert command[:2] == ["python", "deploy/serve.py"]  # the course's st.App: guarded, preloaded
    assert "--server.address=0.0.0.0" in command
    port = next(c for c in command if c.startswith("--server.port=")).split("=")[1]
    assert ("EXPOSE", port) in instructions
    assert ("COPY", "requirements.txt .") in instructions  # runtime deps only
    run = " ".join(rest for name, rest in instructions if name == "RUN")
    assert "requirements-dev" not in run


def test_dockerignore_keeps_the_venv_and_local_data_out():
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".venv/", "var/", ".git/", ".streamlit/secrets.toml"):
        assert entry in ignored


# --- Kubernetes --------------------------------------------------------------------------
def manifest() -> dict[str, dict]:
    path = ROOT / "deploy" / "kubernetes" / "privacy-playground.yaml"
    documents = [d for d in yaml.safe_load_all(path.read_text()) if d]
    return {d["kind"]: d for d in documents}


def test_manifest_has_the_four_parts():
    assert set(manifest()) == {"Secret", "Deployment", "Service", "Ingress"}


def test_deployment_runs_replicas_with_the_store_and_secret_from_the_secret():
    parts = manifest()
    deployment, secret = parts["Deployment"], parts["Secret"]
    spec = deployment["spec"]
    assert spec["replicas"] >= 2
    assert spec["selector"]["matchLabels"] == spec["template"]["metadata"]["labels"]
    pod = spec["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    (container,) = pod["containers"]
    env = {e["name"]: e["valueFrom"]["secretKeyRef"] for e in container["env"]}
    assert env["SURVEY_DB_URL"]["name"] == secret["metadata"]["name"]
    assert env["STREAMLIT_SERVER_COOKIE_SECRET"]["name"] == secret["metadata"]["name"]
    assert {ref["key"] for ref in env.values()} == set(secret["stringData"])
    assert secret["stringData"]["survey-db-url"].startswith("postgresql")
    assert "CHANGE-ME" in secret["stringData"]["cookie-secret"]  # never a real value
    for probe in ("readinessProbe", "livenessProbe"):
        check = container[probe]
        assert check["httpGet"]["path"] == HEALTH
        assert check["timeoutSeconds"] >= 5 and check["failureThreshold"] >= 3


def test_service_and_ingress_reach_the_pods_with_affinity_and_long_websockets():
    parts = manifest()
    deployment, service, ingress = parts["Deployment"], parts["Service"], parts["Ingress"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"] == labels
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    port_names = {p["name"] for p in container["ports"]}
    assert {p["targetPort"] for p in service["spec"]["ports"]} <= port_names
    (rule,) = ingress["spec"]["rules"]
    backend = rule["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == service["metadata"]["name"]
    assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}
    notes = ingress["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    assert notes[prefix + "affinity"] == "cookie"
    assert notes[prefix + "affinity-mode"] == "persistent"
    for timeout in ("proxy-read-timeout", "proxy-send-timeout"):
        assert int(notes[prefix + timeout]) >= 3600  # a lecture's WebSocket
    body = notes[prefix + "proxy-body-size"]
    assert int(body.rstrip("m")) >= STREAMLIT_CONFIG["server"]["maxUploadSize"]


def test_readme_documents_make_room():
    readme = (ROOT / "README.md").read_text()
    assert "## Teaching a large class" in readme
    assert "make room WORKERS=" in readme


def test_make_dev_reloads_on_save_and_production_keeps_its_settings():
    """`.streamlit/config.toml` is what production reads (Community Cloud, make run, make room,
    the Docker image): no file watcher, no rerun on save, no error details in the page.
    `make dev` overrides exactly those three for its own server."""
    dry = subprocess.run(
        ["make", "-n", "dev", "PORT=8599"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    (command,) = [line for line in dry.splitlines() if "deploy/serve.py" in line]
    assert "--server.fileWatcherType poll" in command
    assert "--server.runOnSave true" in command
    assert "--client.showErrorDetails full" in command
    assert STREAMLIT_CONFIG["server"]["fileWatcherType"] == "none"
    assert STREAMLIT_CONFIG["server"]["runOnSave"] is False
    assert STREAMLIT_CONFIG["client"]["showErrorDetails"] == "none"
    run = subprocess.run(
        ["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "fileWatcherType" not in run and "showErrorDetails" not in run
    readme = (ROOT / "README.md").read_text()
    assert "make dev" in readme and "make run" in readme


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: OpenBLAS starts no threads")
def test_the_server_gives_each_linear_algebra_call_one_thread():
    """OpenBLAS starts a thread per core for every matrix product; in a server whose sessions
    share the cores, one tab's computation took 1.5 cores where one core did more
    (bench/bench_seed_flood.py). deploy/serve.py sets one thread a call before numpy loads,
    unless the operator set it."""
    count = (
        "import numpy as np, os; a = np.ones((400, 400)); a @ a; "
        "print(len(os.listdir('/proc/self/task')))"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}

    def threads(prefix: str) -> int:
        done = subprocess.run(
            [sys.executable, "-c", prefix + count],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return int(done.stdout.split()[-1])

    assert threads("") > 1  # numpy alone: OpenBLAS's threads
    assert threads("import deploy.serve as s; s.one_thread_per_call(); ") == 1
    env["OPENBLAS_NUM_THREADS"] = "2"  # an operator's choice is kept
    assert threads("import deploy.serve as s; s.one_thread_per_call(); ") == 2


def test_app_sets_one_thread_per_call_before_anything_loads_numpy():
    """Community Cloud runs app.py itself, without deploy/serve.py, and numpy is not loaded
    before its first run (Streamlit's server does not import it): app.py's first statements
    set OPENBLAS_NUM_THREADS, before any import that could load numpy."""
    statements = ast.parse((ROOT / "app.py").read_text(encoding="utf-8")).body[1:]  # docstring
    first = next(n for n in statements if not isinstance(n, ast.Import | ast.ImportFrom))
    before = [ast.unparse(n) for n in statements[: statements.index(first)]]
    assert before == ["import os"], before
    assert ast.unparse(first) == "os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')"
