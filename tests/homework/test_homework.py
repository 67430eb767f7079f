"""Homework that grades itself: every solution passes the student's check (homework/) and the
grader's (grading/, on hidden cases), every starter fails both without crashing, deliberately
wrong solutions fail the grader's with a hint, the student notebook holds no solution, and
the Gradescope autograder, unzipped into a clean virtual environment, grades a submitted
notebook and writes a valid results.json. What a student may try against the grader:
tests/homework/test_cheats.py."""

from __future__ import annotations

import re
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import nbformat
import numpy as np
import pytest

import grading
from autograder_helpers import assert_gradescope_results, autograder_venv, graded
from homework import build, check, exercises, unanswered
from homework.lessons import LESSONS, REGISTRY
from lessons.catalogue import by_folder

ALL = [e for lesson in LESSONS for e in exercises(lesson)]


def defined(code: str, name: str):
    """What a code cell defines under `name` (run as the notebook runs it)."""
    namespace: dict = {"unanswered": unanswered}
    exec(compile(code, "<cell>", "exec"), namespace)  # noqa: S102 — our own cells
    return namespace.get(name)


def test_every_lesson_has_two_to_four_exercises_and_every_exercise_a_home() -> None:
    for lesson in LESSONS:
        found = exercises(lesson)
        assert 2 <= len(found) <= 4, lesson
        assert [e.title.split(".")[0] for e in found] == [str(i + 1) for i in range(len(found))]
        assert by_folder(lesson).folder == lesson  # a lesson of the catalogue
    assert len(REGISTRY) == len(ALL)


@pytest.mark.parametrize("exercise", ALL, ids=[e.id for e in ALL])
def test_the_solution_passes_the_students_check_and_the_graders(exercise) -> None:
    answer = defined(grading.solution(exercise.id), exercise.name)
    result = check(exercise.id, answer, quiet=True)
    assert result.passed, result.feedback
    assert result.final == (exercise.kind == "function")  # a fixed answer: its form only
    graded = grading.grade(exercise.id, answer)
    assert graded.passed and graded.final, graded.feedback


@pytest.mark.parametrize("exercise", ALL, ids=[e.id for e in ALL])
def test_the_starter_fails_both_checks_and_says_what_to_do(exercise) -> None:
    for verdict in (check, grading.grade):
        kwargs = {"quiet": True} if verdict is check else {}
        result = verdict(exercise.id, defined(exercise.starter, exercise.name), **kwargs)
        assert not result.passed
        assert "unanswered" in result.feedback or "your answer" in result.feedback


@pytest.mark.parametrize("exercise", [e for e in ALL if e.kind == "function"], ids=lambda e: e.id)
def test_the_grader_draws_other_cases_than_the_students_check(exercise) -> None:
    """A function graded on the public cases only could be a table of their answers: the
    grader's cases differ (the arguments of every call are recorded, both ways)."""
    solution = defined(grading.solution(exercise.id), exercise.name)
    calls: dict[str, list] = {"public": [], "hidden": []}

    def seen(arg):
        if isinstance(arg, np.random.Generator):  # a generator: where it stands
            return arg.bit_generator.state["state"]["state"]
        if callable(arg):  # an oracle the grade hands over: what it holds
            held = [cell.cell_contents for cell in arg.__closure__ or ()]
            return [seen(value) for value in [*held, *(arg.__defaults__ or ())]]
        return np.asarray(arg).tolist() if hasattr(arg, "shape") else arg

    def spy(into):
        def call(*args):
            into.append(repr([seen(a) for a in args]))
            return solution(*args)

        return call

    check(exercise.id, spy(calls["public"]), quiet=True)
    grading.grade(exercise.id, spy(calls["hidden"]))
    assert calls["public"] and calls["hidden"]
    assert set(calls["hidden"]) - set(calls["public"]), "the hidden cases are the public ones"


def test_a_fixed_answer_is_checked_for_its_form_only_and_graded_on_hand_in() -> None:
    wrong = check("laplace.epsilon", 0.2, quiet=True)  # ln 2 forgotten: its form is right
    assert wrong.passed and not wrong.final and "graded when you hand" in str(wrong)
    assert not grading.grade("laplace.epsilon", 0.2).passed
    assert not check("laplace.malicious", 1.5, quiet=True).passed  # not a probability
    assert not check("composition.advanced", 2.5, quiet=True).passed  # not whole
    assert not check("sparse_vector.flaw", "bb", quiet=True).passed  # not one letter


def test_a_function_that_calls_dp_is_told_so_by_the_students_check() -> None:
    import dp

    def laplace_count(true_count, epsilon, rng):
        return dp.laplace_mechanism(true_count, 1.0, epsilon, rng=rng)

    result = check("laplace.count", laplace_count, quiet=True)
    assert not result.passed and "calls dp/" in result.feedback


def test_a_function_the_grader_would_refuse_is_told_so_by_the_students_check(
    monkeypatch,
) -> None:
    """The student's check reads the cells the kernel ran as the grader reads the notebook:
    a function that imports dp by a computed name is "not yet" there too, where it was
    "right" (and then 0 on hand-in)."""
    from IPython.core.interactiveshell import InteractiveShell

    # The shell makes its namespace the process's __main__ (a module without __spec__) and
    # sets the hooks: put them back after, or a later test's spawned process fails to start
    # in this worker ("module '__main__' has no attribute '__spec__'", the store tests).
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    for hook in ("displayhook", "excepthook"):
        monkeypatch.setattr(sys, hook, getattr(sys, hook))
    shell = InteractiveShell.instance()
    try:
        for cell in (
            "import importlib\nfrom homework import check\n",
            "def laplace_count(true_count, epsilon, rng):\n"
            "    m = importlib.import_module('d' + 'p')\n"
            "    return m.laplace_mechanism(true_count, 1.0, epsilon, rng=rng)\n",
            "result = check('laplace.count', laplace_count, quiet=True)\n",
        ):
            assert shell.run_cell(cell, store_history=True).success
        result = shell.user_ns["result"]
        assert not result.passed
        assert "loads code or modules by name" in result.feedback, result.feedback
        assert "restart the kernel" in result.feedback
        # the same function written with numpy only, in a kernel started again: right
        shell.reset(new_session=True)
        for cell in (
            "from homework import check\n",
            "def laplace_count(true_count, epsilon, rng):\n"
            "    return true_count + rng.laplace(0.0, 1 / epsilon)\n",
            "result = check('laplace.count', laplace_count, quiet=True)\n",
        ):
            assert shell.run_cell(cell, store_history=True).success
        assert shell.user_ns["result"].passed, shell.user_ns["result"].feedback
    finally:
        InteractiveShell.clear_instance()


def laplace_half_scale(true_count, epsilon, rng):
    return true_count + rng.laplace(0.0, 1 / (2 * epsilon))  # b = 1/(2ε): too little noise


def laplace_gaussian(true_count, epsilon, rng):
    return true_count + rng.normal(0.0, np.sqrt(2) / epsilon)  # the right spread, wrong shape


def laplace_global_rng(true_count, epsilon, rng):
    return true_count + np.random.laplace(0.0, 1 / epsilon)  # noqa: NPY002 (the mistake)


def laplace_biased(true_count, epsilon, rng):
    return true_count + 1 + rng.laplace(0.0, 1 / epsilon)


def laplace_raises(true_count, epsilon, rng):
    return true_count / 0


def coin_fair_formula(reports, honest, yes):
    return 2 * reports.mean() - 0.5  # the textbook's, right only for fair coins


def coin_clipped(reports, honest, yes):
    return min(max((reports.mean() - (1 - honest) * yes) / honest, 0.0), 1.0)


def coin_wrong_divisor(reports, honest, yes):
    return (reports.mean() - (1 - honest) * yes) / (honest + yes)


def sigma_without_the_1_25(sensitivity, epsilon, delta):
    return sensitivity * np.sqrt(2 * np.log(1 / delta)) / epsilon  # the dropped constant


def grr_any_value(value, k, epsilon, rng):
    keep = np.exp(epsilon) / (np.exp(epsilon) + k - 1)
    return value if rng.random() < keep else int(rng.integers(k))  # may "change" to itself


def exponential_without_the_2(scores, sensitivity, epsilon):
    weights = np.exp(epsilon * (scores - scores.max()) / sensitivity)
    return weights / weights.sum()


def exponential_overflowing(scores, sensitivity, epsilon):
    weights = np.exp(epsilon * scores.astype(float) / (2 * sensitivity))
    return weights / weights.sum()


def tree_variance_log2(t, horizon, epsilon):
    return bin(t).count("1") * 2 * (np.log2(horizon) / epsilon) ** 2


@pytest.mark.parametrize(
    ("exercise_id", "wrong", "says"),
    [
        ("laplace.count", laplace_half_scale, "times the Laplace mechanism's"),
        ("laplace.count", laplace_gaussian, "not the Laplace shape"),
        ("laplace.count", laplace_global_rng, "draw every random number from `rng`"),
        ("laplace.count", laplace_biased, "centred +"),
        ("laplace.count", laplace_raises, "ZeroDivisionError"),
        ("laplace.count", 3.0, "must be a function"),
        ("laplace.epsilon", np.log(2) / 5 * 1.05, "Too large"),
        ("laplace.epsilon", 1 / 5, "Too large"),  # ln 2 forgotten
        ("laplace.epsilon", "0.14", "must be a number"),
        ("laplace.malicious", 1 - np.exp(-1) / 2, "Too high"),  # e^(−ε) for e^(−ε/2)
        ("laplace.malicious", 0.5, "Too low"),
        ("coin_flip.estimate", coin_fair_formula, "Right for fair coins only"),
        ("coin_flip.estimate", coin_clipped, "Do not clip"),
        ("coin_flip.estimate", coin_wrong_divisor, "misses the unbiased one"),
        ("coin_flip.epsilon", np.log(3), "Too small"),  # the fair coins' ε
        ("coin_flip.standard_error", 0.0145, "Too small"),  # the truth's SE, not the estimate's
        ("composition.total", lambda epsilons, disjoint: sum(epsilons), "disjoint parts"),
        ("composition.total", lambda epsilons, disjoint: max(epsilons), "the same data"),
        ("composition.advanced", 100, "basic composition's count"),
        ("composition.advanced", 361, "Too many"),  # the √k term alone, without k·ε(e^ε − 1)
        ("composition.averaging", 3, "Too few"),  # √2/ε read as the variance
        ("approximate_dp.sigma", sigma_without_the_1_25, "times the classic one"),
        ("approximate_dp.analytic", 1.0, "Too large"),
        ("kary_rr.randomize", grr_any_value, "keep the true value"),
        ("kary_rr.randomize", lambda value, k, epsilon, rng: value, "keep the true value"),
        ("kary_rr.count", 412, "*reported* A"),
        ("membership.rates", lambda tpr, fpr: max(0.0, np.log(tpr / fpr)), "its complement"),
        ("membership.proven", float(np.log(30.0)), "the rates' own ε"),
        ("clamping.sensitivity", lambda lower, upper, neighbours: upper - lower, "added or"),
        ("clamping.sensitivity", lambda lower, upper, neighbours: upper, "bounds [-"),
        ("clamping.bias", 400_000, "Too high"),
        ("definition.posterior", lambda prior, eps: min(1.0, np.exp(eps) * prior), "odds"),
        ("binary_rr.epsilon", lambda p, q: abs(np.log(p / (1 - q))), "largest"),
        ("unary_encoding.epsilon", lambda p, q: np.log(p / q), "two bits"),
        ("choosing.exponential", exponential_without_the_2, "factor of 2"),
        ("choosing.exponential", exponential_overflowing, "finite"),
        ("counting_over_time.variance", tree_variance_log2, "1 bits"),
        ("subsampling.amplified", lambda eps, q: q * eps, "not q·ε"),
        ("subsampling.steps", 300.0, "Too high"),
        ("anonymisation.k", lambda rows: len(set(rows)), "smallest group"),
        ("anonymisation.unique", 0.5, "Too high"),
        ("sparse_vector.flaw", "b", "bounded amount"),
        ("sparse_vector.flaw", "z", "must be one of"),
        ("central_vs_local.std", lambda n, eps: np.sqrt(2) / eps, "grows like √n"),
        ("large_domains.olh", lambda eps: 2, "rounded"),
        ("group_by.threshold", 1.0, "Too low"),
        ("beyond_global.local", lambda values, lower, upper: upper - lower, "neighbouring value"),
        ("beyond_global.global", 50, "Too low"),
        ("epsilon_meaning.advantage", lambda eps: 1 - np.exp(-eps), "the bound"),
        ("epsilon_meaning.exposure", 1e-5, "Too low"),
        ("uncertainty.interval", 1.96 * 10 + 20 * np.log(20), "Too wide"),
        ("uncertainty.se", lambda share, n: np.sqrt(share * (1 - share)), "p(1 − p)/n"),
        (
            "dpsgd.clip",
            lambda gradients, clip_norm: np.clip(gradients, -clip_norm, clip_norm),
            "own L2 norm",
        ),
        ("dpsgd.noise", 1.1, "Too high"),
        ("beyond_k_anonymity.l", lambda classes, sensitive: len(set(sensitive)), "one class"),
        ("beyond_k_anonymity.distance", 0.746, "Too high"),  # the sum, not halved
        ("reconstruction.rebuild", lambda answer, n: [0] * n, "wrong"),
        ("reconstruction.accuracy", 0.5, "Too low"),
        ("census_topdown.sigma", lambda sensitivity, rho: sensitivity / rho, "zCDP"),
        ("census_topdown.rounding", lambda values: [round(v) for v in values], "add up"),
        ("synthetic.table", lambda records, a, b: np.zeros((a, b), dtype=int), "entry [i, j]"),
        ("synthetic.pairs", 36, "Too many"),
        ("floating_point.doubles", 2**53, "Too many"),
        ("floating_point.seed", "c", "subtract"),
        ("private_ml.variance", lambda width, epsilon: (width / epsilon) ** 2, "2b²"),
        ("private_ml.rows", 10_000, "Too few"),
    ],
)
def test_a_wrong_answer_fails_with_a_hint_and_never_the_answer(exercise_id, wrong, says) -> None:
    result = grading.grade(exercise_id, wrong)
    assert not result.passed and says in result.feedback, result.feedback
    assert "0.1386" not in result.feedback and "0.6967" not in result.feedback


def test_the_student_notebook_holds_no_solution() -> None:
    for lesson in LESSONS:
        student = build.notebook_for(lesson, solutions=False)
        solutions = build.notebook_for(lesson, solutions=True)
        student_text = "\n".join(cell.source for cell in student.cells)
        solution_cells = [cell.source for cell in solutions.cells]
        for exercise in exercises(lesson):
            assert exercise.starter in [cell.source for cell in student.cells]
            assert grading.solution(exercise.id) in solution_cells
            for line in grading.solution(exercise.id).splitlines():
                if re.search(r"[A-Za-z0-9]", line) and not line.startswith(("import ", "from ")):
                    assert line in exercise.starter or line not in student_text, line


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lessons_notebooks_and_autograder_build(lesson) -> None:
    for solutions in (False, True):
        nbformat.validate(build.notebook_for(lesson, solutions=solutions))
    assert (
        f"grading.autograder {lesson} "
        in zipfile.ZipFile(__import__("io").BytesIO(build.autograder_zip(lesson)))
        .read("run_autograder")
        .decode()
    )


def test_the_autograder_zip_is_gradescopes_layout_and_the_same_every_build() -> None:
    data = build.autograder_zip("laplace")
    assert data == build.autograder_zip("laplace")
    with zipfile.ZipFile(__import__("io").BytesIO(data)) as archive:
        names = archive.namelist()
        modes = {i.filename: i.external_attr >> 16 for i in archive.infolist()}
    assert {"setup.sh", "run_autograder", "requirements.txt"} <= set(names)
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111
    assert "grading/autograder.py" in names and "grading/lessons/laplace.py" in names
    assert "dp/laplace.py" in names and "homework/runner.py" in names
    assert not [n for n in names if n.startswith(("lessons/", "survey/"))]


@pytest.fixture(scope="module")
def clean_venv() -> Iterator[Path]:
    yield from autograder_venv()


@pytest.mark.budget("the shared clean venv (setup.sh installs, once per run) and four gradings")
@pytest.mark.slow
def test_the_autograder_grades_in_a_clean_venv(tmp_path, clean_venv) -> None:
    """Solutions: full marks. The starter: zero, every test saying what to do, no crash. A
    notebook whose Laplace count uses half the scale, and which raises in another cell:
    that exercise scores 0, the others stand. The app's notebook of the lesson, solved:
    full marks, though its lesson cells fail there."""
    solutions = build.notebook_for("laplace", solutions=True)
    results = graded(tmp_path / "solutions", clean_venv, "laplace", solutions)
    assert_gradescope_results(results, "laplace")
    assert results["score"] == sum(e.points for e in exercises("laplace"))

    starter = build.notebook_for("laplace", solutions=False)
    results = graded(tmp_path / "starter", clean_venv, "laplace", starter)
    assert_gradescope_results(results, "laplace")
    assert results["score"] == 0
    assert all("Not yet" in t["output"] for t in results["tests"])

    wrong = build.notebook_for("laplace", solutions=True)
    for cell in wrong.cells:
        if cell.cell_type == "code" and "def laplace_count" in cell.source:
            cell.source = cell.source.replace("scale = 1 / epsilon", "scale = 1 / (2 * epsilon)")
    wrong.cells.insert(3, nbformat.v4.new_code_cell("raise RuntimeError('a broken cell')"))
    results = graded(tmp_path / "wrong", clean_venv, "laplace", wrong)
    scores = {t["name"]: t["score"] for t in results["tests"]}
    assert scores["1. Implement the Laplace count"] == 0
    assert results["score"] == sum(e.points for e in exercises("laplace")[1:])

    # the lesson's own notebook, as the app downloads it, with the solutions filled in: its
    # lesson cells need lessons/ and the census, which the autograder does not carry; they
    # fail, and the exercises are graded all the same
    from ui import notebook

    record = notebook.Record("The Laplace mechanism", "Noise.", "laplace")
    record.snippets["answers"] = (
        "The answers",
        "from lessons.laplace import model\nframe = model.noisy_answers()\n",
        "frame",
    )
    app = notebook.build(record)
    solved = {e.starter: grading.solution(e.id) for e in exercises("laplace")}
    for cell in app.cells:
        cell.source = solved.get(cell.source, cell.source)
    results = graded(tmp_path / "from-app", clean_venv, "laplace", app)
    assert_gradescope_results(results, "laplace")
    assert results["score"] == sum(e.points for e in exercises("laplace"))


def test_every_lesson_of_the_course_has_homework_and_the_guide_lists_it() -> None:
    from lessons.catalogue import LESSONS as COURSE

    assert set(LESSONS) == {lesson.folder for lesson in COURSE if not lesson.activity}
    guide = (Path(__file__).resolve().parents[2] / "docs" / "homework.md").read_text("utf-8")
    for lesson in COURSE:
        if not lesson.activity:  # its line in the guide's list says what its exercises ask
            assert f"- **{lesson.title}:** " in guide, lesson.title
