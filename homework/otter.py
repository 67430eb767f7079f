"""The same homework for Otter-Grader: one "master" notebook per lesson in Otter Assign's
documented format, beside the course code it needs, so that a course grading with Otter runs
exactly the checks of homework/ (no second copy of any grade).

    dist/homework/otter/
        requirements.txt        NumPy and SciPy at this repository's pins
        dp/  homework/  ui/     the course code the checks import (ui/: the number formatter)
        <lesson>.ipynb          the master notebook: config, prompts, starters, solutions, tests

    cd dist/homework/otter && otter assign laplace.ipynb laplace

writes laplace/student/ (the notebook to hand out, with the course code beside it) and
laplace/autograder/ (the solutions and Otter's Gradescope autograder zip). `otter run -a
<that zip> <a submission>` grades one notebook locally.

In the master notebook each exercise is one Otter question: its starter as the prompt cell,
its solution as the solution cell, a public test that calls `check` (the student's own check:
a function on the public cases, a fixed answer's form) and a hidden test, which only Otter's
autograder has, that calls grading/ (the fixed answers' grades, the hidden cases). grading/ is
one of the assignment's `autograder_files`: Otter copies it into the autograder, never into
student/.

What Otter cannot promise: it runs the hidden tests inside the student's own kernel, after
the student's cells, so a notebook that patches what the tests call (numpy, the grade) can
pass them, and can read grading/ from the autograder's folder. The Gradescope zip of `make
homework` grades outside the student's process and holds against both (docs/homework.md).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import yaml
from nbformat import v4

from homework import exercises
from homework.cells import prompt, solution
from homework.vendored import GRADER, GRADING_PACKAGES, ROOT, VENDORED, VENDORED_FILES, requirements
from lessons.catalogue import by_folder
from ui import notebook

OTTER_VERSION = "7.0.0"  # the Otter-Grader these notebooks are built for (make test runs it)
OTTER_GRADING = f"otter-grader[grading]=={OTTER_VERSION}"  # Otter with its notebook runner
REQUIREMENTS = "requirements.txt"

HOW = f"""\
**Homework.** Each exercise has a code cell to complete and a `grader.check("qN")` cell
below it: run it as often as you like. It says whether your answer passes and, if not,
gives a hint; it never shows the answer. Your lecturer grades the notebook you hand in with
the same checks, so run every cell from the top before you submit.

**Run it** in the folder it came in (the course's code, `dp/` and `homework/`, is beside
it), with Otter-Grader, NumPy and SciPy installed where the notebook runs:
`pip install otter-grader=={OTTER_VERSION} numpy scipy`. The first cell starts Otter.
"""


def question(index: int) -> str:
    """Otter's name of the index-th question (from 1): q1, q2, …"""
    return f"q{index}"


def test_cell(exercise_id: str, name: str, *, hidden: bool = False) -> str:
    """An exception-based Otter test of the student's `name`, failing with the feedback: the
    public one runs the student's `check`; the hidden one (Otter's `# HIDDEN` first line)
    the grader's grade, from grading/."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"name must be a Python identifier, got {name!r}")
    if hidden:
        return (
            "# HIDDEN\n"
            f"def test_{name}_graded({name}):\n"
            "    import grading\n"
            "    from homework.core import code_refusal\n"
            f"    result = grading.grade({exercise_id!r}, {name})\n"
            "    assert result.passed, result.feedback\n"
            f"    refusal = code_refusal({name!r}, {name}) if callable({name}) else None\n"
            "    assert refusal is None, refusal\n"
            "\n"
            f"test_{name}_graded({name})\n"
        )
    return (
        f"def test_{name}({name}):\n"
        "    from homework import check\n"
        f"    result = check({exercise_id!r}, {name}, quiet=True)\n"
        "    assert result.passed, result.feedback\n"
        "\n"
        f"test_{name}({name})\n"
    )


def answer_cell(starter: str, solution: str) -> str:
    """The solution cell, for a starter that is more than `...`: the starter between Otter's
    `# BEGIN PROMPT` and `# END PROMPT` lines, inside a string (so that the solution notebook
    does not run it), then the solution between `# BEGIN SOLUTION NO PROMPT` and `# END
    SOLUTION`. Otter's student notebook keeps the starter's lines only."""
    for code in (starter, solution):
        if '"""' in code or re.search(r"#\s*(BEGIN|END)\s+(SOLUTION|PROMPT)|#\s*SOLUTION", code):
            raise ValueError(f"code holds Otter's own markers or triple quotes: {code!r}")
    return (
        'r""" # BEGIN PROMPT\n'
        + starter.rstrip("\n")
        + '\n""" # END PROMPT\n'
        + "# BEGIN SOLUTION NO PROMPT\n"
        + solution.rstrip("\n")
        + "\n# END SOLUTION\n"
    )


def _raw(header: str, config: dict | None = None) -> nbformat.NotebookNode:
    body = header if config is None else header + "\n" + yaml.safe_dump(config, sort_keys=False)
    return v4.new_raw_cell(body.rstrip("\n"))


def assignment_config(lesson: str) -> dict:
    """Otter Assign's configuration: the course code as files, exception-based tests, no
    PDFs (a notebook is what students submit), and Otter's Gradescope autograder."""
    return {
        "name": lesson,
        "requirements": REQUIREMENTS,
        "files": [*VENDORED, "ui"],
        "autograder_files": list(GRADER),
        "tests": {"ok_format": False},
        "export_cell": {"pdf": False},
        "generate": {"pdf": False, "show_stdout": False},
        "init_cell": True,
        "run_tests": True,
    }


def master_notebook(lesson: str) -> nbformat.NotebookNode:
    """The lesson's homework as an Otter Assign master notebook."""
    page = by_folder(lesson)
    cells = [
        _raw("# ASSIGNMENT CONFIG", assignment_config(lesson)),
        v4.new_markdown_cell(f"# Homework: {page.title}\n\n{HOW}"),
        v4.new_code_cell(
            notebook.setup_cell(notebook.repository())
            + "\nfrom homework import check, unanswered\n"
        ),
    ]
    for index, exercise in enumerate(exercises(lesson), start=1):
        cells += [
            # the public test scores nothing (it checks a fixed answer's form only); the
            # hidden one, the autograder's, scores the exercise's points
            _raw("# BEGIN QUESTION", {"name": question(index), "points": [0, exercise.points]}),
            v4.new_markdown_cell(f"## {exercise.title}\n\n{prompt(exercise)}"),
            _raw("# BEGIN SOLUTION"),
            v4.new_code_cell(answer_cell(exercise.starter, solution(exercise.id))),
            _raw("# END SOLUTION"),
            _raw("# BEGIN TESTS"),
            v4.new_code_cell(test_cell(exercise.id, exercise.name)),
            v4.new_code_cell(test_cell(exercise.id, exercise.name, hidden=True)),
            _raw("# END TESTS"),
            _raw("# END QUESTION"),
        ]
    built = notebook.python_notebook(cells)
    nbformat.validate(built)
    return built


def otter_requirements() -> str:
    """What Otter's autograder installs besides Otter itself: NumPy and SciPy (Otter brings
    Jupyter's runner)."""
    return "".join(
        line
        for line in requirements().splitlines(keepends=True)
        if line.split("==")[0] in ("numpy", "scipy")
    )


def build(out: Path, lessons: tuple[str, ...]) -> list[Path]:
    """The Otter folder under `out`: requirements, the course code, a master per lesson."""
    assert set(GRADING_PACKAGES) >= {"numpy", "scipy"}
    out.mkdir(parents=True, exist_ok=True)
    written = [out / REQUIREMENTS]
    written[0].write_text(otter_requirements(), encoding="utf-8")
    for package in (*VENDORED, *GRADER):  # grading/: Otter puts it in the autograder only
        target = out / package
        shutil.rmtree(target, ignore_errors=True)
        for path in sorted((ROOT / package).rglob("*.py")):
            copy = target / path.relative_to(ROOT / package)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(path.read_bytes())
        written.append(target)
    shutil.rmtree(out / "ui", ignore_errors=True)
    for name in VENDORED_FILES:
        copy = out / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes((ROOT / name).read_bytes())
    written.append(out / "ui")
    for lesson in lessons:
        path = out / f"{lesson}.ipynb"
        nbformat.write(master_notebook(lesson), path)
        written.append(path)
    return written
