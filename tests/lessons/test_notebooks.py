"""Every lesson as a notebook (`make notebooks`, lessons/notebooks.py): built from one run of
its page at the defaults, it holds the page's own "what you will see", formulas and code
(the same text), two or three exercises from its check-yourself questions and its homework
(a starter and a `check` cell per exercise, each check saying "not yet"), and it runs in a
real Jupyter kernel (nbclient + ipykernel, with the project installed: `pip install -e .`)
without an error, printing exactly what the same code prints here."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from lessons import notebooks
from lessons.catalogue import LESSONS
from ui import notebook
from ui.text import table_text

ROOT = Path(__file__).resolve().parents[2]
# classroom tools: no check-yourself questions
NO_QUIZ = {lesson.folder for lesson in LESSONS if lesson.activity}


def _stdout(code: str, result: str) -> tuple[str, str]:
    """What the code prints, and what printing its result prints (with the page's number
    formatter, as the notebook does), run here."""
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102 - our own snippets
    return out.getvalue(), table_text(namespace[result]) + "\n"


def _printed(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.output_type == "stream")


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.folder for lesson in LESSONS])
def test_every_lesson_runs_as_a_notebook_and_prints_what_its_code_prints(
    lesson, tmp_path, monkeypatch
) -> None:
    record = notebooks.record_for(lesson)
    nb = nbformat.reads(notebook.notebook_bytes(record).decode(), as_version=4)
    nbformat.validate(nb)
    sources = [cell.source for cell in nb.cells]
    assert sources[2] == f"**What you will see.** {record.intro}"
    for body in record.formulas.values():
        assert any(body.strip() in source for source in sources)
    questions = notebook.exercises(record)
    assert lesson.folder in NO_QUIZ or 2 <= len(questions) <= 3
    # run it where a student would: in notebooks/ (here a temporary folder), in a kernel
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    assert "Running from" in _printed(nb.cells[1])
    homework = [i for i, c in enumerate(nb.cells) if c.source.startswith("## Homework")]
    end = homework[0] if homework else len(nb.cells)
    assert (lesson.folder in NO_QUIZ) == (not homework)
    for check_cell in [c for c in nb.cells[end:] if c.source.startswith("check(")]:
        assert _printed(check_cell).count("✗ Not yet.") == 1  # a starter: a hint, no crash
        # and only that: no raw "Result(passed=…, feedback=…)" shown under it
        assert [o.output_type for o in check_cell.outputs] == ["stream"]
    code_cells = [c for c in nb.cells[:end] if c.cell_type == "code"][1:]
    assert len(code_cells) == 2 * len(record.snippets)
    monkeypatch.chdir(ROOT)  # the notebook's setup cell moves there too
    for (_, code, result), run, shown in zip(
        record.snippets.values(), code_cells[::2], code_cells[1::2], strict=True
    ):
        assert run.source == code.rstrip("\n")  # the page's own text
        printed, frame = _stdout(code, result)
        assert _printed(run) == printed
        assert _printed(shown) == frame
    assert os.getcwd() == str(ROOT)


def test_make_notebooks_writes_one_per_lesson(tmp_path, monkeypatch) -> None:
    calls = []

    def record(lesson):
        calls.append(lesson.folder)
        return notebook.Record(lesson.title, "intro")

    monkeypatch.setattr(notebooks, "record_for", record)
    written = notebooks.write_all(tmp_path / "notebooks")
    # Finding: four near-empty activity notebooks (quiz, survey, heist, game) were written
    lessons = [lesson.folder for lesson in LESSONS if not lesson.activity]
    assert [p.name for p in written] == [f"{folder}.ipynb" for folder in lessons]
    assert calls == lessons and not {"class_quiz", "class_survey"} & set(calls)
    nbformat.validate(nbformat.read(written[0], as_version=4))


def test_make_notebooks_prints_no_streamlit_warnings(tmp_path) -> None:
    """Finding: `make notebooks` printed 32 "missing ScriptRunContext" lines."""
    import subprocess
    import sys

    code = (
        "import sys; from pathlib import Path; from lessons import notebooks\n"
        "from lessons.catalogue import LESSONS\n"
        "notebooks.LESSONS = tuple(l for l in LESSONS if l.folder == 'laplace')\n"
        "notebooks.write_all(Path(sys.argv[1]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ScriptRunContext" not in done.stdout + done.stderr
