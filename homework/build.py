"""`make homework`: for every lesson with homework, the student notebook (starter cells, no
solution), the solution notebook, and a Gradescope autograder (a zip with `setup.sh` and
`run_autograder` at its root, as Gradescope documents: setup.sh installs what grading needs
once, run_autograder grades /autograder/submission and writes
/autograder/results/results.json).

    python -m homework.build [OUT_DIR]          # default dist/homework

The autograder carries the course's own code it needs (dp/, homework/ and ui/text.py, which
the notebooks' setup cell imports) and grading/, the half no student gets (solutions, the
grades of fixed answers, hidden seeds, the grader itself), so grading installs only NumPy,
SciPy and IPython, at the versions this repository pins. It grades the notebook in another
process (grading/autograder.py).

For a course that grades with Otter-Grader, the same build writes `OUT_DIR/otter/`: one Otter
Assign master notebook per lesson whose tests call the same `check` (homework/otter.py).
"""

from __future__ import annotations

import io
import stat
import sys
import zipfile
from pathlib import Path

import nbformat
from nbformat import v4

from homework import otter
from homework.cells import IMPORTS, exercise_cells
from homework.lessons import LESSONS
from homework.vendored import GRADER, ROOT, VENDORED, VENDORED_FILES, requirements
from lessons.catalogue import by_folder
from ui import notebook

OUT = ROOT / "dist" / "homework"

HOW = """\
**Homework.** Each exercise has a code cell to complete and a `check(...)` cell below it:
run it as often as you like. It says whether your answer is right and, if not, gives a
hint; it never shows the answer. Your lecturer's autograder runs the same checks on the
notebook you hand in, so run every cell from the top before you submit.
"""


def _cells(lesson: str, *, solutions: bool) -> list:
    page = by_folder(lesson)
    kind = "Solutions" if solutions else "Homework"
    return [
        v4.new_markdown_cell(f"# {kind}: {page.title}\n\n{HOW}\n{notebook.INSTALL}"),
        v4.new_code_cell(notebook.setup_cell(notebook.repository()) + "\n" + IMPORTS),
        *exercise_cells(lesson, solutions=solutions),
    ]


def notebook_for(lesson: str, *, solutions: bool) -> nbformat.NotebookNode:
    """The lesson's homework notebook: the student's (starters) or the solutions."""
    built = notebook.python_notebook(_cells(lesson, solutions=solutions))
    nbformat.validate(built)
    return built


SETUP_SH = """\
#!/usr/bin/env bash
# Gradescope runs this once, in /autograder/source, to build the grading image.
set -euo pipefail
cd "$(dirname "$0")"
python3 -m pip install --quiet -r requirements.txt
python3 -m ipykernel install --sys-prefix --name python3
"""

RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Gradescope runs this for each submission: it grades /autograder/submission and writes
# /autograder/results/results.json. AUTOGRADER_ROOT moves the whole layout (a local trial).
set -euo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
cd "$ROOT/source"
export PYTHONPATH="$ROOT/source"
# Gradescope stops an autograder at 10 minutes unless the assignment allows more; the grader
# ends by GRADER_TOTAL_S seconds. With a longer timeout in Gradescope, raise it here too.
export GRADER_TOTAL_S="${{GRADER_TOTAL_S:-540}}"
python3 -m grading.autograder {lesson} "$ROOT/submission" "$ROOT/results/results.json"
"""


def _add(archive: zipfile.ZipFile, name: str, data: bytes, *, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    mode = 0o755 if executable else 0o644
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def autograder_zip(lesson: str) -> bytes:
    """Gradescope's autograder for the lesson: setup.sh and run_autograder at the root, the
    course's code it needs and requirements.txt beside them (the same bytes every build)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        _add(archive, "setup.sh", SETUP_SH.encode(), executable=True)
        _add(
            archive,
            "run_autograder",
            RUN_AUTOGRADER.format(lesson=lesson).encode(),
            executable=True,
        )
        _add(archive, "requirements.txt", requirements().encode())
        packages = (*VENDORED, *GRADER)
        files = [p for package in packages for p in sorted((ROOT / package).rglob("*.py"))]
        files += [ROOT / name for name in VENDORED_FILES]
        for path in files:
            _add(archive, path.relative_to(ROOT).as_posix(), path.read_bytes())
    return buffer.getvalue()


def build(out: Path = OUT) -> list[Path]:
    """Every lesson's student notebook, solution notebook and autograder, under `out`, and
    the Otter-Grader masters under `out/otter` (homework/otter.py)."""
    written = []
    for lesson in LESSONS:
        folder = out / lesson
        folder.mkdir(parents=True, exist_ok=True)
        for solutions, name in ((False, "homework"), (True, "solutions")):
            path = folder / f"{lesson}-{name}.ipynb"
            nbformat.write(notebook_for(lesson, solutions=solutions), path)
            written.append(path)
        path = folder / f"{lesson}-autograder.zip"
        path.write_bytes(autograder_zip(lesson))
        written.append(path)
    written += otter.build(out / "otter", LESSONS)
    return written


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else OUT
    for path in build(out):
        print(path.relative_to(out.parent) if path.is_relative_to(out.parent) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
