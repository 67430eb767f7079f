"""Every lesson as a notebook (`make notebooks`, lessons/notebooks.py): built from one run of
its page at the defaults, it holds the page's own "what you will see", formulas and code
(the same text), two or three exercises from its check-yourself questions and its homework
(a starter and a `check` cell per exercise, each check saying "not yet"), and it runs in a
real Jupyter kernel (nbclient + ipykernel, with the project installed: `pip install -e .`)
without an error, printing exactly what the same code prints here. A class activity has no
notebook (`make notebooks` writes none, its page offers none).

The notebooks share one kernel (a kernel start is ~3 s, 24 of them most of this file's
time): before each, its namespace is emptied (`%reset -f`) and the working directory set to
a fresh folder, as a new kernel would have them; what stays is what Python caches (imported
modules, sys.path), which no notebook can rely on without importing it itself."""

from __future__ import annotations

import contextlib
import importlib
import io
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import grading
from lessons import notebooks
from lessons.catalogue import LESSONS
from ui import notebook
from ui.snippets import Snippet
from ui.text import table_text

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = [lesson for lesson in LESSONS if not lesson.activity]
FRESH = "get_ipython().run_line_magic('reset', '-f')\nimport os\nos.chdir({folder!r})\ndel os"


@pytest.fixture(scope="module")
def kernel():
    """One Jupyter kernel for this file's notebooks (each starts from FRESH)."""
    from jupyter_client.manager import KernelManager

    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(cwd=str(ROOT))
    yield manager
    manager.shutdown_kernel(now=True)


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
@pytest.mark.parametrize("lesson", NOTEBOOKS, ids=[lesson.folder for lesson in NOTEBOOKS])
def test_every_lesson_runs_as_a_notebook_and_prints_what_its_code_prints(
    lesson, kernel, tmp_path, monkeypatch
) -> None:
    record = notebooks.record_for(lesson)
    # every snippet the lesson defines, those under a chart a button draws included (the
    # training of DP-SGD and the audit of Sparse vector were missing at the defaults)
    defined = vars(importlib.import_module(f"lessons.{lesson.folder}.snippets")).values()
    assert set(record.snippets) == {s.name for s in defined if isinstance(s, Snippet)}
    nb = nbformat.reads(notebook.notebook_bytes(record).decode(), as_version=4)
    nbformat.validate(nb)
    sources = [cell.source for cell in nb.cells]
    assert sources[2] == f"**What you will see.** {record.intro}"
    for body in record.formulas.values():
        assert any(body.strip() in source for source in sources)
    questions = notebook.exercises(record)
    assert 2 <= len(questions) <= 3
    # handed in solved, nothing of the lesson's cells makes the grader refuse a function
    from homework import exercises as homework_exercises
    from homework.reading import refused

    graded = [e for e in homework_exercises(lesson.folder) if e.grade is not None]
    solved = {e.starter: grading.solution(e.id) for e in graded}
    code = [solved.get(c.source, c.source) for c in nb.cells if c.cell_type == "code"]
    assert {e.name: refused(code, e.name) for e in graded} == {e.name: None for e in graded}
    # run it where a student would: in notebooks/ (here a temporary folder), in a kernel
    nb.cells.insert(0, nbformat.v4.new_code_cell(FRESH.format(folder=str(tmp_path))))
    NotebookClient(nb, km=kernel, timeout=600).execute()
    assert nb.cells.pop(0).outputs == []  # the namespace emptied, the folder set
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    assert "Running from" in _printed(nb.cells[1])
    homework = [i for i, c in enumerate(nb.cells) if c.source.startswith("## Homework")]
    end = homework[0] if homework else len(nb.cells)
    assert homework
    for check_cell in [c for c in nb.cells[end:] if c.source.startswith("check(")]:
        assert _printed(check_cell).count("✗ Not yet.") == 1  # a starter: a hint, no crash
        # and only that: no raw "Result(passed=…, feedback=…)" shown under it. Printed text
        # only, on stdout; the kernel may send it in more than one message when it is busy
        # (a full `make test` once split a check's hint in two)
        kinds = {(o.output_type, o.get("name")) for o in check_cell.outputs}
        assert kinds == {("stream", "stdout")}, check_cell.outputs
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


def test_a_notebook_in_the_shared_kernel_sees_nothing_an_earlier_one_left(kernel, tmp_path) -> None:
    """The shared kernel would hide a notebook that uses a name it never defines: FRESH
    empties the namespace and sets the folder, so such a notebook fails as it would alone."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    runs = []
    for folder, code in ((first, "import numpy as np\nleaked = np.e"), (second, "print(leaked)")):
        nb = nbformat.v4.new_notebook(
            cells=[
                nbformat.v4.new_code_cell(FRESH.format(folder=str(folder))),
                nbformat.v4.new_code_cell(code),
                nbformat.v4.new_code_cell("import os\nprint(os.getcwd())"),
            ]
        )
        NotebookClient(nb, km=kernel, timeout=60, allow_errors=True).execute()
        runs.append(nb)
    errors = [o for o in runs[1].cells[1].outputs if o.output_type == "error"]
    assert [e.ename for e in errors] == ["NameError"]
    assert _printed(runs[1].cells[2]).strip() == str(second)
