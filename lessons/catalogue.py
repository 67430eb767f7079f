"""The lessons, in teaching order: the only list. app.py builds the navigation from it, Home
lists it, the tests check every entry has its folder and tests.

A lesson is a folder `lessons/<folder>/` (page.py, model.py, charts.py, snippets.py) whose
name is its url_path with "_" for "-"; its tests are tests/lessons/<folder>/test_page_<folder>.py
and test_browser_<folder>.py."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

LESSONS_DIR = Path(__file__).resolve().parent
ROOT = LESSONS_DIR.parent


@dataclass(frozen=True)
class Lesson:
    """One page of the app: its folder under lessons/, title, icon, URL path and section, and
    `main_control`: part of the label of the slider that drives the lesson's main chart (what a
    lecturer moves first; the browser bench presses it), "" for a page without one;
    `prerequisites`: the earlier lessons it builds on."""

    folder: str
    title: str
    icon: str
    url_path: str
    summary: str
    section: str
    main_control: str = ""
    # Folders of the lessons whose terms this one uses (ε, δ, the Laplace or Gaussian
    # mechanism, …): each must come earlier in the catalogue (a test checks it).
    prerequisites: tuple[str, ...] = ()
    # A class activity (ui/activity.py): phones join it at `?join=CODE` and see only its
    # question, without the course's menu; it has no notebook (nothing to compute at home).
    activity: bool = False

    @property
    def file(self) -> str:
        """The page script, relative to lessons/ (e.g. "laplace/page.py")."""
        return f"{self.folder}/page.py"

    @property
    def path(self) -> Path:
        return LESSONS_DIR / self.folder / "page.py"


START = "Start"
WHY = "Why privacy is hard"
CENTRAL = "The central model"
LOCAL = "The local model"
ML = "Machine learning"
CLASSROOM = "In the classroom"

HOME = Lesson("home", "Home", ":material/home:", "home", "What this app teaches.", START)
# Not a lesson: the student's own record, kept in their browser (ui/progress.py). In the
# menu after Home, outside the teaching order (no previous/next links, no notebook).
PROGRESS = Lesson(
    "progress",
    "Your progress",
    ":material/checklist:",
    "progress",
    "Which lessons you have worked through, kept on this device only.",
    START,
)

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "anonymisation",
        "Why anonymisation fails",
        ":material/person_search:",
        "anonymisation",
        "Linkage and differencing attacks on a 'de-identified' census.",
        WHY,
        "Privacy loss ε",
    ),
    Lesson(
        "beyond_k_anonymity",
        "Beyond k-anonymity",
        ":material/diversity_3:",
        "beyond-k-anonymity",
        "A k-anonymous release that still reveals; l-diversity, t-closeness and their limits.",
        WHY,
        "Ages in bands of",
    ),
    Lesson(
        "reconstruction",
        "Reconstruction attacks",
        ":material/grid_on:",
        "reconstruction",
        "From a block's published tables back to its people; noise against the attack.",
        WHY,
        "Privacy loss ε",
    ),
    Lesson(
        "definition",
        "The definition",
        ":material/functions:",
        "definition",
        "Neighbouring datasets, the bound on one person's influence, what an attacker learns.",
        CENTRAL,
        "Privacy loss ε",
    ),
    Lesson(
        "laplace",
        "The Laplace mechanism",
        ":material/bar_chart:",
        "laplace",
        "Noisy answers versus ε, and the malicious query.",
        CENTRAL,
        "Privacy loss ε",
    ),
    Lesson(
        "clamping",
        "Sensitivity and clamping",
        ":material/vertical_align_center:",
        "clamping",
        "Sums and means: clamp bounds, bias against noise, and whose data is protected.",
        CENTRAL,
        "Clamp window",
    ),
    Lesson(
        "composition",
        "Composition and the budget",
        ":material/account_balance_wallet:",
        "composition",
        "Sequential and parallel composition, averaging attacks, group privacy.",
        CENTRAL,
        "Total budget ε",
    ),
    Lesson(
        "approximate_dp",
        "Approximate DP",
        ":material/blur_on:",
        "approximate-dp",
        "δ, Gaussian noise and its privacy loss, zCDP, and real deployments' numbers.",
        CENTRAL,
        "Privacy loss ε",
    ),
    Lesson(
        "renyi",
        "Rényi DP and the accountants",
        ":material/stacked_line_chart:",
        "renyi",
        "Privacy as a curve: Rényi divergence, composition by addition, and four accountants.",
        CENTRAL,
        "Order α",
        ("definition", "composition", "approximate_dp"),
    ),
    Lesson(
        "membership",
        "Membership inference",
        ":material/fingerprint:",
        "membership",
        "Tracing a person from a study's averages, noise against it, and auditing ε.",
        CENTRAL,
        "Privacy loss ε",
        # ε and δ, Laplace and Gaussian noise, Δ₁ and Δ₂, the privacy region, auditing
        ("definition", "laplace", "clamping", "approximate_dp"),
    ),
    Lesson(
        "choosing",
        "Choosing privately",
        ":material/how_to_reg:",
        "choosing",
        "Report noisy max, the exponential mechanism, a private median and clamp bound.",
        CENTRAL,
        "Privacy loss ε",
    ),
    Lesson(
        "group_by",
        "DP group-by",
        ":material/group_work:",
        "group-by",
        "One person, many rows: user-level bounds, bias against noise, which groups may appear.",
        CENTRAL,
        "Privacy loss ε",
        # event and user level, clamping's trade-off, δ, composition, a private quantile
        ("clamping", "composition", "approximate_dp", "choosing"),
    ),
    Lesson(
        "uncertainty",
        "Uncertainty in DP answers",
        ":material/straighten:",
        "uncertainty",
        "Sampling error and noise together, how often intervals hold, biases none show.",
        CENTRAL,
        "Privacy loss ε",
        # the Laplace mechanism and its interval, clamping, post-processing
        ("laplace", "clamping", "group_by"),
    ),
    Lesson(
        "epsilon_meaning",
        "What ε means in practice",
        ":material/speed:",
        "epsilon-meaning",
        "ε as odds and as an attack's ceiling, what deployments chose, splitting a budget.",
        CENTRAL,
        "Privacy loss ε",
        # the definition's posterior bound, the membership audit, zCDP's ρ, composition
        ("definition", "composition", "approximate_dp", "membership"),
    ),
    Lesson(
        "census_topdown",
        "The 2020 Census in miniature",
        ":material/account_tree:",
        "census-topdown",
        "TopDown on the census: noise at every level, a consistent table, who pays.",
        CENTRAL,
        "Total ρ",
        # the census's attack, zCDP and its conversion, post-processing's biases
        ("reconstruction", "approximate_dp", "uncertainty", "epsilon_meaning"),
    ),
    Lesson(
        "beyond_global",
        "Beyond global sensitivity",
        ":material/zoom_in:",
        "beyond-global",
        "Local and smooth sensitivity of a median, propose-test-release, sample-and-aggregate.",
        CENTRAL,
        "Privacy loss ε",
        ("laplace", "choosing"),  # global sensitivity, the exponential mechanism
    ),
    Lesson(
        "sparse_vector",
        "The sparse vector technique",
        ":material/filter_alt:",
        "sparse-vector",
        "Pay only for the questions that pass a threshold; the broken versions, audited.",
        CENTRAL,
        "Privacy loss ε",
        ("laplace", "choosing"),  # Laplace noise, noisy max
    ),
    Lesson(
        "counting_over_time",
        "Counting over time",
        ":material/timeline:",
        "counting-over-time",
        "A running count every day: noisy increments, recomputing, and the binary tree.",
        CENTRAL,
        "Privacy loss ε",
        # Laplace noise, sequential composition, post-processing, the deployments' table
        ("laplace", "composition", "epsilon_meaning"),
    ),
    Lesson(
        "synthetic",
        "Synthetic data",
        ":material/dataset:",
        "synthetic",
        "MWEM against the naive synthesizer, and what synthetic data cannot do.",
        CENTRAL,
        "Privacy loss ε",
        ("composition", "choosing"),  # MWEM: the exponential mechanism, ε split over rounds
    ),
    Lesson(
        "floating_point",
        "When code breaks the proof",
        ":material/bug_report:",
        "floating-point",
        "Floating-point Laplace names its input; snapping and discrete noise; other leaks.",
        CENTRAL,
        "Privacy loss ε",
        # the definition's ratio, Laplace noise, clamping's bounds, a private bound
        ("definition", "laplace", "clamping", "choosing"),
    ),
    Lesson(
        "holdout",
        "The reusable holdout",
        ":material/published_with_changes:",
        "holdout",
        "DP beyond people: overfitting a holdout by reusing it, and Thresholdout.",
        CENTRAL,
        "Features in the classifier",
        # Laplace noise, the sparse vector technique's threshold test
        ("laplace", "sparse_vector"),
    ),
    Lesson(
        "coin_flip",
        "Coin-flip randomized response",
        ":material/toll:",
        "coin-flip",
        "Two coins give every respondent deniability.",
        LOCAL,
        "h: coin 1",
    ),
    Lesson(
        "binary_rr",
        "Binary RR with any p and q",
        ":material/tune:",
        "binary-rr",
        "Any keep-probabilities p and q, and the ε they buy. (GRR is the k-ary lesson.)",
        LOCAL,
        "p: keep a true yes",
    ),
    Lesson(
        "kary_rr",
        "k-ary randomized response",
        ":material/category:",
        "kary-rr",
        "Randomized response over k categories, and post-processing.",
        LOCAL,
        "Privacy loss ε",
    ),
    Lesson(
        "unary_encoding",
        "Unary encoding",
        ":material/view_week:",
        "unary-encoding",
        "One-hot bits, RAPPOR-style histograms, SUE versus OUE.",
        LOCAL,
        "p: report a 1-bit",
    ),
    Lesson(
        "large_domains",
        "Large domains and shuffling",
        ":material/scatter_plot:",
        "large-domains",
        "Local hashing for a huge domain, what Apple and Google deployed, and shuffling.",
        LOCAL,
        "Privacy loss ε",
        ("kary_rr", "unary_encoding"),  # GRR against OUE
    ),
    Lesson(
        "central_vs_local",
        "Central versus local",
        ":material/compare_arrows:",
        "central-vs-local",
        "How much accuracy the local model costs.",
        LOCAL,
        "Privacy loss ε",
    ),
    Lesson(
        "private_ml",
        "Privatized data for ML",
        ":material/model_training:",
        "private-ml",
        "An income classifier trained on locally privatized records: accuracy, fairness.",
        ML,
        "Privacy loss ε",
    ),
    Lesson(
        "private_erm",
        "Private ERM",
        ":material/functions:",
        "private-erm",
        "A minimiser's sensitivity; output and objective perturbation against DP-SGD.",
        ML,
        "Privacy loss ε",
        ("laplace", "approximate_dp", "private_ml"),  # Laplace noise, (ε, δ), a private model
    ),
    Lesson(
        "dpsgd",
        "Private training with DP-SGD",
        ":material/neurology:",
        "dpsgd",
        "Clipping and noise in each step, the accountant's ε, and a membership attack.",
        ML,
        "Noise multiplier σ  (larger → more private)",
        (
            "approximate_dp",
            "membership",
            "private_ml",
        ),  # the Gaussian mechanism, the attack, the RR model
    ),
    Lesson(
        "subsampling",
        "Subsampling and DP as a test",
        ":material/query_stats:",
        "subsampling",
        "Amplification by sampling, trade-off curves and Gaussian DP, DP-SGD's accounting.",
        ML,
        "Privacy loss ε of the mechanism",
        # (ε, δ) and the Gaussian mechanism, the tracing attack, DP-SGD's schedule
        ("approximate_dp", "membership", "dpsgd"),
    ),
    Lesson(
        "who_pays",
        "Who pays for privacy",
        ":material/balance:",
        "who-pays",
        "The same ε costs small groups most: counts, a private model's accuracy, clipping.",
        ML,
        "Privacy loss ε",
        # Laplace noise on counts, typical error, the private ERM model, DP-SGD's clipping
        ("laplace", "uncertainty", "private_erm", "dpsgd"),
    ),
    Lesson(
        "class_survey",
        "Class survey",
        ":material/how_to_vote:",
        "class-survey",
        "Run randomized response on your class: phones answer, the projector estimates.",
        CLASSROOM,
        activity=True,
    ),
    Lesson(
        "class_quiz",
        "Class quiz",
        ":material/quiz:",
        "class-quiz",
        "The lessons' questions live on phones, one at a time; private mode randomizes them.",
        CLASSROOM,
        activity=True,
    ),
    Lesson(
        "class_heist",
        "Class heist",
        ":material/policy:",
        "class-heist",
        "A differencing attack on the room's made-up answers, then Laplace noise and a budget.",
        CLASSROOM,
        activity=True,
    ),
    Lesson(
        "class_game",
        "The ε guessing game",
        ":material/casino:",
        "class-game",
        "With or without a volunteer? The room guesses, and proves a lower bound on ε.",
        CLASSROOM,
        activity=True,
    ),
    Lesson(
        "class_checkin",
        "Progress check-in",
        ":material/checklist_rtl:",
        "class-checkin",
        "How far has the class got? Phones randomize their own progress; the projector debiases.",
        CLASSROOM,
        activity=True,
    ),
)


# Old URL paths that still work: a link to one opens the lesson that replaced it.
MOVED: dict[str, str] = {"generalized-rr": "binary_rr"}


def by_folder(folder: str) -> Lesson:
    """The lesson in `lessons/<folder>/`."""
    return next(lesson for lesson in all_pages() if lesson.folder == folder)


def all_pages() -> tuple[Lesson, ...]:
    """Home first, then every lesson, in teaching order."""
    return (HOME, *LESSONS)


def neighbours(lesson: Lesson) -> tuple[Lesson | None, Lesson | None]:
    """The lessons before and after `lesson` in teaching order (None at either end)."""
    pages = all_pages()
    i = pages.index(lesson)
    return (pages[i - 1] if i > 0 else None, pages[i + 1] if i + 1 < len(pages) else None)
