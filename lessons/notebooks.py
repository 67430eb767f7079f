"""`make notebooks`: every lesson as a Jupyter notebook in notebooks/, at its defaults.

Each lesson page runs once on the bundled census at its default widget values (through
Streamlit's documented testing API, AppTest: no browser, no server), and the record its
building blocks kept of what it showed becomes the notebook (ui/notebook.py): the same
text as the page's "Download this lesson as a notebook" button gives at the defaults.

    python -m lessons.notebooks [DIRECTORY]      # default: notebooks/
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from lessons.catalogue import LESSONS, Lesson
from ui import notebook

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 300  # a page's first run on a cold process (the DP-SGD page trains nothing until asked)


def quiet_streamlit() -> None:
    """AppTest runs each page outside a server, and Streamlit's loggers then warn "missing
    ScriptRunContext" once per cached call: nothing a user of `make notebooks` can act on.
    Only their errors are shown (Python's logging API, on the loggers Streamlit made)."""
    for name in list(logging.root.manager.loggerDict):
        if name == "streamlit" or name.startswith("streamlit."):
            logging.getLogger(name).setLevel(logging.ERROR)


def record_for(lesson: Lesson) -> notebook.Record:
    """What `lesson`'s page shows at its defaults, from one run of it."""
    from streamlit.testing.v1 import AppTest

    quiet_streamlit()
    at = AppTest.from_file(str(lesson.path), default_timeout=TIMEOUT_S).run()
    if at.exception:
        raise RuntimeError(f"{lesson.folder}: the page raised {at.exception[0].value}")
    record = at.session_state[notebook.RECORD_KEY]
    if not isinstance(record, notebook.Record):
        raise RuntimeError(f"{lesson.folder}: the page kept no notebook record")
    return record


def notebook_lessons() -> tuple[Lesson, ...]:
    """The lessons that become notebooks: not the class activities (a phone's question, with
    nothing to compute at home)."""
    return tuple(lesson for lesson in LESSONS if not lesson.activity)


def write_all(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for lesson in notebook_lessons():
        record = record_for(lesson)
        path = directory / f"{lesson.folder}.ipynb"
        path.write_bytes(notebook.notebook_bytes(record))
        written.append(path)
        print(
            f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
            f"{len(record.formulas)} formulas, {len(record.snippets)} code cells, "
            f"{len(notebook.exercises(record))} exercises"
        )
    return written


if __name__ == "__main__":
    write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "notebooks")
