"""ui/notebook.py: the record a lesson keeps of what it shows, the notebook built from it
(valid nbformat 4; install cell first; formulas, code and result cells; at most three
exercises, answers collapsed), and the page's download button (a lesson only, with the values
on screen now)."""

from __future__ import annotations

import json

import nbformat
import pytest

import grading
from apptest_helpers import code_texts
from conftest import app_apptest
from lessons.catalogue import LESSONS
from ui import notebook
from ui.quiz import Question

Q = [Question(f"Question {i}?", ("yes", "no", "maybe"), i % 3, f"Because {i}.") for i in range(5)]


def _record() -> notebook.Record:
    record = notebook.Record("A lesson: ε & δ", "You will see *noise*.")
    record.formulas[("page.py", 10)] = r"b = \Delta / \varepsilon"
    record.formulas[("page.py", 20)] = r"\Pr[M(x) \in S] \le e^\varepsilon \Pr[M(x') \in S]"
    record.snippets["one"] = ("The first chart", "import numpy as np\nframe = 1\n", "frame")
    record.questions["lesson_predict"] = (Q[4],)
    record.questions["lesson"] = tuple(Q[:4])
    return record


def test_the_notebook_is_valid_and_in_the_pages_order() -> None:
    nb = notebook.build(_record())
    nbformat.validate(nb)
    kinds = [(c.cell_type, c.source.splitlines()[0] if c.source else "") for c in nb.cells]
    assert kinds[0] == ("markdown", "# A lesson: ε & δ")
    assert "installs it with pip" in nb.cells[0].source and "Colab" in nb.cells[0].source
    assert kinds[1][0] == "code" and "import dp" in nb.cells[1].source
    assert nb.cells[2].source == "**What you will see.** You will see *noise*."
    assert "$$\nb = \\Delta / \\varepsilon\n$$" in nb.cells[3].source
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert code[1:] == [
        "import numpy as np\nframe = 1",
        "print(table_text(frame))",
    ]
    assert nb.metadata["kernelspec"]["name"] == "python3"


def test_exercises_are_three_of_the_lessons_questions_with_collapsed_answers() -> None:
    record = _record()
    assert notebook.exercises(record) == list(Q[:3])  # not the "predict first" one
    nb = notebook.build(record)
    answers = [c for c in nb.cells if c.source.startswith("<details>")]
    assert len(answers) == 3
    assert all(c.metadata["jupyter"]["source_hidden"] for c in answers)
    assert "**(b) no.** Because 1." in answers[1].source  # Q[1] is right at index 1
    prompts = [c.source for c in nb.cells if c.source.startswith("**2.**")]
    assert prompts == ["**2.** Question 1?\n\n- (a) yes\n- (b) no\n- (c) maybe"]


def test_a_page_without_snippets_or_questions_still_builds() -> None:
    nb = notebook.build(notebook.Record("Empty", "Nothing."))
    nbformat.validate(nb)
    assert [c.cell_type for c in nb.cells] == ["markdown", "code", "markdown"]
    assert json.loads(notebook.notebook_bytes(notebook.Record("Empty", "x")))["nbformat"] == 4


def test_a_lessons_notebook_ends_with_its_homework_and_no_solution() -> None:
    from homework import exercises

    nb = notebook.build(notebook.Record("The Laplace mechanism", "Noise.", "laplace"))
    nbformat.validate(nb)
    sources = [c.source for c in nb.cells]
    start = next(i for i, s in enumerate(sources) if s.startswith("## Homework"))
    assert sources[start + 1] == "from homework import check, unanswered"
    found = exercises("laplace")
    assert len(sources) == start + 2 + 3 * len(found)
    text = "\n".join(sources)
    for i, exercise in enumerate(found):
        prompt, starter, check = sources[start + 2 + 3 * i : start + 5 + 3 * i]
        assert prompt.startswith(f"### {exercise.title}")
        assert starter == exercise.starter
        assert check == f"check({exercise.id!r}, {exercise.name});"
        for line in grading.solution(exercise.id).splitlines():
            if "=" in line or "return" in line:
                assert line in exercise.starter or line not in text, line


def test_file_names() -> None:
    assert (
        notebook.file_name("Private training with DP-SGD") == "private-training-with-dp-sgd.ipynb"
    )
    assert notebook.file_name("Binary RR with any p and q") == "binary-rr-with-any-p-and-q.ipynb"


def _download_buttons(at) -> list:
    return [b for b in at.get("download_button") if b.proto.label.startswith("Download this")]


@pytest.mark.parametrize("folder", ["laplace", "composition"])
def test_every_lesson_offers_its_notebook_with_the_values_on_screen(folder) -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.folder == folder)
    at = app_apptest()
    at.run()
    assert _download_buttons(at) == []  # Home is not a lesson
    at.switch_page(str(lesson.path)).run()
    assert not at.exception, at.exception
    (button,) = _download_buttons(at)
    assert button.proto.label == "Download this lesson as a notebook"
    record = at.session_state[notebook.RECORD_KEY]
    shown = [code.rstrip("\n") for code in code_texts(at)]
    assert [code.rstrip("\n") for _, code, _ in record.snippets.values()] == shown
    # back Home: no button, and the lesson's record is gone (Home starts its own)
    at.switch_page("lessons/home/page.py").run()
    assert _download_buttons(at) == []
    assert at.session_state[notebook.RECORD_KEY].snippets == {}


def test_the_record_follows_a_moved_slider() -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.folder == "laplace")
    at = app_apptest()
    at.run()
    at.switch_page(str(lesson.path)).run()
    before = at.session_state[notebook.RECORD_KEY].snippets["laplace_histogram"][1]
    slider = next(s for s in at.select_slider if "ε" in s.label)
    options = list(slider.options)
    other = options[0] if slider.value != options[0] else options[-1]
    slider.set_value(other).run()
    after = at.session_state[notebook.RECORD_KEY].snippets["laplace_histogram"][1]
    assert after != before and after.rstrip("\n") in [c.rstrip("\n") for c in code_texts(at)]


@pytest.mark.parametrize("folder", [lesson.folder for lesson in LESSONS if lesson.activity])
def test_the_classroom_pages_offer_no_notebook(folder) -> None:
    """Their notebook had 3–4 cells and nothing to run: no button there."""
    lesson = next(lesson for lesson in LESSONS if lesson.folder == folder)
    at = app_apptest().run()
    at.switch_page(str(lesson.path)).run()
    assert not at.exception and _download_buttons(at) == []


def test_a_notebook_prints_its_tables_with_the_pages_formatter() -> None:
    """Notebooks printed raw pandas (9.999995e-01 … 9.643749e-17): every result cell now
    formats its floats with the page's formatter, and the setup cell imports it."""
    import pandas as pd

    from ui import text

    built = notebook.build(_record())
    code = [cell.source for cell in built.cells if cell.cell_type == "code"]
    assert "from ui.text import number, table_text" in code[0]
    assert code[-1] == "print(table_text(frame))"
    frame = pd.DataFrame({"p": [0.9999995, 9.643749e-17, 12345.678]})
    printed = frame.to_string(float_format=text.number)
    # below 10⁻⁶ in powers of ten, not in 16 zeros (ui.text.number)
    assert "e-" not in printed and "12,346" in printed and "9.644·10⁻¹⁷" in printed


@pytest.mark.parametrize(
    ("url", "public"),
    [
        (
            "https://github.com/me/privacy-playground.git",
            "https://github.com/me/privacy-playground.git",
        ),
        (
            "git@github.com:me/privacy-playground.git",
            "https://github.com/me/privacy-playground.git",
        ),
        ("https://x-access-token:SECRET@github.com/me/pp.git", "https://github.com/me/pp.git"),
        ("https://github.com/me/pp?token=SECRET#frag", "https://github.com/me/pp"),
        ("https://github.com/YOUR-NAME/privacy-playground", None),
        ("http://github.com/me/pp", None),
        ("file:///work/main", None),
        ("https://github.com", None),
        ("not a url", None),
    ],
)
def test_a_notebook_carries_only_a_public_https_address(url, public) -> None:
    """A clone's origin may hold a token: the notebook's address never does."""
    assert notebook.public_address(url) == public


def test_the_address_comes_from_the_setting_the_clone_or_pyproject(tmp_path, monkeypatch):
    monkeypatch.delenv(notebook.REPOSITORY_ENV, raising=False)
    assert notebook.repository(tmp_path) is None  # nothing known
    (tmp_path / "pyproject.toml").write_text(
        '[project.urls]\nRepository = "https://github.com/YOUR-NAME/privacy-playground"\n'
    )
    assert notebook.repository(tmp_path) is None  # the placeholder is not an address
    (tmp_path / "pyproject.toml").write_text('[project.urls]\nRepository = "https://h.org/a/b"\n')
    assert notebook.repository(tmp_path) == "https://h.org/a/b"
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text(
        '[core]\n\tbare = false\n[remote "upstream"]\n\turl = https://other.org/x/y.git\n'
        '[remote "origin"]\n\turl = git@github.com:fork/privacy-playground.git\n'
        "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
    )
    assert notebook.repository(tmp_path) == "https://github.com/fork/privacy-playground.git"
    monkeypatch.setenv(notebook.REPOSITORY_ENV, "https://tok@example.org/course/pp.git")
    assert notebook.repository(tmp_path) == "https://example.org/course/pp.git"
    with pytest.raises(ValueError):
        notebook.setup_cell("https://tok@example.org/course/pp.git")


@pytest.mark.slow
def test_a_downloaded_notebook_installs_the_course_and_runs_outside_a_clone(tmp_path) -> None:
    """A notebook downloaded from the app failed at `import dp` outside a
    clone. Its setup cell runs here in a new environment that has the course's third-party
    packages but not the course, from a folder outside any clone, with the repository's
    address (a local clone, as git+file): it installs the course, imports dp, finds the
    census and prints with the page's formatter, and the homework's `check` runs."""
    import subprocess
    import sys
    import sysconfig
    from pathlib import Path

    from homework import cells as homework_cells

    root = Path(notebook.__file__).resolve().parents[1]
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(root), str(clone)], check=True)
    env_dir = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    own = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # the test environment's packages, as a plain path: its .pth files (the course's own
    # editable install among them) are not read, so `dp` is not importable there
    Path(own, "course_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    cell = notebook.SETUP.format(repository=f"file://{clone}")
    script = (
        cell
        + "\nfrom data.census import load_census\nprint(number(len(load_census())))\n"
        + homework_cells.IMPORTS  # the homework section's cell, then a starter's check
        + "check('laplace.epsilon', ...)\n"
    )
    away = tmp_path / "elsewhere"
    away.mkdir()
    before = subprocess.run(
        [str(python), "-c", "import dp"], cwd=away, capture_output=True, text=True
    )
    assert before.returncode != 0 and "No module named 'dp'" in before.stderr
    ran = subprocess.run(
        [str(python), "-c", script], cwd=away, capture_output=True, text=True, timeout=600
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert "Installing Privacy Playground from file://" in ran.stdout
    *_, census, checked = ran.stdout.rstrip().splitlines()
    assert census == "32,561"
    assert checked == (
        "2. Find the ε for an error: ✗ Not yet. "
        "Set epsilon_for_median_error to your answer, then run the check again."
    )
    assert str(env_dir) in ran.stdout  # dp was installed into the notebook's environment
