"""The catalogue is the only list of lessons, and every lesson keeps the shape of
docs/ARCHITECTURE.md §1: rule 1 (a folder with page/model/charts/snippets, one catalogue entry,
a page test and a browser test) and rule 2 (page.py imports no numpy/pandas/altair and caches
nothing). Every page runs inside the app's navigation and on its own; every chart has alt text
with numbers.
"""

import ast
import functools
import re
from pathlib import Path

import pytest

import apptest_helpers as helpers
from conftest import ROOT, app_apptest, page_apptest
from lesson_rules import page_problems
from lessons.catalogue import HOME, LESSONS, PROGRESS, all_pages, by_folder

PAGES = all_pages()
LESSON_DIR = ROOT / "lessons"
LESSON_FILES = ("page.py", "model.py", "charts.py", "snippets.py")
# A class activity that draws no chart and shows no code needs only its page and model.
ACTIVITY_FILES = ("page.py", "model.py")


def _ids(lessons) -> list[str]:
    return [lesson.folder for lesson in lessons]


def repeated_labels(at) -> dict[str, list[str]]:
    """Choice widgets whose options share a label. The browser sends the label back, and
    Streamlit maps a repeated one to the last option with it: the page would compute with
    an option the student did not pick (the definition page's 7,841.5 shown as "7,842")."""
    found = {}
    for node in [*at.select_slider, *at.radio, *at.selectbox, *at.multiselect]:
        labels = list(node.options)
        if len(set(labels)) != len(labels):
            found[node.label] = labels
    return found


# One run of each page per test session, read by every test here that looks at a page's
# default state (the tests only read it): each page ran 4-5 times over before.
@functools.cache
def run_in_the_app(folder: str):
    """The page opened from the app (app.py's navigation), at its defaults."""
    at = app_apptest().run()
    assert not at.exception, at.exception
    if folder != HOME.folder:
        at.switch_page(by_folder(folder).path.relative_to(ROOT).as_posix()).run()
    return at


@functools.cache
def run_on_its_own(folder: str):
    """The page's script run alone, at its defaults."""
    return page_apptest(by_folder(folder).file).run()


@pytest.mark.parametrize("lesson", PAGES, ids=_ids(PAGES))
def test_page_runs_inside_the_app(lesson) -> None:
    at = run_in_the_app(lesson.folder)
    assert not at.exception, at.exception
    assert not repeated_labels(at)


@pytest.mark.parametrize("lesson", PAGES, ids=_ids(PAGES))
def test_page_runs_on_its_own(lesson) -> None:
    at = run_on_its_own(lesson.folder)
    assert not at.exception, at.exception
    assert not repeated_labels(at)


SLIDERS = ("slider", "select_slider")


@pytest.mark.parametrize("lesson", LESSONS, ids=_ids(LESSONS))
def test_main_control_names_exactly_one_slider_of_the_page(lesson) -> None:
    """The browser bench presses the slider whose label contains `main_control`: it must be
    one slider of the page, not a select box or two sliders."""
    at = run_on_its_own(lesson.folder)
    sliders = [node for node in at.main if getattr(node, "type", None) in SLIDERS]
    named = [node.label for node in sliders if lesson.main_control in node.label]
    if not lesson.main_control:
        assert not sliders, f"{lesson.title} has sliders but no main_control"
    else:
        assert len(named) == 1, (lesson.main_control, [node.label for node in sliders])


def test_every_lesson_folder_is_in_the_catalogue_once() -> None:
    on_disk = {
        path.parent.name
        for path in LESSON_DIR.glob("*/page.py")
        if path.parent.name not in (HOME.folder, PROGRESS.folder)
    }
    listed = [lesson.folder for lesson in LESSONS]
    assert len(listed) == len(set(listed)), "a lesson is listed twice"
    assert on_disk == set(listed), f"folders vs catalogue: {on_disk ^ set(listed)}"
    assert len({lesson.url_path for lesson in PAGES}) == len(PAGES), "two pages share a URL"


@pytest.mark.parametrize("lesson", LESSONS, ids=_ids(LESSONS))
def test_lesson_folder_is_named_after_its_url_and_has_the_four_files(lesson) -> None:
    assert lesson.folder == lesson.url_path.replace("-", "_")
    for name in ACTIVITY_FILES if lesson.activity else LESSON_FILES:
        assert (LESSON_DIR / lesson.folder / name).exists(), f"{lesson.folder}/{name} is missing"


@pytest.mark.parametrize("lesson", LESSONS, ids=_ids(LESSONS))
def test_every_lesson_has_a_page_test_and_a_browser_test(lesson) -> None:
    """A page test of its own; in real Chromium, its main control moved with the keyboard
    (tests/ui/test_browser_sweeps.py, with the numbers it must change in
    tests/keypress_probes.py), or, for a page without one, a browser test of its own."""
    folder = ROOT / "tests" / "lessons" / lesson.folder
    page_test = folder / f"test_page_{lesson.folder}.py"
    assert page_test.exists(), f"{lesson.folder} has no {page_test.relative_to(ROOT)}"
    if lesson.main_control:
        assert f'"{lesson.folder}": _' in (ROOT / "tests" / "keypress_probes.py").read_text()
    else:
        browser_test = folder / f"test_browser_{lesson.folder}.py"
        assert browser_test.exists(), f"{lesson.folder} has no {browser_test.relative_to(ROOT)}"


def _imports_and_decorators(path) -> tuple[set[str], list[str]]:
    tree = ast.parse(path.read_text())
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module.split(".")[0])
    calls = [ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Attribute)]
    return modules, calls


@pytest.mark.parametrize("lesson", PAGES, ids=_ids(PAGES))
def test_page_is_a_thin_script(lesson) -> None:
    """No numpy, pandas or altair, no cache of its own, every table through ui.tables
    (tests/lesson_rules.py, whose rules tests/test_contributing.py shows can fail)."""
    assert page_problems(lesson.path.read_text(encoding="utf-8")) == [], lesson.file


def test_a_rule_breaking_page_would_be_caught(tmp_path) -> None:
    # The check above must be able to fail.
    bad = tmp_path / "page.py"
    bad.write_text("import numpy as np\nimport streamlit as st\n\n@st.cache_data\ndef f(): ...\n")
    modules, attributes = _imports_and_decorators(bad)
    assert "numpy" in modules and "st.cache_data" in attributes


def test_ui_never_imports_lessons() -> None:
    for path in (ROOT / "ui").glob("*.py"):
        modules, _ = _imports_and_decorators(path)
        assert "lessons" not in modules, f"{path.name} imports lessons/"


def test_an_earlier_lesson_never_imports_a_later_one() -> None:
    order = {lesson.folder: i for i, lesson in enumerate(LESSONS)}
    for lesson in LESSONS:
        for path in (LESSON_DIR / lesson.folder).glob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lessons."):
                    other = node.module.split(".")[1]
                    if other in order:
                        assert order[other] <= order[lesson.folder], (
                            f"{lesson.folder}/{path.name} imports the later lesson {other}"
                        )


def test_home_is_first_and_not_a_lesson() -> None:
    assert PAGES[0] is HOME and HOME not in LESSONS


@pytest.mark.parametrize("lesson", PAGES, ids=_ids(PAGES))
def test_every_chart_has_alt_text_that_states_its_numbers(lesson) -> None:
    # ARCHITECTURE §4: a text alternative on every chart, with the current numbers (a screen
    # reader reads it instead of the chart): the chart's own name, which says what it shows
    # and stays fixed (so that the chart redraws in place), and right after it a description
    # with this run's numbers.
    at = run_on_its_own(lesson.folder)
    described = helpers.described_charts(at)
    assert len(described) == len(at.get("vega_lite_chart"))
    for chart, words in described:
        name = chart.proto.alt
        assert name.startswith("Chart") and len(name) >= 30, f"{lesson.file}: no name: {name!r}"
        assert len(words) >= 30, f"{lesson.file}: a chart without a real description: {words!r}"
        assert any(ch.isdigit() for ch in words), f"{lesson.file}: a description without numbers"


def _magic_seed_offsets(source: str) -> list[str]:
    """`seed() + 3`, `seed + 1000`: an offset that is a number, not a named SEED_ constant."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = ast.unparse(node.left)
            if "seed" in left.lower() and isinstance(node.right, ast.Constant):
                found.append(ast.unparse(node))
    return found


@pytest.mark.parametrize("lesson", LESSONS, ids=_ids(LESSONS))
def test_every_seed_offset_is_a_named_constant(lesson) -> None:
    for path in (LESSON_DIR / lesson.folder).glob("*.py"):
        if path.name == "snippets.py":
            continue  # the code shown to students carries the page's literal seed
        assert _magic_seed_offsets(path.read_text()) == [], f"{lesson.folder}/{path.name}"


def test_a_magic_seed_offset_would_be_caught() -> None:
    assert _magic_seed_offsets("x = controls.seed() + 3\ny = f(rng=seed + 1)\n") == [
        "controls.seed() + 3",
        "seed + 1",
    ]


def _footer_links(at) -> list[str]:
    return [
        element.proto.label
        for element in at.get("page_link")
        if element.proto.label.startswith(("Previous: ", "Next: "))
    ]


def test_every_page_ends_with_links_to_the_lessons_before_and_after_it() -> None:
    assert _footer_links(run_in_the_app(HOME.folder)) == [f"Next: {LESSONS[0].title}"]
    for i, lesson in enumerate(LESSONS):
        at = run_in_the_app(lesson.folder)
        assert not at.exception, at.exception
        before = HOME if i == 0 else LESSONS[i - 1]
        expected = [f"Previous: {before.title}"]
        if i + 1 < len(LESSONS):
            expected.append(f"Next: {LESSONS[i + 1].title}")
        assert _footer_links(at) == expected, lesson.folder


@pytest.mark.parametrize("lesson", LESSONS, ids=_ids(LESSONS))
def test_the_page_title_is_the_title_in_the_menu(lesson) -> None:
    """One name per lesson: the sidebar's (the catalogue's) is the page's title (they
    differed on five lessons, e.g. "Approximate DP" against "…: the Gaussian mechanism")."""
    at = run_on_its_own(lesson.folder)
    assert [title.value for title in at.title][:1] == [lesson.title]


def test_one_spelling_of_each_word_in_the_glossary() -> None:
    """The glossary's choices, checked over every page's source and the shared ui: one
    spelling ("debiased", never "debiased"), as the lessons and the README use it."""
    variants = {"de" + "-biased": "debiased", "De" + "-biased": "Debiased"}
    sources = [*LESSON_DIR.glob("*/*.py"), *(ROOT / "ui").glob("*.py"), ROOT / "README.md"]
    found = [
        (path.relative_to(ROOT).as_posix(), wrong)
        for path in sources
        for wrong in variants
        if wrong in path.read_text(encoding="utf-8")
    ]
    assert not found, f"use {variants}: {found}"


def _shown_strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a lesson or ui module that a page may show: not docstrings,
    not the LaTeX of st.latex / notebook.latex, not a regular expression's pattern, and not
    a code snippet (snippets.py holds Python)."""
    if path.name == "snippets.py":
        return []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            skipped.add(id(first.value))  # a docstring
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in {"latex", "compile", "sub", "match", "search", "fullmatch", "findall"}:
                skipped.update(id(part) for part in ast.walk(node))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
    ]


SHOWN_SOURCES = [*sorted(LESSON_DIR.glob("*/*.py")), *sorted((ROOT / "ui").glob("*.py"))]


def test_math_in_prose_is_typeset_never_a_plain_caret() -> None:
    """One style for a formula in a sentence: typeset, `$e^ε$`, as the
    formulas beside it are; "e^ε" with a plain caret was written ~55 times. Chart text, which
    cannot typeset, writes exp(ε) or superscripts (A⁽ᵏ⁾)."""
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{line}: {re.sub(r'[$][^$]*[$]', '', text)[:60]}"
        for path in SHOWN_SOURCES
        for line, text in _shown_strings(path)
        if "^" in re.sub(r"[$][^$]*[$]", "", text.replace("\\$", ""))
    ]
    assert not found, "\n".join(found)


def test_a_subscript_in_prose_is_typeset_never_an_underscore() -> None:
    """The caret's twin: "G_μ", "f_i(x) Π_(j≠i) F_j(x)", "½Σ|p_class − p_all|", "σ_ℓ" reached
    the screen as typed, underscores and all, in 10 lessons and 4 quizzes. A subscript is
    typeset (`$G_\\mu$`) or a Unicode subscript (gᵢ, xₘ, σₗ); code in backticks and names like
    dp.l_diversity are not math."""
    subscript = re.compile(r"(?<![\w.`/])[^\W\d_]_[^\W_]|(?<![\w.`/])[^\W\d_]_[({\\]")
    quizzes = [
        (path, line, text)
        for path in sorted(LESSON_DIR.glob("*/quiz.toml"))
        for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
    ]
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{line}: {match[0]}"
        for path, line, text in [
            *((path, line, text) for path in SHOWN_SOURCES for line, text in _shown_strings(path)),
            *quizzes,
        ]
        for match in subscript.finditer(
            re.sub(r"[$][^$]*[$]", "", re.sub(r"`[^`]*`", "", text.replace("\\$", "")))
        )
    ]
    assert not found, "\n".join(found)


def test_a_dollar_amount_in_prose_is_escaped() -> None:
    """Markdown reads `$…$` as math: "income above $50K … at most $e^ε$" turned the words
    between the two dollar signs into a formula. An amount is written `\\$50K`."""
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{line}"
        for path in SHOWN_SOURCES
        if path.parent.name != "choosing" or path.name != "model.py"  # chart labels only
        for line, text in _shown_strings(path)
        if re.search(r"(?<!\\)[$][0-9]+(?:K|(?:,[0-9]{3})+)", text)
    ]
    assert not found, found


def test_a_lesson_names_the_lesson_it_points_to() -> None:
    """Lessons stand alone, and their order changes: once round 5 put pages between them,
    "the previous lesson" in Choosing privately, Reconstruction attacks and DP-SGD meant a
    lesson other than the one they described, and the Laplace mechanism sent students to "the
    next lesson" for an attack two lessons on. A pointer to another lesson names it."""
    pointer = re.compile(
        r"\b(previous|next|earlier|later|last|preceding|following|prior) lesson\b", re.I
    )
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{line}: {pointer.search(text)[0]}"
        for path in SHOWN_SOURCES
        for line, text in _shown_strings(path)
        if pointer.search(text)
    ]
    assert not found, "\n".join(found)


def test_no_lesson_comes_before_a_lesson_it_builds_on() -> None:
    """Membership inference was the 3rd lesson but used ε, δ, Laplace and Gaussian noise,
    Δ₁/Δ₂, the privacy region and auditing, all defined later: a lesson's declared
    prerequisites must come earlier in the catalogue's order."""
    position = {lesson.folder: i for i, lesson in enumerate(LESSONS)}
    late = {
        lesson.folder: [p for p in lesson.prerequisites if position[p] >= position[lesson.folder]]
        for lesson in LESSONS
    }
    assert not {folder: found for folder, found in late.items() if found}
    membership = next(lesson for lesson in LESSONS if lesson.folder == "membership")
    assert "approximate_dp" in membership.prerequisites  # the case that was wrong
    # and the first section needs no DP at all
    first = [lesson for lesson in LESSONS if lesson.section == LESSONS[0].section]
    assert all(not lesson.prerequisites for lesson in first)


def _stray_docstrings(source: str) -> list[int]:
    """Lines of a string standing alone after the first statement of a function or class:
    meant as its docstring, it is none (laplace/model.py's point_frame had one)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for statement in node.body[1:]:
                value = statement.value if isinstance(statement, ast.Expr) else None
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found.append(statement.lineno)
    return found


def test_no_docstring_stands_after_a_statement() -> None:
    for folder in ("dp", "ui", "lessons", "data", "survey", "deploy"):
        for path in (ROOT / folder).rglob("*.py"):
            assert _stray_docstrings(path.read_text()) == [], path.relative_to(ROOT)


def test_a_stray_docstring_would_be_caught() -> None:
    source = 'def f(x):\n    y = x + 1\n    """What f does."""\n    return y\n'
    assert _stray_docstrings(source) == [3]


def test_a_class_activity_is_marked_in_the_catalogue_and_routed_by_ui_activity() -> None:
    """app.py shows a phone only the question of a page marked `activity` (and offers it no
    notebook); such a page is the machine of ui/activity.py, and no other page is."""
    for lesson in LESSONS:
        routed = "activity.route(" in lesson.path.read_text(encoding="utf-8")
        assert routed == lesson.activity, lesson.folder
    activities = [lesson.folder for lesson in LESSONS if lesson.activity]
    assert activities[:4] == ["class_survey", "class_quiz", "class_heist", "class_game"]


# Terms a lesson may use only after the lesson that defines them, or with a link forward to
# it (its title in a page link on the page): what a student reads in prose, captions,
# formulas, metric and control labels, not only the declared prerequisites.
DEFINED_IN = {
    r"ε-DP|\\varepsilon\\text\{-DP|[Dd]ifferential(ly)? priva|[Pp]rivacy loss|\bDP\b": "definition",
    r"[Cc]omposition|ε₁ \+ ε₂|[Bb]udget": "composition",
    r"[Pp]ost-processing": "clamping",
}


def _shown_words(at) -> str:
    """What a run shows a student: prose, captions, formulas, notes, metric and control
    labels (with their help)."""
    parts = [block.value for block in at.markdown] + [c.value for c in at.caption]
    parts += [f.value for f in at.latex]
    parts += [n.value for kind in (at.info, at.success, at.warning, at.error) for n in kind]
    parts += [m.label for m in at.metric]
    for kind in (at.slider, at.select_slider, at.selectbox, at.radio, at.number_input):
        parts += [w.label for w in kind] + [w.help or "" for w in kind]
    return " ".join(parts).replace("\\(", "(").replace("\\)", ")")


@pytest.mark.parametrize(
    "lesson",
    [lesson for lesson in LESSONS if lesson.section == LESSONS[0].section],
    ids=_ids([lesson for lesson in LESSONS if lesson.section == LESSONS[0].section]),
)
def test_an_early_lesson_links_forward_for_every_term_it_uses(lesson) -> None:
    """Finding: the first three lessons used ε-DP, composition and post-processing before The
    definition (Anonymisation's main control "Privacy loss ε"; Reconstruction's "the whole
    release is ε-DP … (post-processing: free)"; Beyond k-anonymity's "(ε₁ + ε₂)-DP"). A
    term used before the lesson that defines it comes with a link forward to that lesson."""
    position = {entry.folder: i for i, entry in enumerate(LESSONS)}
    at = run_in_the_app(lesson.folder)
    words = _shown_words(at)
    # the page's own links (not the app's menu), the footer's "Next:" included: a lesson
    # whose next one defines the term links forward to it already
    links = [element.proto.label for element in at.main.get("page_link")]
    missing = [
        (pattern, defining)
        for pattern, defining in DEFINED_IN.items()
        if position[defining] > position[lesson.folder]
        and re.search(pattern, words)
        and not any(label.endswith(by_folder(defining).title) for label in links)
    ]
    assert not missing, missing


def test_the_forward_link_rule_would_catch_a_term_without_its_link() -> None:
    assert re.search(list(DEFINED_IN)[0], "the whole release is ε-DP")
    assert re.search(list(DEFINED_IN)[1], "(ε₁ + ε₂)-DP")
    assert not re.search(list(DEFINED_IN)[0], "noise of scale b = 1/ε")
