"""The Gradescope autograder run as Gradescope runs it, for tests/homework/: a clean virtual
environment with what its setup.sh installs, and one submission graded in a fresh copy of the
unzipped autograder."""

from __future__ import annotations

import fcntl
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import nbformat

from homework import build, exercises

SYSTEM_PYTHON = Path("/usr/bin/python3")  # Gradescope's is the system's too


def autograder_venv() -> Iterator[Path]:
    """A new virtual environment with nothing but what the autograder's setup.sh installs,
    made from the system's Python where there is one and in a folder any user may enter,
    as on Gradescope: the grader can then run the notebook as `nobody` (as root).

    One per test run, shared by its workers (made once, under a lock: a venv and setup.sh's
    installs cost about 25 s of CPU each time); a run without pytest-xdist makes its own.
    The controller removes it when the run ends (tests/conftest.py)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        where = Path(tempfile.mkdtemp(prefix="autograder-venv-"))
        try:
            _make(where)
            yield where
        finally:
            shutil.rmtree(where, ignore_errors=True)
        return
    where = shared_venv_path(run)
    with open(f"{where}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (where / ".setup-done").exists():
            shutil.rmtree(where, ignore_errors=True)
            where.mkdir()
            _make(where)
    yield where


def shared_venv_path(run: str) -> Path:
    return Path(tempfile.gettempdir()) / f"autograder-venv-{run}"


def _make(where: Path) -> None:
    """The venv, and setup.sh run in it as Gradescope runs it (once)."""
    where.chmod(0o755)
    python = SYSTEM_PYTHON if SYSTEM_PYTHON.exists() else Path(sys.executable)
    subprocess.run([str(python), "-m", "venv", str(where)], check=True)
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "source"
        with zipfile.ZipFile(io.BytesIO(build.autograder_zip("laplace"))) as archive:
            archive.extractall(source)
        env = {"PATH": f"{where / 'bin'}:{os.environ['PATH']}", "HOME": scratch}
        subprocess.run(["bash", str(source / "setup.sh")], check=True, env=env)
    (where / ".setup-done").write_text("")


def graded(
    tmp_path: Path,
    venv: Path,
    lesson: str,
    notebook,
    limits: dict | None = None,
    links: dict[str, str] | None = None,
) -> dict:
    """Unzip the autograder as Gradescope lays it out under `tmp_path` and run run_autograder
    on `notebook` (setup.sh ran when the venv was made); results.json as written. `limits`:
    the grader's GRADER_* time limits for this run; `links`: symbolic links handed in beside
    the notebook (name: target, relative to the autograder's root), as a repository or an
    unpacked archive can carry them."""
    root = tmp_path / "autograder"
    source, submission = root / "source", root / "submission"
    source.mkdir(parents=True)
    submission.mkdir()
    for name, target in (links or {}).items():
        (submission / name).symlink_to(root / target)
    path = tmp_path / "autograder.zip"
    path.write_bytes(build.autograder_zip(lesson))
    with zipfile.ZipFile(path) as archive:
        archive.extractall(source)
    for name in ("setup.sh", "run_autograder"):
        (source / name).chmod(0o755)
    (root / "run_autograder").write_bytes((source / "run_autograder").read_bytes())
    nbformat.write(notebook, submission / "submission.ipynb")
    env = {
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
        "HOME": str(tmp_path / "home"),  # nothing of this trial reaches the real home
        "AUTOGRADER_ROOT": str(root),
        **(limits or {}),
    }
    assert (venv / ".setup-done").exists()  # setup.sh ran in it (autograder_venv)
    subprocess.run(["bash", str(root / "run_autograder")], check=True, env=env, timeout=600)
    return json.loads((root / "results" / "results.json").read_text())


def assert_gradescope_results(results: dict, lesson: str) -> None:
    assert set(results) == {"score", "tests"}
    assert len(results["tests"]) == len(exercises(lesson))
    for test in results["tests"]:
        assert set(test) == {"name", "score", "max_score", "output", "visibility"}
        assert 0 <= test["score"] <= test["max_score"]
    assert results["score"] == sum(t["score"] for t in results["tests"])
