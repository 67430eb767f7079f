"""The page list, in teaching order: one place that app.py, Home and the tests read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Lesson:
    """One page of the app: its file under lessons/, its title, icon and URL path."""

    file: str
    title: str
    icon: str
    url_path: str
    summary: str
    section: str

    @property
    def path(self) -> Path:
        return ROOT / "lessons" / self.file


HOME = Lesson("home.py", "Home", ":material/home:", "home", "What this app teaches.", "Start")

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "anonymisation.py",
        "Why anonymisation fails",
        ":material/person_search:",
        "anonymisation",
        "Linkage and differencing attacks on a 'de-identified' census.",
        "The central model",
    ),
    Lesson(
        "definition.py",
        "The definition",
        ":material/functions:",
        "definition",
        "Neighbouring datasets, the bound on one person's influence, what an attacker learns.",
        "The central model",
    ),
    Lesson(
        "laplace.py",
        "The Laplace mechanism",
        ":material/bar_chart:",
        "laplace",
        "Noisy answers versus ε, and the malicious query.",
        "The central model",
    ),
    Lesson(
        "composition.py",
        "Composition and the budget",
        ":material/account_balance_wallet:",
        "composition",
        "Sequential and parallel composition, averaging attacks, group privacy.",
        "The central model",
    ),
    Lesson(
        "coin_flip.py",
        "Coin-flip randomized response",
        ":material/toll:",
        "coin-flip",
        "Two coins give every respondent deniability.",
        "The local model",
    ),
    Lesson(
        "generalized_rr.py",
        "Generalized randomized response",
        ":material/tune:",
        "generalized-rr",
        "Any keep-probabilities p and q, and the ε they buy.",
        "The local model",
    ),
    Lesson(
        "kary_rr.py",
        "k-ary randomized response",
        ":material/category:",
        "kary-rr",
        "Randomized response over k categories, and post-processing.",
        "The local model",
    ),
    Lesson(
        "unary_encoding.py",
        "Unary encoding",
        ":material/view_week:",
        "unary-encoding",
        "One-hot bits, RAPPOR-style histograms, SUE versus OUE.",
        "The local model",
    ),
    Lesson(
        "central_vs_local.py",
        "Central versus local",
        ":material/compare_arrows:",
        "central-vs-local",
        "How much accuracy the local model costs.",
        "The local model",
    ),
    Lesson(
        "class_survey.py",
        "Class survey",
        ":material/how_to_vote:",
        "class-survey",
        "Run randomized response on your class: phones answer, the projector estimates.",
        "In the classroom",
    ),
)


def available_lessons() -> tuple[Lesson, ...]:
    """Lessons whose page file exists (all of them once every lesson has landed)."""
    return tuple(lesson for lesson in LESSONS if lesson.path.exists())


def all_pages() -> tuple[Lesson, ...]:
    """Home first, then every available lesson, in teaching order."""
    return (HOME, *available_lessons())
