"""Every lesson as a Jupyter notebook, built from what its page shows.

While a lesson runs, the shared building blocks note what the page puts on screen, in this
session's state: `controls.lesson_header` starts the record (title, "what you will see"),
`notebook.latex` shows a formula and notes it, `Snippet.show` notes the code behind a chart
with the page's current values, and `quiz.check_yourself` notes the questions. Nothing is
copied: the notebook holds the same text as the page.

    notebook.latex(r"b = \\Delta / \\varepsilon")   # instead of st.latex, in a lesson page

The notebook (nbformat 4): the title and how it runs (a setup cell that installs the course
from its repository outside a clone: `repository()`), "what you will see", the formulas,
each snippet as a code cell followed by a cell that prints its result, up to three
exercises from the check-yourself questions, each answer in a collapsed cell, and the
lesson's homework (homework/: a starter and a `check(...)` cell per exercise).
`download_button` offers it at the end of a lesson (built when pressed); `make notebooks`
(lessons/notebooks.py) writes every lesson's at its defaults.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import nbformat
import streamlit as st
from nbformat import v4

RECORD_KEY = "notebook_record"
EXERCISES = 3  # at most, from the lesson's check-yourself questions
PREDICT_SUFFIX = "_predict"  # quiz keys of one-off "predict first" questions: not exercises
INSTALL = """\
**Run it** anywhere Python 3.11 and pip are: the first code cell finds the course's code
(`dp/`, the census) or, outside a clone of Privacy Playground, installs it with pip from the
course's repository (once, a minute or so) — in JupyterLab, in VS Code, or on Colab (File →
Upload notebook). In a clone, `make lab` opens every lesson's notebook.
"""
# Where a downloaded notebook installs the course from when it runs outside a clone: a fork
# names its own address by $PLAYGROUND_REPOSITORY, or simply by being run from its clone
# (Community Cloud runs a clone of the fork: its origin), or in pyproject.toml.
REPOSITORY_ENV = "PLAYGROUND_REPOSITORY"
ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = "YOUR-NAME"  # the README's and pyproject's stand-in for a fork's owner
_ORIGIN = re.compile(r'^\[remote "origin"\]\s*$(.*?)(?=^\[|\Z)', re.M | re.S)
_URL = re.compile(r"^\s*url\s*=\s*(\S+)\s*$", re.M)


def public_address(url: str) -> str | None:
    """A repository address a notebook may carry: https, without credentials (a token in a
    clone's origin must never reach a downloaded file); an ssh address (git@host:owner/repo)
    becomes https. None for anything else, or for the placeholder."""
    if not isinstance(url, str):
        raise TypeError("url must be a str")
    url = url.strip()
    ssh = re.fullmatch(r"git@([\w.-]+):([\w./-]+)", url)
    if ssh:
        url = f"https://{ssh.group(1)}/{ssh.group(2)}"
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname or not parts.path.strip("/"):
        return None
    if PLACEHOLDER in url:
        return None
    host = parts.hostname + (f":{parts.port}" if parts.port else "")
    return urlunsplit(("https", host, parts.path, "", ""))


def repository(root: Path = ROOT) -> str | None:
    """The course's repository address for a notebook's setup cell: $PLAYGROUND_REPOSITORY,
    else the origin of the clone the app runs from, else pyproject's [project.urls]
    Repository; None when none is a public https address."""
    named = os.environ.get(REPOSITORY_ENV)
    if named:
        return public_address(named)
    config = root / ".git" / "config"
    if config.is_file():
        origin = _ORIGIN.search(config.read_text(encoding="utf-8", errors="replace"))
        url = _URL.search(origin.group(1)) if origin else None
        if url:
            found = public_address(url.group(1))
            if found:
                return found
    project = root / "pyproject.toml"
    if project.is_file():
        urls = tomllib.loads(project.read_text(encoding="utf-8")).get("project", {})
        address = urls.get("urls", {}).get("Repository")
        if isinstance(address, str):
            return public_address(address)
    return None


SETUP = """\
# Setup: the cells below need the course's code (dp/, lessons/) and its census. Run from a
# clone, they are found; elsewhere (a notebook downloaded from the app, Colab) they are
# installed once from the course's repository.
import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

REPOSITORY = {repository!r}  # where this copy of Privacy Playground lives
if importlib.util.find_spec("dp") is None:
    if REPOSITORY is None:
        raise ModuleNotFoundError(
            "This notebook needs Privacy Playground's code: clone the course, run "
            "`pip install -e .` in it, and open the notebook there."
        )
    print("Installing Privacy Playground from", REPOSITORY, "(once, a minute or so)…")
    pip = [sys.executable, "-m", "pip", "install", "--quiet"]
    subprocess.check_call([*pip, "git+" + REPOSITORY])
    importlib.invalidate_caches()

import dp
from ui.text import number, table_text  # the page's number formatter, for tables below

os.chdir(Path(dp.__file__).resolve().parents[1])  # the code cells read data/ from here
print("Running from", Path.cwd().name, "with dp from", Path(dp.__file__).parent)
"""


def setup_cell(address: str | None) -> str:
    """The notebook's first code cell, installing the course from `address` when it runs
    outside a clone (`address` is repr'd into the code: any text stays a string)."""
    if address is not None and public_address(address) != address:
        raise ValueError(f"address must be a public https address, got {address!r}")
    return SETUP.format(repository=address)


@dataclass
class Record:
    """What one lesson page showed, in order of first appearance. Snippets by name and
    formulas by call site: a fragment rerun replaces its own entries with their new values."""

    title: str
    intro: str
    folder: str = ""  # lessons/<folder>/: where its homework is found (homework/lessons/)
    formulas: dict[tuple[str, int], str] = field(default_factory=dict)
    snippets: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # title, code, result
    questions: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # quiz key → Questions


def _record() -> Record | None:
    record = st.session_state.get(RECORD_KEY)
    return record if isinstance(record, Record) else None


def begin(title: str, intro: str, folder: str = "") -> None:
    """A lesson starts (a full run): a new record for it (`folder`: lessons/<folder>/)."""
    st.session_state[RECORD_KEY] = Record(title, intro, folder)


NARROW_PX = 640  # ui/style.css shows a formula's narrow form up to this width (a phone)


def latex(body: str, *, narrow: str | None = None, shown: bool = True) -> None:
    """st.latex(body), and the formula goes into the lesson's notebook. `narrow`: the same
    formula broken over lines (aligned), shown instead on a phone, where `body` would have
    to shrink below a 12 px font to fit (ui/browser.py fits formulas down to that, then
    lets them scroll); the notebook keeps `body`. `shown=False`: only into the notebook (in
    a closed lazy expander, ui/layout.py)."""
    if not shown:
        pass
    elif narrow is None:
        st.latex(body)
    else:
        if not isinstance(narrow, str) or not narrow.strip():
            raise TypeError("narrow must be a non-empty LaTeX str")
        tag = hashlib.sha1(body.encode()).hexdigest()[:10]
        with st.container(key=f"pp-wide-formula-{tag}"):
            st.latex(body)
        with st.container(key=f"pp-narrow-formula-{tag}"):
            st.latex(narrow)
    record = _record()
    if record is not None:
        caller = sys._getframe(1)  # the page's line: one entry per call site
        record.formulas[(caller.f_code.co_filename, caller.f_lineno)] = body


def note_snippet(name: str, title: str, code: str, result: str) -> None:
    record = _record()
    if record is not None:
        record.snippets[name] = (title, code, result)


def note_questions(key: str, questions: tuple[Any, ...]) -> None:
    record = _record()
    if record is not None:
        record.questions[key] = questions


def exercises(record: Record) -> list[Any]:
    """Up to EXERCISES check-yourself questions (the lesson's own lists, not its one-off
    "predict first" questions, whose wording depends on the sliders)."""
    chosen = [
        question
        for key, questions in record.questions.items()
        if not key.endswith(PREDICT_SUFFIX)
        for question in questions
    ]
    return chosen[:EXERCISES]


def _letter(index: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[index]


def build(record: Record) -> nbformat.NotebookNode:
    """The lesson as a notebook (see the module's docstring for its cells)."""
    cells = [
        v4.new_markdown_cell(
            f"# {record.title}\n\n*A lesson of Privacy Playground, as a notebook.*\n\n{INSTALL}"
        ),
        v4.new_code_cell(setup_cell(repository())),
        v4.new_markdown_cell(f"**What you will see.** {record.intro}"),
    ]
    if record.formulas:
        formulas = "\n\n".join(f"$$\n{body.strip()}\n$$" for body in record.formulas.values())
        cells.append(v4.new_markdown_cell(f"## The formulas\n\n{formulas}"))
    if record.snippets:
        cells.append(
            v4.new_markdown_cell(
                "## The code behind the charts\n\nThe same code as on the page, with the "
                "values it showed. Each cell leaves the chart's data in a variable; the cell "
                "after it prints that, its numbers written as the page writes them."
            )
        )
    for title, code, result in record.snippets.values():
        cells.append(v4.new_markdown_cell(f"### {title}"))
        cells.append(v4.new_code_cell(code.rstrip("\n")))
        cells.append(v4.new_code_cell(f"print(table_text({result}))"))
    questions = exercises(record)
    if questions:
        cells.append(
            v4.new_markdown_cell(
                "## Check yourself\n\nAnswer first, then open the answer below each question "
                "(click the collapsed cell)."
            )
        )
    for number, question in enumerate(questions, start=1):
        options = "\n".join(
            f"- ({_letter(i)}) {option}" for i, option in enumerate(question.options)
        )
        cells.append(v4.new_markdown_cell(f"**{number}.** {question.prompt}\n\n{options}"))
        answer = question.options[question.correct]
        cells.append(
            v4.new_markdown_cell(
                f"<details><summary>Answer to {number}</summary>\n\n"
                f"**({_letter(question.correct)}) {answer}.** {question.explanation}\n\n"
                "</details>",
                metadata={"jupyter": {"source_hidden": True}},
            )
        )
    cells += homework_cells(record.folder)
    return python_notebook(cells)


def python_notebook(cells: list[nbformat.NotebookNode]) -> nbformat.NotebookNode:
    """A notebook (nbformat 4) of `cells`, for Jupyter's Python 3 kernel."""
    notebook = v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    notebook.metadata["language_info"] = {"name": "python"}
    return notebook


HOMEWORK = """\
## Homework

Each exercise below has a code cell to complete and a `check(...)` cell under it: run it as
often as you like. It says whether your answer is right and, if not, gives a hint; it never
shows the answer. A lecturer who sets this lesson as homework grades the notebook you hand
in with the same checks.
"""


def homework_cells(folder: str) -> list[nbformat.NotebookNode]:
    """The homework of the lesson in lessons/<folder>/ (homework/: its exercises, each with
    a starter and a `check` cell); none for a page without homework."""
    from homework.cells import IMPORTS, exercise_cells
    from homework.lessons import LESSONS as WITH_HOMEWORK

    if folder not in WITH_HOMEWORK:
        return []
    return [
        v4.new_markdown_cell(HOMEWORK),
        v4.new_code_cell(IMPORTS.rstrip("\n")),
        *exercise_cells(folder, solutions=False, level=3),
    ]


def notebook_bytes(record: Record) -> bytes:
    notebook = build(record)
    nbformat.validate(notebook)
    return nbformat.writes(notebook).encode()


def file_name(title: str) -> str:
    """ "Private training with DP-SGD" → "private-training-with-dp-sgd.ipynb"."""
    words = "".join(c.lower() if c.isalnum() else " " for c in title).split()
    return "-".join(words) + ".ipynb"


def forget() -> None:
    """Before a page runs (app.py): only a lesson that this run shows keeps a record."""
    st.session_state.pop(RECORD_KEY, None)


def download_button() -> None:
    """At the end of a lesson: its notebook, built when pressed (from this session's record,
    so with the values the page shows now). Nothing when the page kept no record (it is not
    a lesson)."""
    record = _record()
    if record is None:
        return
    st.download_button(
        "Download this lesson as a notebook",
        data=lambda: notebook_bytes(record),
        file_name=file_name(record.title),
        mime="application/x-ipynb+json",
        key="notebook_download",
        on_click="ignore",
        icon=":material/book_2:",
        help="A Jupyter notebook: what you will see, the formulas, the code behind the "
        "charts with the values on screen now, exercises with their answers, and homework "
        "that checks your code.",
    )
