"""CONTRIBUTING.md's recipe runs: its four files and its quiz.toml, written into a scratch
lesson folder, make a page that runs under AppTest, draws its chart from dp/, answers its
slider, marks its question, keeps the lesson rules (tests/lesson_rules.py) and shows a
snippet that runs; its catalogue entry is a valid Lesson. So the recipe cannot drift from
the code again."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import dp
import lessons
from apptest_helpers import assert_quiz_marks, charts, description_of, frames_of
from conftest import APPTEST_TIMEOUT_S, ROOT
from lesson_rules import page_problems, problems
from lessons.catalogue import CENTRAL, LESSONS, Lesson
from ui import controls, datasets, text

CONTRIBUTING = ROOT / "CONTRIBUTING.md"
BLOCK = re.compile(r"^```(?:python|toml|markdown) (\S+(?: \w+)?)\n(.*?)^```$", re.S | re.M)
FOLDER = "noisy_count"


ACTIVITY = "activity:"  # the class activity recipe's blocks: ```python activity:<path>
DP_FUNCTION = "dp-function:"  # the dp function recipe's: ```python dp-function:<path> [where]


def all_blocks() -> dict[str, str]:
    """Every recipe's code blocks, by the path each names."""
    found = {path: code for path, code in BLOCK.findall(CONTRIBUTING.read_text("utf-8"))}
    assert found, "CONTRIBUTING.md has no ```python <path> or ```toml <path> blocks"
    return found


def blocks() -> dict[str, str]:
    """The lesson recipe's code blocks, by the path each names."""
    return {
        path: code
        for path, code in all_blocks().items()
        if not path.startswith((ACTIVITY, DP_FUNCTION))
    }


def activity_blocks() -> dict[str, str]:
    """The class activity recipe's code blocks, by their path in the repository."""
    return {
        path.removeprefix(ACTIVITY): code
        for path, code in all_blocks().items()
        if path.startswith(ACTIVITY)
    }


@pytest.fixture
def recipe_lesson(tmp_path, monkeypatch):
    """The recipe's files as lessons/noisy_count/ (a scratch folder on lessons' path)."""
    folder = tmp_path / FOLDER
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for path, code in blocks().items():
        if path.startswith(f"lessons/{FOLDER}/"):
            (folder / path.rsplit("/", 1)[1]).write_text(code, encoding="utf-8")
    monkeypatch.setattr(lessons, "__path__", [*lessons.__path__, str(tmp_path)])
    yield folder
    for name in [n for n in sys.modules if n.startswith(f"lessons.{FOLDER}")]:
        del sys.modules[name]


def test_the_recipe_has_a_lessons_four_files_and_its_catalogue_entry() -> None:
    paths = set(blocks())
    files = {f"lessons/{FOLDER}/{name}.py" for name in ("page", "model", "charts", "snippets")}
    others = {
        f"lessons/{FOLDER}/quiz.toml",
        "lessons/catalogue.py",
        f"homework/lessons/{FOLDER}.py",
        f"grading/lessons/{FOLDER}.py",
        "docs/homework.md",  # its line in the list
        f"tests/lessons/{FOLDER}/test_page_{FOLDER}.py",
        "tests/keypress_probes.py",  # its probe
    }
    assert files | others == paths


def test_the_recipes_files_keep_the_lesson_rules() -> None:
    for path, code in blocks().items():
        if path.startswith(f"lessons/{FOLDER}/") and path.endswith(".py"):
            assert problems(FOLDER, path.rsplit("/", 1)[1], code) == []
    assert page_problems(blocks()[f"lessons/{FOLDER}/page.py"]) == []


def test_the_rules_would_catch_a_page_that_computes() -> None:
    bad = (
        "import numpy as np\nimport streamlit as st\n\n@st.cache_data\ndef f(): ...\n"
        "st.dataframe(f())\n"
    )
    assert page_problems(bad) == [
        "imports numpy",
        "caches with st.cache_data",
        "draws a table with st.dataframe",
    ]


def test_the_catalogue_entry_is_a_lesson_after_what_it_builds_on() -> None:
    entry = eval(blocks()["lessons/catalogue.py"], {"Lesson": Lesson, "CENTRAL": CENTRAL})
    assert isinstance(entry, Lesson)
    assert entry.folder == FOLDER and entry.url_path == FOLDER.replace("_", "-")
    assert set(entry.prerequisites) <= {lesson.folder for lesson in LESSONS}
    assert entry.main_control


def _main_control() -> str:
    return eval(
        blocks()["lessons/catalogue.py"], {"Lesson": Lesson, "CENTRAL": CENTRAL}
    ).main_control


def test_the_recipes_page_runs_draws_from_dp_and_answers_its_slider(recipe_lesson) -> None:
    from lessons.noisy_count import model

    at = AppTest.from_file(str(recipe_lesson / "page.py"), default_timeout=APPTEST_TIMEOUT_S)
    at.run()
    assert not at.exception
    truth = int((datasets.census()["Age"] >= 40).sum())
    assert _main_control() in at.select_slider(key="nc_eps").label  # what a lecturer moves
    for epsilon in (1.0, 0.1):
        if epsilon != 1.0:
            at.select_slider(key="nc_eps").set_value(epsilon).run()
            assert not at.exception
        (chart,) = charts(at)
        frames = frames_of(chart)
        assert frames["truth"]["x"].tolist() == [truth]
        noisy = dp.laplace_mechanism(
            truth, 1, epsilon, size=model.ANSWERS, rng=controls.DEFAULT_SEED + model.SEED_ANSWERS
        )
        expected = np.histogram(
            np.clip(noisy, truth - model.HALF_WIDTH, truth + model.HALF_WIDTH),
            bins=len(frames["bins"]),
            range=(truth - model.HALF_WIDTH, truth + model.HALF_WIDTH),
        )[0]
        assert frames["bins"]["count"].tolist() == expected.tolist()
        within = np.mean(np.abs(noisy - truth) <= 2 / epsilon)
        assert f"ε = {epsilon:g}" in description_of(at, chart)
        assert text.percent(within) in description_of(at, chart)
        assert at.metric[0].value == text.percent(within)
    # its question, from quiz.toml, marked: the wrong answer wrong, then the right one right
    assert_quiz_marks(at, ("noisy_count", 0, 0), "twice the scale", ("noisy_count", 0, 1))


def test_the_recipes_snippet_runs_with_its_example_values(recipe_lesson) -> None:
    from lessons.noisy_count import snippets

    namespace: dict = {}
    exec(snippets.ANSWERS.render(), namespace)
    assert np.asarray(namespace["noisy"]).shape == (2_000,)


def test_the_recipes_homework_grades_its_solution_right_and_a_wrong_epsilon_wrong() -> None:
    """The recipe's two homework modules, run on their own: the student's check takes the
    solution's form; the grader's grade passes the solution and fails the starter and
    ε = √2 (the sd's √2 without the /2) with their hints."""
    import homework.core
    from homework import unanswered
    from homework.lessons import REGISTRY

    student: dict = {}
    exec(compile(blocks()[f"homework/lessons/{FOLDER}.py"], "<recipe>", "exec"), student)  # noqa: S102
    exercise, scale = student["EXERCISES"]
    assert {exercise.lesson, scale.lesson} == {FOLDER} and exercise.id not in REGISTRY
    grader: dict = {}
    exec(compile(blocks()[f"grading/lessons/{FOLDER}.py"], "<recipe>", "exec"), grader)  # noqa: S102
    assert isinstance(grader["HIDDEN_SEED"], int) and grader["HIDDEN_SEED"] != student["SEED"]

    def answer(of, code: str):
        namespace: dict = {"unanswered": unanswered}
        exec(compile(code, "<cell>", "exec"), namespace)  # noqa: S102 — the recipe's cells
        return namespace[of.name]

    for each in (exercise, scale):  # every solution passes both checks; no starter passes
        solution = answer(each, grader["SOLUTIONS"][each.id])
        assert homework.core.public_check(each, solution).passed
        assert homework.core.guarded(grader["GRADES"][each.id], solution).passed
        starter = homework.core.guarded(grader["GRADES"][each.id], answer(each, each.starter))
        assert not starter.passed and "your answer" in starter.feedback
    wrong = homework.core.guarded(grader["GRADES"][exercise.id], 2**0.5)
    assert not wrong.passed and "Too much ε" in wrong.feedback
    half = homework.core.guarded(grader["GRADES"][scale.id], 0.5)  # ε itself, not Δ/ε
    assert not half.passed and "Too small" in half.feedback


# The activity recipe runs in a fresh interpreter: its tables join the schema and its store
# kind the registry, which must not leak into the other tests of this worker.
# The class activity recipe followed exactly, in a copy of the repository: its store, model,
# page and tests written verbatim, its two prose steps done as it says (the store imported in
# survey/__init__.py, the catalogue entry after the last activity's). Then the activity's own
# tests (its browser test too) and every test that reads the catalogue, the lessons, their
# snippets or the stores, and the architecture and the docs, run there: none may fail.
ACTIVITY_TESTS = (
    "tests/lessons",
    "tests/ui/test_snippets.py",
    "tests/ui/test_outside_labels.py",
    "tests/survey/test_store_limits.py",
    "tests/test_architecture.py",
    "tests/test_docs.py",
)
HANDS = "class_hands"


def _apply_the_activity_recipe(scratch: Path) -> None:
    found = activity_blocks()
    assert set(found) == {
        "survey/hands.py",
        "lessons/catalogue.py",
        f"lessons/{HANDS}/model.py",
        f"lessons/{HANDS}/page.py",
        f"tests/lessons/{HANDS}/test_page_{HANDS}.py",
        f"tests/lessons/{HANDS}/test_browser_{HANDS}.py",
    }, set(found)
    entry = found.pop("lessons/catalogue.py")
    catalogue = scratch / "lessons" / "catalogue.py"
    source = catalogue.read_text(encoding="utf-8")
    last = [lesson.folder for lesson in LESSONS if lesson.activity][-1]
    start = source.index(f'    Lesson(\n        "{last}",')
    end = source.index("\n    ),\n", start) + len("\n    ),\n")
    indented = "".join(f"    {line}\n" for line in entry.strip().splitlines())
    catalogue.write_text(source[:end] + indented[:-1] + ",\n" + source[end:], encoding="utf-8")
    for path, code in found.items():
        (scratch / path).parent.mkdir(parents=True, exist_ok=True)
        (scratch / path).write_text(code, encoding="utf-8")
    (scratch / "lessons" / HANDS / "__init__.py").write_text("")
    init = scratch / "survey" / "__init__.py"
    source = init.read_text(encoding="utf-8")
    source = source.replace(
        "from .heist import", "from .hands import HandStore\nfrom .heist import"
    )
    init.write_text(_insert_after(source, "__all__ = [\n", '    "HandStore",\n'), encoding="utf-8")


# The lesson recipe followed exactly, in a copy of the repository: its files written verbatim,
# and its two prose steps done as it says (the entry into the catalogue after the lesson it
# builds on; the homework module imported and named in MODULES). Then every test that every
# lesson meets runs there for the new one (each test parametrized by lesson, selected by its
# id), and the tests that count or list the lessons: none may fail.
EVERY_LESSON_TESTS = (
    "tests/lessons",
    "tests/ui/test_snippets.py",
    "tests/ui/test_charts.py",
    "tests/ui/test_datasets.py",
    "tests/ui/test_browser_sweeps.py::test_every_lesson_with_a_main_control_has_a_keypress_probe",
    "tests/homework/test_homework.py",
    "tests/test_architecture.py",
    "tests/test_docs.py",
)


def _existing_pages_and_snippets() -> tuple[str, ...]:
    """What names the tests of the existing lessons: their folders, and the snippets whose
    names do not hold their folder's (`approximate_conversion`): their tests are not rerun in
    a recipe's copy, which has its own to run."""
    from ui.snippets import Snippet

    folders = [lesson.folder for lesson in LESSONS]
    names = set()
    for folder in folders:
        module = f"lessons.{folder}.snippets"
        if importlib.util.find_spec(module) is not None:
            found = vars(importlib.import_module(module)).values()
            names |= {value.name for value in found if isinstance(value, Snippet)}
    return (*folders, *sorted(n for n in names if not any(f in n for f in folders)))


OTHERS = _existing_pages_and_snippets()


def _tracked_copy(to: Path) -> None:
    names = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    for name in filter(None, names):
        source = ROOT / name
        if source.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)


def _commit(scratch: Path) -> None:
    """The copy as a git repository of its own (the architecture tests list its files)."""
    git = ["git", "-c", "user.name=recipe", "-c", "user.email=recipe@localhost"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the recipe"]):
        subprocess.run([*git, *step], cwd=scratch, check=True, capture_output=True)


def _apply_the_lesson_recipe(scratch: Path) -> None:
    for path, code in blocks().items():
        if path == "lessons/catalogue.py":
            catalogue = scratch / path
            source = catalogue.read_text(encoding="utf-8")
            entry = eval(code, {"Lesson": Lesson, "CENTRAL": CENTRAL})  # noqa: S307
            after = entry.prerequisites[-1]
            start = source.index(f'    Lesson(\n        "{after}",')
            end = source.index("\n    ),\n", start) + len("\n    ),\n")
            indented = "".join(f"    {line}\n" for line in code.strip().splitlines())
            catalogue.write_text(source[:end] + indented[:-1] + ",\n" + source[end:])
            continue
        target = scratch / path
        if path in ("docs/homework.md", "tests/keypress_probes.py"):
            # a line into the guide's list, after Laplace's; a probe, named in PROBES
            source = target.read_text(encoding="utf-8")
            if path == "docs/homework.md":
                laplace = source.index("- **The Laplace mechanism:** ")
                after = source.index("\n", laplace) + 1
                target.write_text(source[:after] + code + source[after:], encoding="utf-8")
            else:
                opening = "PROBES: dict[str, Probe] = {\n"
                table = source.index(opening)
                named = f'{opening}    "{FOLDER}": _{FOLDER}(),\n'
                source = source[:table] + code + "\n\n" + named + source[table + len(opening) :]
                target.write_text(source, encoding="utf-8")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
    (scratch / "lessons" / FOLDER / "__init__.py").write_text("")
    registry = scratch / "homework" / "lessons" / "__init__.py"
    source = registry.read_text(encoding="utf-8")
    source = source.replace("    laplace,\n", f"    laplace,\n    {FOLDER},\n")  # both lists
    registry.write_text(source, encoding="utf-8")


# The dp function recipe followed exactly, in a copy of the repository: the function at the end
# of its module, the import it names, its export, its rows in the bad-input table and its test
# file; then every test that reads dp.__all__, the names of dp's test files, the architecture
# and the docs, the recipe's own test file, and the far ends of its arguments, run there.
DP_FUNCTION_TESTS = (
    "tests/dp/test_dp_bad_inputs.py",
    "tests/dp/test_dp_extremes.py",  # only the new function's cases (-k below)
    "tests/dp/test_dp_test_files.py",
    "tests/dp/test_dp_laplace_truncated.py",
    "tests/test_architecture.py",
    "tests/test_docs.py",
)


def _insert_after(source: str, anchor: str, text: str) -> str:
    assert source.count(anchor) == 1, anchor
    at = source.index(anchor) + len(anchor)
    return source[:at] + text + source[at:]


def _apply_the_dp_function_recipe(scratch: Path) -> str:
    """The recipe's blocks and prose steps, applied; returns the function's name."""
    found = {
        path.removeprefix(DP_FUNCTION): code
        for path, code in all_blocks().items()
        if path.startswith(DP_FUNCTION)
    }
    assert set(found) == {
        "dp/laplace.py",
        "tests/dp/test_dp_bad_inputs.py VALID",
        "tests/dp/test_dp_bad_inputs.py build_cases",
        "tests/dp/test_dp_laplace_truncated.py",
    }, set(found)
    function = found.pop("dp/laplace.py")
    (name,) = re.findall(r"^def (\w+)\(", function, re.M)
    module = scratch / "dp" / "laplace.py"
    source = module.read_text(encoding="utf-8")
    source = _insert_after(source, "    check_finite_array,\n", "    check_integer,\n")
    module.write_text(source + "\n\n" + function, encoding="utf-8")
    init = scratch / "dp" / "__init__.py"
    source = _insert_after(
        init.read_text(encoding="utf-8"), "    laplace_variance,\n", f"    {name},\n"
    )
    source = _insert_after(source, "__all__ = [\n", f'    "{name}",\n')
    init.write_text(source, encoding="utf-8")
    table = scratch / "tests" / "dp" / "test_dp_bad_inputs.py"
    source = _insert_after(
        table.read_text(encoding="utf-8"),
        "VALID = {\n",
        found.pop("tests/dp/test_dp_bad_inputs.py VALID"),
    )
    cases = source.index("    return cases\n", source.index("def build_cases():"))
    source = (
        source[:cases] + found.pop("tests/dp/test_dp_bad_inputs.py build_cases") + source[cases:]
    )
    table.write_text(source, encoding="utf-8")
    for path, code in found.items():
        (scratch / path).write_text(code, encoding="utf-8")
    return name


# Every recipe followed exactly, in one copy of the repository (a lesson, an activity, a dp
# function: one copy and one run of the tests they meet, instead of three): the tests every
# lesson and every page meets run there for the new lesson and activity (selected by name),
# the activity's browser test, and every test that reads dp.__all__; the existing lessons' own
# tests are not rerun. None may fail, and each recipe's own tests must have run.
def _applied_and_tested(scratch: Path) -> tuple[str, list[str]]:
    _tracked_copy(scratch)
    _apply_the_lesson_recipe(scratch)
    _apply_the_activity_recipe(scratch)
    name = _apply_the_dp_function_recipe(scratch)
    _commit(scratch)
    env = {**os.environ, "PYTHONPATH": str(scratch), "PYTEST_ADDOPTS": ""}
    env.pop("SURVEY_DB_URL", None)
    paths = sorted({*EVERY_LESSON_TESTS, *ACTIVITY_TESTS, *DP_FUNCTION_TESTS})
    ours = f"{FOLDER} or {HANDS} or {name} or test_dp_laplace_truncated or keypress_probe"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rfEp",
            "-p",
            "no:cacheprovider",
            "-m",
            "not room",
            "-k",
            f"{ours} or not (browser or {' or '.join(OTHERS)} or clean_venv or test_dp_extremes)",
            *paths,
        ],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    lines = done.stdout.splitlines()
    # what failed, then the output without its thousands of PASSED lines (CI printed only
    # the last 6,000 characters once: all PASSED lines, the failure out of sight)
    failed = [line for line in lines if line.startswith(("FAILED ", "ERROR "))]
    rest = "\n".join(line for line in lines if not line.startswith("PASSED "))
    assert done.returncode == 0, "\n".join(failed) + "\n" + rest[-6000:]
    passed = [line for line in lines if line.startswith("PASSED ")]
    return name, passed


def _ran(passed: list[str], what: str) -> set[str]:
    return {line.split("::")[0].removeprefix("PASSED ") for line in passed if what in line}


@pytest.mark.slow
@pytest.mark.budget("one copy of the repository with every recipe followed, and their tests run")
def test_every_recipe_followed_exactly_passes_the_tests_it_meets(tmp_path) -> None:
    scratch = tmp_path / "repository"
    name, passed = _applied_and_tested(scratch)
    assert {  # the new lesson's own test, and the tests every lesson meets, ran for it
        f"tests/lessons/{FOLDER}/test_page_{FOLDER}.py",
        "tests/lessons/test_catalogue.py",
        "tests/lessons/test_notebooks.py",
        "tests/lessons/test_in_place.py",
        "tests/ui/test_snippets.py",
        "tests/ui/test_datasets.py",
    } <= _ran(passed, FOLDER)
    assert {  # the activity's own two tests, and the tests every page meets, ran for it
        f"tests/lessons/{HANDS}/test_page_{HANDS}.py",
        f"tests/lessons/{HANDS}/test_browser_{HANDS}.py",
        "tests/lessons/test_catalogue.py",
    } <= _ran(passed, HANDS)
    # the dp function's valid call, its own bad inputs and the generic ones (ε, rng) ran
    mine = [line for line in passed if name in line]
    assert any("test_every_valid_call_in_the_table_succeeds" in line for line in mine), mine
    assert any("count>n" in line for line in mine) and any("epsilon=" in line for line in mine)
    assert any("rng" in line for line in mine), mine
    assert any("test_every_function_at_the_far_end_of_each_argument" in line for line in mine)
    assert sum("test_dp_laplace_truncated.py" in line for line in passed) == 4, passed
    assert any("test_every_public_function_has_bad_input_cases" in line for line in passed)
    assert any("keypress_probe" in line for line in passed)
    # and the recipes are code as the project writes it (its lint and format rules)
    ruff = [str(Path(sys.executable).with_name("ruff"))]
    written = [  # what the recipes write verbatim, and dp's two edited files
        str(scratch / p)
        for p in (
            f"lessons/{FOLDER}",
            f"homework/lessons/{FOLDER}.py",
            f"grading/lessons/{FOLDER}.py",
            f"tests/lessons/{FOLDER}",
            "survey/hands.py",
            f"lessons/{HANDS}",
            f"tests/lessons/{HANDS}",
            "dp/laplace.py",
            "dp/__init__.py",
            "tests/dp",
        )
    ]
    for check in (["check", "--no-cache"], ["format", "--check", "--no-cache"]):
        linted = subprocess.run(
            [*ruff, *check, *written], cwd=scratch, capture_output=True, text=True
        )
        assert linted.returncode == 0, linted.stdout + linted.stderr
