"""A student who wants marks without the work, against the real Gradescope autograder (the zip
of `make homework`, unzipped into a clean virtual environment and run as Gradescope runs it):
every cheat scores 0 for what it touched, with a worded message, and the grader never
crashes. Then every student-facing artifact is searched for the solutions and the answers
they compare with: none is there."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import tempfile
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
import setuptools
from nbformat import v4

import grading
from autograder_helpers import autograder_venv, graded
from grading import autograder
from homework import build, exercises
from homework.lessons import LESSONS

LESSON = "laplace"
FULL = sum(e.points for e in exercises(LESSON))
# The limits of the cheats that do not loop (those have their own, below): a whole notebook
# of solutions grades in about 8 s on two busy cores, one exercise in under 2 s, but the
# exercise whose first call imports dp (numpy, scipy) took over 10 s with the two cores
# loaded six times over (2026-12-03), and was marked for its time, not for its import.
QUICK = {"GRADER_RUN_S": "60", "GRADER_EXERCISE_S": "30"}
# Shorter still for the two loops, each spinning a core until its limit: the notebook's
# (whichever cell the limit stops, the run scores 0 and says so), and one exercise's (the
# other exercises' calls take under 2 s).
LOOPS = {"GRADER_RUN_S": "5", "GRADER_EXERCISE_S": "10"}
LOOP_IN_A_FUNCTION = {"GRADER_RUN_S": "20", "GRADER_EXERCISE_S": "5"}


@pytest.fixture(scope="module")
def clean_venv() -> Iterator[Path]:
    yield from autograder_venv()


def starter_with(*cells: str):
    notebook = build.notebook_for(LESSON, solutions=False)
    notebook.cells.extend(v4.new_code_cell(code) for code in cells)
    return notebook


def solutions_with(*cells: str, replace: dict[str, str] | None = None, before: str = ""):
    """The solutions, each `replace` made in their code cells, `cells` added at the end and
    `before` (a code cell) just after the setup cell."""
    notebook = build.notebook_for(LESSON, solutions=True)
    for cell in notebook.cells:
        for old, new in (replace or {}).items():
            if cell.cell_type == "code" and old in cell.source:
                cell.source = cell.source.replace(old, new)
    if before:
        setup = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "code")
        notebook.cells.insert(setup + 1, v4.new_code_cell(before))
    notebook.cells.extend(v4.new_code_cell(code) for code in cells)
    return notebook


def outputs(results: dict) -> str:
    return "\n".join(test["output"] for test in results["tests"])


PATCH_CHECK = """
import homework, homework.core
always = lambda *a, **k: homework.core.Result(True, "")
homework.core.check = homework.check = always
homework.core.public_check = homework.core.guarded = always
"""
FORGE_PRINT = """
import builtins, json
ids = ["laplace.count", "laplace.epsilon", "laplace.malicious"]
print("HOMEWORK-RESULTS " + json.dumps({i: [True, ""] for i in ids}))
builtins.print = lambda *a, **k: None
"""
RUN_SOLUTIONS = """
from homework.lessons import REGISTRY
for exercise in REGISTRY.values():
    exec(exercise.solution, globals())
"""
IMPORT_GRADING = """
import grading
for exercise_id in ["laplace.count", "laplace.epsilon", "laplace.malicious"]:
    exec(grading.solution(exercise_id), globals())
"""
LEAK_IN_FEEDBACK = """
import homework.core
def leak(*args, **kwargs):
    import pathlib
    text = " ".join(p.read_text() for p in pathlib.Path.cwd().parent.glob("*/grading/*/*.py"))
    return homework.core.Result(False, text or "NOTHING-FOUND")
homework.core.public_check = homework.core.guarded = leak
"""
READ_FILES = """
import os, pathlib
found = {{}}
for root in [{root!r}, "/autograder"]:  # where an autograder's files are
    for here, _dirs, files in os.walk(root):
        if "grading" in pathlib.Path(here).parts:
            for name in files:
                if name.endswith(".py"):
                    try:
                        found[here + name] = pathlib.Path(here, name).read_text()
                    except Exception:
                        pass
for text in found.values():
    namespace = {{}}
    try:
        exec(text, namespace)
    except Exception:
        continue
    for code in namespace.get("SOLUTIONS", {{}}).values():
        try:
            exec(code, globals())
        except Exception:
            pass
"""
# The notebook's process answers the grader with JSON nested 100,000 deep (for its "ready",
# or for each fixed answer it is asked for): Python's JSON reader raises RecursionError on it,
# which crashed the grader (no results.json) until wire.Channel read it as no message.
NESTED_REPLY = """
import os, struct, homework.wire as wire
sent = wire.Channel.send
def send(self, message):
    if {when}:
        body = ('{{"ready":true,"errors":' + "[" * 100000 + "]" * 100000 + "}}").encode()
        return os.write(self.write_fd, struct.pack(">I", len(body)) + body)
    return sent(self, message)
wire.Channel.send = send
"""

# Answers of 3,000,000 numbers (12 MB as JSON): reading one cost the grader ~14 times its size
# in memory (a 60 MB one took it to 979 MB, past a small autograder container), so the
# notebook's process says the answer is too large instead of sending it (wire.MAX_BYTES), and
# the grader never reads more.
HUGE_ANSWERS = """
import numpy as np
epsilon_for_median_error = np.ones(3_000_000)
def laplace_count(true_count, epsilon, rng):
    return np.ones(3_000_000)
"""

# A submission (a repository, an unpacked archive) can hold symbolic links: links to the
# grader's own files, which the grader copied, as root, beside the notebook for its process.
LINKS = {
    "laplace_grades.py": "source/grading/lessons/laplace.py",
    "grading_init.py": "source/grading/__init__.py",
}
READ_LINKS = """
import os, pathlib
for name in ["laplace_grades.py", "grading_init.py"]:
    try:
        namespace = {}
        # beside the notebook: the folder it started in (its HOME; the setup cell moves on)
        exec(pathlib.Path(os.environ["HOME"], name).read_text(), namespace)
    except Exception:
        continue
    for code in namespace.get("SOLUTIONS", {}).values():
        exec(code, globals())
"""


@pytest.mark.slow
@pytest.mark.budget("22 gradings by the real autograder, three stopped by its limits")
def test_no_cheat_scores(tmp_path, clean_venv) -> None:
    """Each cheat, on the starter (or the solutions where it breaks only a part)."""
    root = tmp_path / "read-files" / "autograder"
    cheats = {
        "patch check()": (starter_with(PATCH_CHECK), 0, "Replace the starter"),
        "forge the results line": (starter_with(FORGE_PRINT), 0, "Replace the starter"),
        "run REGISTRY's solutions": (starter_with(RUN_SOLUTIONS), 0, "Replace the starter"),
        "import grading": (starter_with(IMPORT_GRADING), 0, "Replace the starter"),
        "leak solutions through check's feedback": (
            starter_with(LEAK_IN_FEEDBACK),
            0,
            "Replace the starter",
        ),
        "read the autograder's files": (
            starter_with(READ_FILES.format(root=str(root))),
            0,
            "Replace the starter",
        ),
        "a cell that loops forever": (
            solutions_with("while True:\n    pass\n"),
            0,
            "did not finish running within 5 s",
            LOOPS,
        ),
        "exit the kernel": (solutions_with("import os\nos._exit(0)\n"), 0, "stopped before"),
        "a function that loops forever": (
            solutions_with(replace={"    scale = 1 / epsilon": "    while True:\n        pass\n"}),
            FULL - 2,
            "took longer than the grader allows",
            LOOP_IN_A_FUNCTION,
        ),
        "a function that allocates 10 GB": (
            solutions_with(
                replace={
                    "    scale = 1 / epsilon": "    hog = bytearray(10 * 1024**3)\n"
                    "    scale = 1 / epsilon"
                }
            ),
            FULL - 2,
            "MemoryError",
        ),
        "a cell that allocates 10 GB": (
            solutions_with("hog = bytearray(10 * 1024**3)\n"),
            FULL,
            "",
        ),
        "answer the grader's first question with JSON 100,000 deep": (
            solutions_with(NESTED_REPLY.format(when='"ready" in message')),
            0,
            "something that is not a message",
        ),
        "answer each fixed answer's question with JSON 100,000 deep": (
            solutions_with(NESTED_REPLY.format(when='message.get("kind") == "value"')),
            FULL - 2,  # the function exercise (2 points) is still graded, and right
            "something that is not a message",
        ),
        "answer with 3,000,000 numbers, past what the grader reads": (
            solutions_with(HUGE_ANSWERS),
            FULL - 3,  # the count (2 points) and the ε (1) answer too much; the third is right
            "larger than the grader reads (a message larger than 8 MB)",
        ),
        "a notebook slower than the grader's whole time": (
            solutions_with(
                "import time\ntime.sleep(3)\n",
                replace={"    scale = 1 / epsilon": "    import time\n    time.sleep(60)\n"},
            ),
            0,  # each exercise says the time ran out, none is left unsaid
            "ran out of its 8 s for the whole notebook",
            {"GRADER_TOTAL_S": "8", "GRADER_RUN_S": "20", "GRADER_EXERCISE_S": "10"},
        ),
        "hand in links to the grader's files": (
            starter_with(READ_LINKS),
            0,
            "Replace the starter",
        ),
        "a function that calls dp": (
            solutions_with(
                replace={
                    "    return true_count + rng.laplace(loc=0.0, scale=scale)": (
                        "    import dp\n"
                        "    return dp.laplace_mechanism(true_count, 1.0, epsilon, rng=rng)"
                    )
                }
            ),
            FULL - 2,
            "calls dp/",
        ),
        # Finding: a cell nested past what Python's parser reads (100,000 additions), shaped
        # as a check(...) cell (which the notebook's process skips), made the grader's own
        # reading of the code raise, and Gradescope got no results.json; it is skipped now
        "a check(...) cell nested past what Python parses, beside the solutions": (
            solutions_with("check(" + "+".join(["1"] * 100_000) + ")"),
            FULL,
            "",
        ),
        # Findings: the next four scored full marks with dp's own mechanism inside (the grader
        # skipped a cell it could not parse, followed no module but dp, and read only the
        # function, not what could swap it)
        "a function that imports dp by a computed name": (
            solutions_with(
                replace={
                    "    return true_count + rng.laplace(loc=0.0, scale=scale)": (
                        "    import importlib\n"
                        "    m = importlib.import_module('d' + 'p')\n"
                        "    return m.laplace_mechanism(true_count, 1.0, epsilon, rng=rng)"
                    )
                }
            ),
            FULL - 2,
            "imports importlib, a module the grader does not read",
        ),
        "dp beside a line only IPython reads (the grader skipped the cell)": (
            solutions_with(
                replace={
                    "def laplace_count(": "shell = !echo\nimport dp\ndef laplace_count(",
                    "    return true_count + rng.laplace(loc=0.0, scale=scale)": (
                        "    return dp.laplace_mechanism(true_count, 1.0, epsilon, rng=rng)"
                    ),
                }
            ),
            FULL - 2,
            "calls dp/",
        ),
        "swap the function for dp's after the grader has read it (globals())": (
            solutions_with(
                "import dp\n"
                "globals()['laplace_count'] = (\n"
                "    lambda c, e, rng: dp.laplace_mechanism(c, 1.0, e, rng=rng)\n"
                ")\n"
            ),
            FULL - 2,
            "which can change what laplace_count is after the grader has read it",
        ),
        "dp inside a module the notebook writes (%%writefile) and imports": (
            solutions_with(
                replace={
                    "def laplace_count(": (
                        "import sys\nsys.path.insert(0, '/tmp')\nimport pp_mine\ndef laplace_count("
                    ),
                    "    return true_count + rng.laplace(loc=0.0, scale=scale)": (
                        "    return pp_mine.laplace_mechanism(true_count, 1.0, epsilon, rng=rng)"
                    ),
                },
                before="%%writefile /tmp/pp_mine.py\nfrom dp import laplace_mechanism\n",
            ),
            FULL - 2,
            "a module the grader does not read",
        ),
    }
    for index, (name, (notebook, score, says, *limits)) in enumerate(cheats.items()):
        where = tmp_path / ("read-files" if name == "read the autograder's files" else f"c{index}")
        links = LINKS if name == "hand in links to the grader's files" else None
        results = graded(where, clean_venv, LESSON, notebook, limits[0] if limits else QUICK, links)
        text = outputs(results)
        print(f"{name}: {results['score']}/{FULL}")
        assert results["score"] == score, (name, text)
        assert says in text, (name, text)
        assert "def laplace_count" not in text and "math.log(2)" not in text, name
        assert "NOTHING-FOUND" not in text  # the student's own feedback never gets through


# A cell that starts 100 processes at once (each sleeping 5 s), counting those it got, and
# writing the count where the test can read it (/tmp: any user may write there).
FORKS = """
import os, time
made = 0
for _ in range(100):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(5)
        os._exit(0)
    made += 1
with open({path!r}, "w") as out:
    out.write(str(made))
"""


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="the notebook runs as `nobody` only under root")
def test_a_fork_bomb_stops_at_the_notebooks_process_limit(tmp_path, clean_venv) -> None:
    """Where the notebook runs as `nobody` (Gradescope), its user may have 64 processes and
    threads at once: a fork bomb stops there instead of taking every process the container
    allows, and the grader goes on (the solutions still score in full)."""
    count = Path(tempfile.mkdtemp(prefix="pp-forks-")) / "count"
    count.parent.chmod(0o777)
    try:
        notebook = solutions_with(FORKS.format(path=str(count)))
        results = graded(tmp_path, clean_venv, LESSON, notebook)
        made = int(count.read_text())
    finally:
        shutil.rmtree(count.parent, ignore_errors=True)
    print(f"processes the cell started: {made} of 100")
    assert 0 < made < autograder.PROCESSES, made  # without the limit: all 100
    assert results["score"] == FULL, outputs(results)


# --- what a student has: no solution, no answer ----------------------------------------------


def secrets() -> list[str]:
    """Every solution's lines of code, and every fixed answer's value (as a solution
    computes it, with 4 significant digits or more), that no student artifact may hold."""
    # (The test below shows the search finds them where they are.)
    root = Path(__file__).resolve().parents[2]
    library = "\n".join(path.read_text() for path in (root / "dp").glob("*.py"))
    found = []
    for lesson in LESSONS:
        for exercise in exercises(lesson):
            code = grading.solution(exercise.id)
            for line in code.splitlines():
                line = line.strip()
                code_line = len(line) > 12 and not line.startswith(("import ", "from ", "#"))
                # dp/ is the course's public library: a line of it is no secret (writing
                # the function without calling dp/ is the exercise), nor is a seeded rng
                code_line = code_line and line not in library and "default_rng(" not in line
                if code_line and line not in exercise.starter and line not in exercise.prompt:
                    found.append(line)
            if exercise.grade is None:
                namespace: dict = {}
                exec(code, namespace)  # noqa: S102 (our own solution)
                value = namespace[exercise.name]
                if isinstance(value, float) and abs(value) not in (0.0, 1.0):
                    found += [f"{value:.4g}", f"{value:.6f}".rstrip("0")]
                elif isinstance(value, str):
                    pass  # one letter: in every text; its grade holds a hash
    return [s for s in found if len(s) >= 5]


def student_texts(tmp_path: Path) -> dict[str, str]:
    """What reaches a student: the student notebooks, the course package pip installs (the
    packages pyproject.toml lists, as setuptools finds them), and the course code beside
    Otter's student notebook."""
    texts = {}
    for lesson in LESSONS:
        notebook = build.notebook_for(lesson, solutions=False)
        texts[f"{lesson}-homework.ipynb"] = nbformat.writes(notebook)
    root = Path(__file__).resolve().parents[2]
    include = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]["find"]["include"]
    for package in setuptools.find_namespace_packages(where=str(root), include=include):
        for path in (root / package.replace(".", "/")).glob("*.py"):
            texts[f"installed:{path.relative_to(root)}"] = path.read_text()
    from homework import otter

    out = tmp_path / "otter"
    otter.build(out, ("laplace",))
    student_side = [p for p in out.rglob("*.py") if "grading" not in p.relative_to(out).parts]
    for path in student_side:
        texts[f"otter:{path.relative_to(out)}"] = path.read_text()
    return texts


def test_no_student_artifact_holds_a_solution_or_an_answer(tmp_path) -> None:
    hidden = secrets()
    assert len(hidden) > 100  # the search has something to find
    texts = student_texts(tmp_path)
    assert any(name.startswith("installed:homework/") for name in texts)
    assert not any("grading/" in name for name in texts)
    leaks = [(name, secret) for name, text in texts.items() for secret in hidden if secret in text]
    assert leaks == []


def test_the_search_would_find_a_leak() -> None:
    """The same search on the lecturer's solution notebook finds the solutions."""
    hidden = secrets()
    solutions = nbformat.writes(build.notebook_for(LESSON, solutions=True))
    assert sum(secret in solutions for secret in hidden) >= 3


def test_the_zip_has_grading_and_the_otter_student_side_does_not(tmp_path) -> None:
    with zipfile.ZipFile(io.BytesIO(build.autograder_zip(LESSON))) as archive:
        assert "grading/lessons/laplace.py" in archive.namelist()
    from homework import otter

    config = otter.assignment_config(LESSON)
    assert config["autograder_files"] == ["grading"]
    assert "grading" not in config["files"]
    assert json.dumps(config)  # plain data, as Otter reads it
    assert not re.search(r"grading", " ".join(config["files"]))
