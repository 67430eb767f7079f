"""The Gradescope autograder run as Gradescope runs it, for tests/homework/: a clean virtual
environment with what its setup.sh installs, and one submission graded in a fresh copy of the
unzipped autograder."""

from __future__ import annotations

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
    as on Gradescope: the grader can then run the notebook as `nobody` (as root)."""
    where = Path(tempfile.mkdtemp(prefix="autograder-venv-"))
    where.chmod(0o755)
    python = SYSTEM_PYTHON if SYSTEM_PYTHON.exists() else Path(sys.executable)
    subprocess.run([str(python), "-m", "venv", str(where)], check=True)
    yield where
    shutil.rmtree(where, ignore_errors=True)


def graded(tmp_path: Path, venv: Path, lesson: str, notebook, limits: dict | None = None) -> dict:
    """Unzip the autograder as Gradescope lays it out under `tmp_path`, run setup.sh (once
    per venv) and run_autograder on `notebook`; results.json as written. `limits`: the
    grader's GRADER_* time limits for this run."""
    root = tmp_path / "autograder"
    source, submission = root / "source", root / "submission"
    source.mkdir(parents=True)
    submission.mkdir()
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
    if not (venv / ".setup-done").exists():
        subprocess.run(["bash", str(source / "setup.sh")], check=True, env=env)
        (venv / ".setup-done").write_text("")
    subprocess.run(["bash", str(root / "run_autograder")], check=True, env=env, timeout=600)
    return json.loads((root / "results" / "results.json").read_text())


def assert_gradescope_results(results: dict, lesson: str) -> None:
    assert set(results) == {"score", "tests"}
    assert len(results["tests"]) == len(exercises(lesson))
    for test in results["tests"]:
        assert set(test) == {"name", "score", "max_score", "output", "visibility"}
        assert 0 <= test["score"] <= test["max_score"]
    assert results["score"] == sum(t["score"] for t in results["tests"])
