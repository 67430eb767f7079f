"""The homework under Otter-Grader (homework/otter.py): every lesson's master notebook holds
one Otter question per exercise whose test is the exercise's own `check`; and, in a new
virtual environment with Otter-Grader itself, `otter assign` builds a student notebook that
holds no solution, and `otter run` gives the solutions full marks, the starters zero with
the checks' hints, and a Laplace count with half the scale, or one that calls dp/, zero for
that question only."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

import grading
from homework import exercises, otter, unanswered
from homework.core import Unanswered
from homework.lessons import LESSONS


def cells(notebook, kind: str) -> list[str]:
    return [cell.source for cell in notebook.cells if cell.cell_type == kind]


def run_test_cell(source: str, value) -> None:
    """Run an Otter test cell the way Otter's exception-based tests run: the function with
    the student's value (the cell's own last line calls it with the notebook's variable)."""
    namespace: dict = {}
    body = source.rsplit("\n\n", 1)[0]
    exec(compile(body, "<test>", "exec"), namespace)  # noqa: S102 — our own cell
    (test,) = [v for k, v in namespace.items() if k.startswith("test_")]
    test(value)


def defined(code: str, name: str):
    namespace: dict = {"unanswered": unanswered}
    exec(compile(code, "<cell>", "exec"), namespace)  # noqa: S102 — our own cells
    return namespace.get(name)


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_master_notebook_has_one_question_per_exercise_tested_by_its_check(lesson) -> None:
    master = otter.master_notebook(lesson)
    raw = cells(master, "raw")
    assert raw[0].startswith("# ASSIGNMENT CONFIG")
    # the student is told what the notebook needs (its first cell imports Otter)
    assert f"pip install otter-grader=={otter.OTTER_VERSION} numpy scipy" in master.cells[1].source
    found = exercises(lesson)
    questions = [r for r in raw if r.startswith("# BEGIN QUESTION")]
    assert [re.search(r"name: (\S+)", q).group(1) for q in questions] == [
        otter.question(i) for i in range(1, len(found) + 1)
    ]
    code = cells(master, "code")
    for exercise in found:
        (answer,) = [
            c
            for c in code
            if c.startswith('r""" # BEGIN PROMPT') and grading.solution(exercise.id).rstrip() in c
        ]
        assert exercise.starter.rstrip() in answer
        # the solutions notebook runs the cell: the solution defines the name (the starter
        # is a string there)
        assert defined(answer, exercise.name) is not None
        (test,) = [c for c in code if f"check({exercise.id!r}" in c]
        (hidden,) = [c for c in code if f"grading.grade({exercise.id!r}" in c]
        assert hidden.startswith("# HIDDEN\n")
        run_test_cell(
            hidden.split("\n", 1)[1], defined(grading.solution(exercise.id), exercise.name)
        )
        run_test_cell(test, defined(grading.solution(exercise.id), exercise.name))
        with pytest.raises(AssertionError) as failed:
            run_test_cell(test, defined(exercise.starter, exercise.name))
        assert "unanswered" in str(failed.value) or "your answer" in str(failed.value)


def test_a_starter_function_still_raises_unanswered_when_called_directly() -> None:
    (exercise,) = [e for e in exercises("laplace") if e.name == "laplace_count"]
    with pytest.raises(Unanswered):
        defined(exercise.starter, exercise.name)(10, 1.0, None)


def test_code_holding_otters_markers_is_refused() -> None:
    for code in ("x = 1  # SOLUTION", 'x = """a"""', "# BEGIN PROMPT"):
        with pytest.raises(ValueError, match="markers or triple quotes"):
            otter.answer_cell(code, "x = 1")
    with pytest.raises(ValueError, match="identifier"):
        otter.test_cell("laplace.count", "not a name")


def test_the_otter_folder_holds_the_course_code_and_numpy_scipy_pins(tmp_path) -> None:
    otter.build(tmp_path, ("laplace",))
    assert (tmp_path / "dp" / "laplace.py").is_file()
    assert (tmp_path / "homework" / "core.py").is_file()
    assert sorted(p.name for p in (tmp_path / "ui").iterdir()) == ["__init__.py", "text.py"]
    pins = (tmp_path / "requirements.txt").read_text().split()
    assert [p.split("==")[0] for p in pins] == ["numpy", "scipy"]
    nbformat.validate(nbformat.read(tmp_path / "laplace.ipynb", as_version=4))


@pytest.fixture(scope="module")
def otter_venv(tmp_path_factory) -> Path:
    """A new virtual environment with Otter-Grader and the grading pins, nothing else."""
    where = tmp_path_factory.mktemp("otter-venv")
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    pins = tmp_path_factory.mktemp("pins") / "requirements.txt"
    pins.write_text(otter.otter_requirements())
    # --no-compile: no .pyc for the ~60 packages up front (9 of 50 core-s); Python compiles
    # what Otter imports when it runs
    pip = [str(where / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-compile"]
    subprocess.run([*pip, otter.OTTER_GRADING, "-r", str(pins)], check=True)
    return where


def otter_cli(venv: Path, cwd: Path, *args: str) -> None:
    env = {
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
        "HOME": str(cwd / "home"),  # nothing of this trial reaches the real home
    }
    done = subprocess.run(
        [str(venv / "bin" / "otter"), *args],
        cwd=cwd,
        env=env,
        timeout=600,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, (
        f"otter {args[0]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )


def otter_results(venv: Path, work: Path, zip_path: Path, notebook) -> dict:
    """`otter run` on `notebook`: each question's score and output, and the total."""
    work.mkdir()
    path = work / "submission.ipynb"
    nbformat.write(notebook, path)
    otter_cli(venv, work, "run", "-a", str(zip_path), "-o", str(work), str(path))
    tests = json.loads((work / "results.json").read_text())["tests"]
    return {t["name"]: (t["score"], t["max_score"], t["output"]) for t in tests if "score" in t}


@pytest.mark.budget(
    "a venv with Otter-Grader installed (~60 s, once), then otter assign and five otter runs"
)
@pytest.mark.slow
def test_otter_assigns_and_grades_the_homework_with_the_same_checks(tmp_path, otter_venv) -> None:
    folder = tmp_path / "otter"
    otter.build(folder, ("laplace",))
    otter_cli(otter_venv, folder, "assign", "laplace.ipynb", "out")  # runs the solutions' tests
    student = nbformat.read(folder / "out" / "student" / "laplace.ipynb", as_version=4)
    solutions = nbformat.read(folder / "out" / "autograder" / "laplace.ipynb", as_version=4)
    (zip_path,) = (folder / "out" / "autograder").glob("laplace-autograder*.zip")

    student_text = "\n".join(cell.source for cell in student.cells)
    found = exercises("laplace")
    for exercise in found:
        assert exercise.starter.rstrip() in student_text
        for line in grading.solution(exercise.id).splitlines():
            if re.search(r"[A-Za-z0-9]", line) and not line.startswith(("import ", "from ")):
                assert line in exercise.starter or line not in student_text, line
    checks = re.findall(r'grader\.check\("(q\d+)"\)', student_text)
    assert checks == [otter.question(i) for i in range(1, len(found) + 1)]
    assert "check(" not in student_text.replace("grader.check(", "")  # the tests stay Otter's

    # what a student sees: run in Jupyter, each grader.check cell gives the check's hint
    seen = tmp_path / "seen.ipynb"
    runner = (
        "import sys, nbformat\n"
        "from nbclient import NotebookClient\n"
        "nb = nbformat.read(sys.argv[1], as_version=4)\n"
        "NotebookClient(nb, timeout=600, kernel_name='python3', allow_errors=True,\n"
        "    resources={'metadata': {'path': sys.argv[2]}}).execute()\n"
        "nbformat.write(nb, sys.argv[3])\n"
    )
    student_dir = folder / "out" / "student"
    done = subprocess.run(
        [
            str(otter_venv / "bin" / "python"),
            "-c",
            runner,
            str(student_dir / "laplace.ipynb"),
            str(student_dir),
            str(seen),
        ],
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    shown = [
        "".join(str(o.get("data", {}).get("text/plain", o.get("text", ""))) for o in c.outputs)
        for c in nbformat.read(seen, as_version=4).cells
        if c.cell_type == "code" and c.source.startswith("grader.check(")
    ]
    assert len(shown) == len(found)
    assert "Replace the starter's `unanswered(...)` with your code." in shown[0]
    assert all("Test case failed" in s and "Traceback" not in s for s in shown), shown

    full = otter_results(otter_venv, tmp_path / "solutions", zip_path, solutions)
    assert {q: s for q, (s, m, _) in full.items()} == {
        otter.question(i): e.points for i, e in enumerate(found, start=1)
    }

    # grading/ is the autograder's alone: never in the folder handed to students
    assert not (student_dir / "grading").exists() and (student_dir / "homework").is_dir()
    with zipfile.ZipFile(zip_path) as archive:
        assert any(name.startswith("files/grading/") for name in archive.namelist())

    # the student's check patched to say yes: the hidden tests do not call it
    patched = nbformat.read(folder / "out" / "student" / "laplace.ipynb", as_version=4)
    patched.cells.append(
        nbformat.v4.new_code_cell(
            "import homework.core\n"
            "homework.core.check = lambda *a, **k: homework.core.Result(True, '')\n"
        )
    )
    cheat = otter_results(otter_venv, tmp_path / "patched", zip_path, patched)
    assert all(score == 0 for score, _, _ in cheat.values()), cheat

    zero = otter_results(otter_venv, tmp_path / "starter", zip_path, student)
    assert all(score == 0 for score, _, _ in zero.values())
    assert "Replace the starter's `unanswered(...)`" in zero["q1"][2]
    assert "Set epsilon_for_median_error to your answer" in zero["q2"][2]

    wrong = nbformat.read(folder / "out" / "autograder" / "laplace.ipynb", as_version=4)
    for cell in wrong.cells:
        cell.source = cell.source.replace("scale = 1 / epsilon", "scale = 1 / (2 * epsilon)")
    half = otter_results(otter_venv, tmp_path / "wrong", zip_path, wrong)
    assert half["q1"][0] == 0 and "times the Laplace mechanism's" in half["q1"][2], half["q1"]
    assert all(half[q][0] == full[q][0] for q in half if q != "q1")

    # Finding: a Laplace count that calls dp/ had Otter's full marks (its hidden test graded
    # only the behaviour); it is refused there as by the Gradescope grader
    library = nbformat.read(folder / "out" / "autograder" / "laplace.ipynb", as_version=4)
    for cell in library.cells:
        cell.source = cell.source.replace(
            "return true_count + rng.laplace(loc=0.0, scale=scale)",
            "import dp\n    return dp.laplace_mechanism(true_count, 1.0, epsilon, rng=rng)",
        )
    called = otter_results(otter_venv, tmp_path / "library", zip_path, library)
    assert called["q1"][0] == 0 and "calls dp/" in called["q1"][2], called["q1"]
    assert all(called[q][0] == full[q][0] for q in called if q != "q1")
