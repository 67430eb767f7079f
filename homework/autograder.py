"""Grade a submitted notebook, as Gradescope's autograder does: run every cell (a cell that
raises does not stop the others), then, in the same kernel, `check` each exercise's variable,
and write results/results.json in Gradescope's documented format: a score per exercise with
its feedback, and the total.

    python -m homework.autograder LESSON SUBMISSION_DIR RESULTS_JSON

No Streamlit: this runs on the grading machine with dp/, homework/ and the notebook's kernel.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat import v4

from homework import exercises

MARKER = "HOMEWORK-RESULTS "
TIMEOUT_S = 600  # per cell


def grading_cell(lesson: str) -> str:
    """The cell appended to a submission: each exercise's variable (None when the student
    never defined it) through `check`, printed as one JSON line after MARKER."""
    pairs = [(e.id, e.name) for e in exercises(lesson)]
    return (
        "import json as _json\n"
        "from homework.core import check as _check\n"
        "_graded = {}\n"
        f"for _id, _name in {pairs!r}:\n"
        "    _result = _check(_id, globals().get(_name), quiet=True)\n"
        "    _graded[_id] = [_result.passed, _result.feedback]\n"
        f"print({MARKER!r} + _json.dumps(_graded))\n"
    )


def grade_notebook(lesson: str, notebook: nbformat.NotebookNode, cwd: Path) -> dict:
    """Run the notebook with the grading cell appended; Gradescope's results dictionary."""
    notebook.cells.append(v4.new_code_cell(grading_cell(lesson)))
    client = NotebookClient(
        notebook,
        timeout=TIMEOUT_S,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()
    graded: dict[str, list] = {}
    for output in notebook.cells[-1].get("outputs", []):
        for line in str(output.get("text", "")).splitlines():
            if line.startswith(MARKER):
                graded = json.loads(line[len(MARKER) :])
    return results(lesson, graded)


def results(lesson: str, graded: dict[str, list]) -> dict:
    """Gradescope's results.json: one test per exercise (its points when it passed), the
    feedback as its output, and the total score."""
    tests = []
    for exercise in exercises(lesson):
        passed, feedback = graded.get(exercise.id, [False, "The notebook did not run."])
        tests.append(
            {
                "name": exercise.title,
                "score": exercise.points if passed else 0.0,
                "max_score": exercise.points,
                "output": ("Right. " if passed else "Not yet. ") + feedback,
                "visibility": "visible",
            }
        )
    return {"score": sum(t["score"] for t in tests), "tests": tests}


def grade_submission(lesson: str, submission: Path, results_path: Path) -> dict:
    """Grade the one notebook in `submission` (a missing or unreadable notebook scores 0 with
    a message) and write `results_path`."""
    notebooks = sorted(submission.glob("*.ipynb"))
    if len(notebooks) != 1:
        found = ", ".join(n.name for n in notebooks) or "none"
        graded = {
            e.id: [False, f"Submit exactly one .ipynb notebook (found: {found})."]
            for e in exercises(lesson)
        }
        out = results(lesson, graded)
    else:
        try:
            notebook = nbformat.read(notebooks[0], as_version=4)
        except Exception as error:  # noqa: BLE001 (any broken file: a message, not a crash)
            graded = {
                e.id: [False, f"The notebook could not be read: {error}"] for e in exercises(lesson)
            }
            out = results(lesson, graded)
        else:
            out = grade_notebook(lesson, notebook, submission)
    results_path.parent.mkdir(parents=True, exist_ok=True)
    results_path.write_text(json.dumps(out, indent=2, ensure_ascii=False), encoding="utf-8")
    return out


def main(argv: list[str]) -> int:
    lesson, submission, results_path = argv
    grade_submission(lesson, Path(submission), Path(results_path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
