"""The class quiz's own parts: questions drawn from the lessons' own check-yourself lists
(read from their quiz.toml, never copied), its names (URL, cookie, session state), the phones'
private mode (k-ary randomized response, dp/kary.py) and the projector's numbers. Storage is
survey/quiz.py, in the class database; the machine it runs on (the store, routing, join
block, lecturer memory, student token, limits, faults) is ui/activity.py, shared with the
class survey."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
import survey
from lessons.catalogue import LESSONS, LESSONS_DIR
from ui import activity, datasets, quiz, text

URL_PATH = "class-quiz"
LETTERS = "ABCDEF"
CUSTOM_KEY = "quiz_custom_questions"  # the lecturer's own questions, before creating
TAPS_PER_MINUTE = 30
SCORES_SHOWN = 10  # the projector's table of scores: the best ten nicknames
POLL_S = 2  # a phone asks which question is on show every POLL_S seconds
EPSILONS: tuple[float, ...] = (0.5, 1.0, 2.0, 3.0, 5.0)
# ε = 1 gave 4-option bars of ±59.5% in a room of 30 (precision_words): nothing to read
DEFAULT_EPSILON = 2.0
COUNTDOWNS: tuple[int, ...] = (0, 15, 30, 60, 120)
Z95 = 1.959963984540054


# --- questions from the lessons --------------------------------------------------------------
@datasets.cached(census_only=True, max_entries=len(LESSONS))
def lesson_questions(folder: str) -> tuple[survey.QuizQuestion, ...]:
    """The check-yourself questions of lessons/`folder`, read from the lesson's own quiz.toml
    (never copied): every table but a one-off "…_predict", in the page's order. A question
    the page writes from the sliders' state is not in the file, and is left out."""
    page = LESSONS_DIR / folder / "page.py"
    if not page.with_name(quiz.BANK_FILE).exists():
        return ()
    return tuple(
        survey.QuizQuestion(q.prompt, q.options, q.correct, q.explanation)
        for key in quiz.bank_keys(str(page))
        if not key.endswith("_predict")
        for q in quiz.bank(str(page), key)
    )


@datasets.cached(census_only=True, max_entries=1)
def sources() -> tuple[tuple[str, str], ...]:
    """(folder, title) of every lesson with reusable questions, in teaching order."""
    return tuple(
        (lesson.folder, lesson.title) for lesson in LESSONS if lesson_questions(lesson.folder)
    )


def parse_options(raw: str) -> tuple[str, ...]:
    """The lecturer's options, one per line (blank lines skipped)."""
    return tuple(line.strip() for line in raw.splitlines() if line.strip())


# --- the lecturer, the phones, and what a session keeps ------------------------------------------
ACTIVITY = activity.Activity(
    "quiz",
    "Class quiz",
    URL_PATH,
    no_key_message="To run a quiz, open your private lecturer link in this browser. Students "
    "join with the link or the code on the projector.",
    power="Anyone with this link can run this quiz. Keep it to yourself.",
    new_label="New quiz",
    new_help="This browser comes back to this quiz until you start a new one; your private "
    "link still opens it.",
    running=lambda quiz: not quiz.finished,
)
# What this browser remembers of the quiz it runs: the admin keys this session holds
# (ADMIN_KEYS_KEY), and "CODE.ADMINKEY" of the last one in a cookie (MANAGE_COOKIE).
LECTURER = ACTIVITY.memory
ADMIN_KEYS_KEY, MANAGE_COOKIE = LECTURER.keys, LECTURER.cookie
TAP_LIMIT = "quiz-tap/token"

# What a session keeps, by name (ui.activity.SessionValue), instead of raw key strings.
Value = activity.SessionValue
LECTURER_FAULT: Value[tuple] = Value("quiz_lecturer_fault")  # a Start/Next/Reveal that failed
CUSTOM: Value[list] = Value(CUSTOM_KEY)  # the lecturer's own questions
OWN_ERROR: Value[str] = Value("quiz_own_error")  # why the last own question was refused
OWN_PROMPT, OWN_OPTIONS = Value("quiz_own_prompt"), Value("quiz_own_options")  # the form's
OWN_CORRECT, OWN_EXPLANATION = Value("quiz_own_correct"), Value("quiz_own_explanation")
NICKNAME_INPUT: Value[str] = ACTIVITY.nickname_input  # the nickname box's text
NICKNAMES_PER_10_MINUTES = activity.NICKNAMES_PER_10_MINUTES


def outcome(quiz_id: int, position: int) -> activity.SessionValue[str]:
    """What became of this browser's last tap on a question (a SubmitResult's value)."""
    return Value(f"quiz_outcome_{quiz_id}_{position}")


def stored(quiz_id: int, position: int) -> activity.SessionValue[int]:
    """The option this browser sent for a question, once stored (it never changes)."""
    return Value(f"quiz_stored_{quiz_id}_{position}")


def pull_words(pull: float) -> str:
    """How far randomized response pulls the raw shares from the class's, computed at the
    estimated shares (the class's own are unknown): none when the estimate gives every
    option the same share to the digits shown."""
    if text.percent(pull) == "0%":
        return (
            "The estimate gives every option the same share, which randomized response "
            "leaves where it is: at these shares the raw ones would not be pulled at all."
        )
    return (
        "Randomized response pulls every option toward the same share: had the class "
        f"answered as estimated, its raw shares would sit up to {text.percent(pull)} from "
        "its own, on average."
    )


def planned_half_width(n: int, epsilon: float, k: int) -> float:
    """The most a 95% interval of one option's share can be (± on the share scale) with n
    randomized answers: z √Var/n with Var = dp.grr_variance, at the share where it is
    widest (Var is linear in the share: its largest value is at 0 or 1)."""
    return max(Z95 * math.sqrt(dp.grr_variance(n, epsilon, k, f)) / n for f in (0.0, 1.0))


def precision_words(epsilon: float, k: int) -> str:
    """What private mode at ε buys a room, before the quiz is made: each option's share to
    within ± the planned half-width in rooms of 30 and 200 (k options); where that spans
    half the scale or more the bars would say next to nothing."""
    (low, high), where = activity.share_precision(lambda n: planned_half_width(n, epsilon, k))
    small, large = activity.ROOMS
    said = (
        f"Each share of a {k}-option question will be known to within {low} from {small:,} "
        f"answers and {high} from {large:,} (95%, at most)"
    )
    if where:
        said += f": in {where} the bars would say next to nothing (a larger ε sharpens them)"
    return said + "."


def failed_taps(quiz_id: int, position: int) -> activity.SessionValue[int]:
    """How many of this browser's taps on a question were not stored (a database fault, the
    taps' limit): the private component draws again when it changes, so that its button
    comes back as soon as the store does."""
    return Value(f"quiz_failed_taps_{quiz_id}_{position}")


def kept_score(quiz_id: int) -> activity.SessionValue[tuple[int, int]]:
    """(correct, answered) at the end, read once."""
    return Value(f"quiz_own_score_{quiz_id}")


def join_url(base_url: str, code: str) -> str:
    """The link students open: …/class-quiz?join=CODE."""
    return activity.join_url(base_url, URL_PATH, code)


# --- private mode --------------------------------------------------------------------------------
def keep_probability(k: int, epsilon: float) -> float:
    """The chance a phone sends its student's own choice: e^ε/(e^ε + k − 1). The phone
    draws in the browser (ui/private_choice.py); the server never randomizes."""
    return dp.grr_probabilities(epsilon, k)[0]


@dataclass(frozen=True)
class Results:
    """One question's answers as the projector shows them."""

    frame: pd.DataFrame  # letter, option, sent, sent_share, estimate, low, high, correct
    n: int
    private: bool
    half_width: float  # private: the 95% interval's half-width of a share (largest option)
    pull: float  # private: how far, at most, a raw share sits from the class's (expected)


def results(question: survey.QuizQuestion, counts: list[int], epsilon: float | None) -> Results:
    """Raw shares of what was sent, and in private mode the debiased estimate of each
    option's share (dp.grr_estimate_from_counts, projected onto shares that add up to 100%:
    dp.project_counts) with a 95% interval from dp.grr_variance, cut to 0–100%."""
    k = len(question.options)
    sent = np.asarray(counts, dtype=float)
    n = int(sent.sum())
    share = sent / n if n else np.zeros(k)
    if epsilon is None or n == 0:
        estimate, low, high = share, share, share
        half, pull = 0.0, 0.0
    else:
        # The unbiased estimate can leave [0, 1] and need not add up to 100% once cut at 0
        # (two answers once showed A 79%, B 0%, C 79%): the projector shows its Euclidean
        # projection onto the shares that are ≥ 0 and add up to 1 (dp.project_counts, the
        # k-ary lesson's post-processing; it costs no privacy).
        estimate = dp.project_counts(dp.grr_estimate_from_counts(sent, epsilon), n) / n
        shown = estimate
        sd = np.array([math.sqrt(dp.grr_variance(n, epsilon, k, float(f))) / n for f in shown])
        low, high = np.clip(estimate - Z95 * sd, 0, 1), np.clip(estimate + Z95 * sd, 0, 1)
        half = float(Z95 * sd.max())
        p, q = dp.grr_probabilities(epsilon, k)
        # E[sent share of v] = f p + (1 − f) q: the raw share is pulled toward q / (1 − p + q)
        pull = float(np.max(np.abs(shown * p + (1 - shown) * q - shown)))
    frame = pd.DataFrame(
        {
            "letter": list(LETTERS[:k]),
            "option": list(question.options),
            "sent": sent.astype(int),
            "sent_share": share,
            "estimate": np.clip(estimate, 0.0, 1.0),
            "low": low,
            "high": high,
            "correct": [i == question.correct for i in range(k)],
        }
    )
    return Results(frame, n, epsilon is not None, half, pull)


def describe(result: Results, question: survey.QuizQuestion) -> str:
    """Alt text of the results chart, with the numbers."""
    right = LETTERS[question.correct]
    if result.n == 0:
        return "No answers yet: the bars are all at 0%."
    column = "estimate" if result.private else "sent_share"
    parts = [
        f"{row.letter} {text.percent(getattr(row, column))}" for row in result.frame.itertuples()
    ]
    head = (
        f"Bars of the estimated share of the class choosing each option, from {result.n:,} "
        "randomized answers"
        if result.private
        else f"Bars of the share of {result.n:,} answers for each option"
    )
    return f"{head}: {', '.join(parts)}. The correct answer is {right}."


def share_correct(result: Results, question: survey.QuizQuestion) -> tuple[float, float, float]:
    row = result.frame.iloc[question.correct]
    if result.private:
        return float(row["estimate"]), float(row["low"]), float(row["high"])
    return float(row["sent_share"]), float(row["sent_share"]), float(row["sent_share"])


def summary(quiz: survey.Quiz, counts: dict[int, list[int]]) -> pd.DataFrame:
    """Per question: answers, and the share correct (private: estimated, with its 95%
    interval)."""
    rows = []
    for i, question in enumerate(quiz.questions):
        result = results(question, counts.get(i, [0] * len(question.options)), quiz.epsilon)
        value, low, high = share_correct(result, question)
        rows.append(
            {
                "question": i + 1,
                "answers": result.n,
                "correct": LETTERS[question.correct],
                "share correct": text.percent(value) if result.n else "–",
                "95% interval": f"{text.percent(low)}–{text.percent(high)}"
                if result.n and quiz.private
                else "",
                "prompt": question.prompt,  # last: a long prompt never pushes the numbers away
            }
        )
    frame = pd.DataFrame(rows)
    return frame if quiz.private else frame.drop(columns=["95% interval"])


def score_table(scores: list[survey.Score]) -> pd.DataFrame:
    """The best SCORES_SHOWN nicknamed players: rank (equal scores share one: 1, 2, 2, 4),
    nickname (plain text in a table cell) and "correct of answered"."""
    rows, rank = [], 0
    for i, score in enumerate(scores[:SCORES_SHOWN]):
        if i == 0 or (score.correct, score.answered) != (
            scores[i - 1].correct,
            scores[i - 1].answered,
        ):
            rank = i + 1
        rows.append(
            {
                "rank": rank,
                "nickname": score.nickname,
                "correct": f"{score.correct:,} of {score.answered:,}",
            }
        )
    return pd.DataFrame(rows, columns=["rank", "nickname", "correct"]).astype(
        {"rank": int, "nickname": str, "correct": str}
    )


def own_score(quiz: survey.Quiz, sent: dict[int, int]) -> tuple[int, int]:
    """(correct, answered) of one browser's answers, as its phone shows at the end."""
    correct = sum(
        int(option == quiz.questions[position].correct)
        for position, option in sent.items()
        if 0 <= position < len(quiz.questions)
    )
    return correct, len(sent)
