"""Check yourself: predict-then-reveal questions at the end of a lesson (`check_yourself`), or
in a section, above the chart that answers them (`predict_first`).

    from ui.quiz import Question, check_yourself

    check_yourself("laplace", bank(__file__, "laplace"))

A lesson's fixed questions are prose and live beside its page, in quiz.toml, one table per
quiz key (the lecturer edits them without touching code):

    [[laplace]]
    prompt = "ε doubles. What happens to the noise scale b = 1/ε?"
    options = ["It doubles", "It halves", "It stays the same"]
    answer = "It halves"
    explanation = "b = Δ/ε: twice the ε, half the scale."

A question whose numbers depend on the sliders is a `Question` written in the page, from the
current widgets.

Each question is a radio with nothing selected (you commit to a prediction first) and a
"Check" button; the verdict (st.success / st.error with the explanation) appears at once.
The choice lives under the radio's key and the revealed answer under
`quiz_<key>_<i>_revealed` in st.session_state, so moving any slider on the page keeps both.
Picking another option hides the verdict until "Check" is pressed again. The questions are
one fragment: answering one reruns the questions only, not the lesson above them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from ui import datasets, notebook, progress

BANK_FILE = "quiz.toml"
BANK_FIELDS = ("prompt", "options", "answer", "explanation")


@dataclass(frozen=True)
class Question:
    """One predict-then-reveal question: its options, the index of the right one, and the
    short explanation shown with the verdict."""

    prompt: str
    options: tuple[str, ...]
    correct: int
    explanation: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", tuple(self.options))
        if len(self.options) < 2:
            raise ValueError(f"options: need at least 2, got {len(self.options)}")
        if not 0 <= self.correct < len(self.options):
            raise ValueError(f"correct: must index options (0..{len(self.options) - 1})")


# What check_yourself and predict_first take: `Question`s, or plain (prompt, options, correct
# index, explanation) tuples.
Questions = Sequence[Question | tuple[str, Sequence[str], int, str]]


def bank(page_file: str, key: str) -> tuple[Question, ...]:
    """The fixed questions `key` of the lesson whose page is `page_file`: the [[key]] tables
    of the quiz.toml beside it, each with a prompt, its options, the answer (the text of the
    right option, exactly one of them) and the explanation. Read once per version of the
    file (an edit shows on the next rerun, as a page's own does with `make dev`)."""
    path = Path(page_file).with_name(BANK_FILE)
    entries = _tables(str(path), path.stat().st_mtime_ns).get(key)
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"key: {path} has no questions [[{key}]]")
    return tuple(_banked(path, key, number, entry) for number, entry in enumerate(entries, 1))


def bank_keys(page_file: str) -> tuple[str, ...]:
    """The quiz keys of the quiz.toml beside `page_file`, in the file's order."""
    path = Path(page_file).with_name(BANK_FILE)
    return tuple(_tables(str(path), path.stat().st_mtime_ns))


@datasets.cached(max_entries=64, census_only=True)
def _tables(path: str, modified_ns: int) -> dict:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def _banked(path: Path, key: str, number: int, entry: dict) -> Question:
    where = f"{path.name} [[{key}]] #{number}"
    if sorted(entry) != sorted(BANK_FIELDS):
        raise ValueError(f"{where}: needs exactly the fields {BANK_FIELDS}, has {sorted(entry)}")
    options = entry["options"]
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise TypeError(f"{where}: options must be a list of strings")
    if options.count(entry["answer"]) != 1:
        raise ValueError(f"{where}: the answer must be exactly one of the options")
    return Question(
        entry["prompt"], tuple(options), options.index(entry["answer"]), entry["explanation"]
    )


def choice_key(key: str, index: int) -> str:
    """The session_state key of question `index`'s chosen option."""
    return f"quiz_{key}_{index}_choice"


def revealed_key(key: str, index: int) -> str:
    """The session_state key holding the option that was checked (None: not checked)."""
    return f"quiz_{key}_{index}_revealed"


def _reveal(key: str, index: int) -> None:
    st.session_state[revealed_key(key, index)] = st.session_state.get(choice_key(key, index))


def _hide(key: str, index: int) -> None:
    st.session_state[revealed_key(key, index)] = None


def check_yourself(key: str, questions: Questions) -> list[bool | None]:
    """Render the questions under a "Check yourself" header (the lesson's last section);
    return, per question, True (checked and right), False (checked and wrong) or None (not
    checked yet).

    `key` must be unique on the page (e.g. the lesson's name); questions may be
    `Question`s or plain (prompt, options, correct index, explanation) tuples."""
    st.header("Check yourself")
    return _ask(key, questions)


def predict_first(key: str, questions: Questions) -> list[bool | None]:
    """`check_yourself` for a question a section asks before its chart answers it: under a
    "Predict first" subheading of that section, so that the page's outline (a screen
    reader's list of headings) keeps the section's controls and chart inside the section."""
    st.subheader("Predict first")
    return _ask(key, questions)


def _ask(key: str, questions: Questions) -> list[bool | None]:
    st.markdown("Predict first, then check. Your answers stay while you move the sliders.")
    asked = tuple(item if isinstance(item, Question) else Question(*item) for item in questions)
    notebook.note_questions(key, asked)  # the lesson's notebook draws its exercises from them
    return _questions(key, asked)


@st.fragment
def _questions(key: str, asked: tuple[Question, ...]) -> list[bool | None]:
    """The questions, in one fragment: picking an option or pressing "Check"
    reruns the questions only, not the lesson's charts (a tap costs the server a few ms of
    CPU instead of a whole page's ~35 ms: bench/bench_room.py, "quiz"). One fragment, not one
    per question: each fragment is one more block sent to every student on a first render,
    and one more copy of the page's cursors."""
    return [_question(key, index, question) for index, question in enumerate(asked)]


def _question(key: str, index: int, question: Question) -> bool | None:
    """One question in its bordered box (its key is how this browser's progress record
    finds its verdict: ui/progress.py)."""
    with st.container(border=True, key=progress.question_key(key, index)):
        choice = st.radio(
            f"**{index + 1}.** {question.prompt}",
            range(len(question.options)),
            index=None,
            format_func=lambda i, options=question.options: options[i],
            key=choice_key(key, index),
            on_change=_hide,
            args=(key, index),
        )
        st.button(
            "Check",
            key=f"quiz_{key}_{index}_check",
            on_click=_reveal,
            args=(key, index),
            disabled=choice is None,
        )
        revealed = st.session_state.get(revealed_key(key, index))
        if revealed is None or revealed != choice:
            return None
        right = revealed == question.correct
        answer = question.options[question.correct]
        if right:
            st.success(f"Right. {question.explanation}", icon=":material/check_circle:")
        else:
            st.error(
                f"Not quite: the answer is “{answer}”. {question.explanation}",
                icon=":material/cancel:",
            )
        return right


# --- Predict first, then reveal ----------------------------------------------------------------
# One behaviour on every page that asks for a prediction before it shows the answer: the
# reveal button stays disabled until a guess is picked (so "once you have made your guess"
# is true), and once revealed the guess gets a verdict, right or the answer, with the why.


def _reveal_prediction(revealed_key: str) -> None:
    st.session_state[revealed_key] = True


def prediction(
    prompt: str,
    options: Sequence[str],
    *,
    guess_key: str,
    button: str,
    button_key: str,
    revealed_key: str,
    what: str,
    icon: str | None = None,
) -> tuple[str | None, bool]:
    """The guess (a radio with nothing picked) and the button that reveals `what`; returns
    (the guess or None, whether the answer is revealed)."""
    guess = st.radio(f"Predict first: {prompt}", list(options), index=None, key=guess_key)
    st.button(
        button,
        key=button_key,
        on_click=_reveal_prediction,
        args=(revealed_key,),
        disabled=guess is None and not st.session_state.get(revealed_key),
        icon=icon,
    )
    revealed = bool(st.session_state.get(revealed_key))
    if not revealed:
        st.caption(f"Pick your guess first: {what} appear here once you have.")
    return guess, revealed


def prediction_verdict(
    guess: str | None, options: Sequence[str], answer: int, explanation: str
) -> None:
    """Right, or the answer, and why (once revealed; nothing when no guess is picked)."""
    if guess is None:
        return
    right = list(options).index(guess) == answer
    (st.success if right else st.info)(
        ("Right. " if right else f"The answer: “{options[answer]}”. ") + explanation
    )
