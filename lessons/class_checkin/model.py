"""The progress check-in's own parts: its names (URL, session state, limits), the phone's
randomizer's probabilities, and the class's estimates with their intervals. Storage is
survey/checkin.py; the phone's randomizer is ui/private_progress.py; the machine it runs on
is ui/activity.py.

Why each bit runs at ε/k, and why not OUE. Optimized unary encoding (dp.oue_probabilities;
Wang et al. 2017) is ε-LDP for *one item out of k*: two students' one-hot vectors differ in
two bits, one 1 → 0 and one 0 → 1, and the two bits' likelihood ratios multiply to e^ε. A
student's progress is a *set* of lessons: two students can differ in every one of the k
bits. OUE's p = 1/2, q = 1/(e^ε + 1) on each bit would spend k·ln((e^ε + 1)/2) (13.3 for
four lessons at ε = 4), not ε. The budget has to be split: each bit gets ε/k, and k bits
compose to ε (exactly: a test enumerates every pair of sets and every report).

With ε/k per bit, the symmetric randomizer (randomized response on each bit),
p = e^(ε/k)/(1 + e^(ε/k)), q = 1 − p, is the one to use: symmetric unary encoding at 2ε/k
(dp.sue_probabilities(2ε/k)), whose bits are each ε/k. OUE's shape at the same ε/k
(p = 1/2, q = e^(−ε/k)/2) has a larger variance at every share of the class, 1.6 times at
ε/k = 1 and more when most of the class has worked through a lesson (its 1s are sent only
half the time); a test compares them.

The estimate of lesson v's count is ĉ_v = (B_v − n q)/(p − q) (dp.ue_estimate_from_counts)
and its 95% interval the course's randomized-response interval for that bit
(dp.rr_confidence_interval with P[1 | 1] = p and P[0 | 0] = 1 − q, on the share, times n).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
import survey
from lessons.catalogue import LESSONS, Lesson
from ui import activity, text

URL_PATH = "class-checkin"
POLL_S = 2  # the projector reads the reports again every POLL_S seconds
TAP_LIMIT, TAPS_PER_MINUTE = "checkin-tap/token", 10
CONFIDENCE = 0.95
EPSILONS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
DEFAULT_EPSILON = 4.0
DEFAULT_LESSONS = 4  # the first lessons of the course, until the lecturer picks others

ACTIVITY = activity.Activity(
    "checkin",
    "Progress check-in",
    URL_PATH,
    no_key_message="To run a progress check-in, open your private lecturer link in this "
    "browser. Students join with the link or the code on the projector.",
    power="Anyone with this link can run this check-in. Keep it to yourself.",
    new_label="New check-in",
    new_help="This browser comes back to this check-in until you start a new one; your "
    "private link still opens it.",
    running=lambda checkin: checkin.is_open,
)

Value = activity.SessionValue
LECTURER_FAULT: Value[tuple] = Value("checkin_lecturer_fault")


def outcome(checkin_id: int) -> activity.SessionValue[str]:
    """What became of this browser's last tap (a SubmitResult's value)."""
    return Value(f"checkin_outcome_{checkin_id}")


def stored(checkin_id: int) -> activity.SessionValue[str]:
    """The bits this browser's report holds, once stored (they never change)."""
    return Value(f"checkin_stored_{checkin_id}")


def failed_taps(checkin_id: int) -> activity.SessionValue[int]:
    """Taps that were not stored (a busy database): each brings the button back."""
    return Value(f"checkin_failed_{checkin_id}")


def join_url(base: str, code: str) -> str:
    return activity.join_url(base, URL_PATH, code)


def choices() -> tuple[Lesson, ...]:
    """The lessons a check-in can ask about: every lesson, none of the class activities."""
    return tuple(lesson for lesson in LESSONS if not lesson.activity)


def lessons_of(folders: tuple[str, ...]) -> list[tuple[str, str, bool]]:
    """(folder, title, has a main control) of a check-in's lessons; a lesson no longer in
    the catalogue keeps its folder name as its title (its bits still count)."""
    known = {lesson.folder: lesson for lesson in choices()}
    return [
        (f, known[f].title, bool(known[f].main_control)) if f in known else (f, f, False)
        for f in folders
    ]


@dataclass(frozen=True)
class Bits:
    """One bit's randomizer: P[1 | worked through] = p, P[1 | not] = q, its own ε."""

    p: float
    q: float
    epsilon: float


def bit_probabilities(epsilon: float, k: int) -> Bits:
    """Randomized response on each of k bits at ε/k, so that a report spends ε: symmetric
    unary encoding at 2ε/k (module docstring)."""
    epsilon = survey.checkin.check_epsilon(epsilon)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= survey.checkin.MAX_LESSONS:
        raise ValueError(f"k must be an int in [1, {survey.checkin.MAX_LESSONS}], got {k!r}")
    p, q = dp.sue_probabilities(2.0 * epsilon / k)
    return Bits(p, q, epsilon / k)


def estimates(reports: survey.Reports, folders: tuple[str, ...], epsilon: float) -> pd.DataFrame:
    """Per lesson: the reports that sent a 1, the debiased estimate of the students who have
    worked through it (unclipped, count scale), and its 95% interval (clipped to 0..n)."""
    k = len(folders)
    titles = [title for _, title, _ in lessons_of(folders)]
    frame = pd.DataFrame({"lesson": titles, "sent": list(reports.ones)})
    if reports.n == 0:
        return frame.assign(estimate=np.nan, low=np.nan, high=np.nan)
    bits = bit_probabilities(epsilon, k)
    frame["estimate"] = dp.ue_estimate_from_counts(
        frame["sent"].to_numpy(), reports.n, bits.p, bits.q
    )
    bounds = [
        dp.rr_confidence_interval(int(ones), reports.n, bits.p, 1.0 - bits.q, level=CONFIDENCE)
        for ones in reports.ones
    ]
    frame["low"] = [low * reports.n for _, low, _ in bounds]
    frame["high"] = [high * reports.n for _, _, high in bounds]
    return frame


def expected_half_width(n: int, epsilon: float, k: int) -> float:
    """The 95% interval's half-width (students) of one lesson's estimate in a room of n:
    z √Var, Var = dp.ue_variance (the same whatever share of the room has done the lesson:
    a symmetric randomizer's variance has no share term)."""
    bits = bit_probabilities(epsilon, k)
    z = dp.normal_quantile_two_sided(CONFIDENCE)
    return z * math.sqrt(dp.ue_variance(n, bits.p, bits.q, 0.0))


def plan_caption(epsilon: float, k: int) -> str:
    """What the chosen ε and lessons mean, before the check-in starts (create page)."""
    bits = bit_probabilities(epsilon, k)
    widths = [expected_half_width(n, epsilon, k) for n in activity.ROOMS]
    pairs = list(zip(widths, activity.ROOMS, strict=True))
    rooms = " and ".join(f"±\u00a0{text.number(w, 2)} of {n:,}" for w, n in pairs)
    where = activity.too_wide_in(widths, activity.ROOMS)  # a count's scale is its room
    return (
        f"Each phone sends one bit per lesson: a lesson worked through is sent as 1 with "
        f"probability {text.percent(bits.p)}, one not worked through with probability "
        f"{text.percent(bits.q)}. Each bit spends ε/k = {text.number(bits.epsilon)}, so the "
        f"report of {k} lesson{'s' if k != 1 else ''} spends ε = {text.number(epsilon)}: the "
        "budget is shared by the lessons, so fewer lessons give each a sharper estimate. "
        f"Each lesson's count will be known to about {rooms} students (95%)"
        + (
            ""
            if not where
            else f": in {where} that interval is as wide as the room, so the estimate would "
            "say next to nothing (fewer lessons or a larger ε sharpen it)"
        )
        + "."
    )


def reveal_caption(epsilon: float, k: int) -> str:
    """What one report reveals, with this check-in's numbers (projector and phone)."""
    bits = bit_probabilities(epsilon, k)
    ratio = bits.p / bits.q
    return (
        f"Each student spent ε = {text.number(epsilon)} on this report "
        f"(ε/k = {text.number(bits.epsilon)} per lesson). Two students whose progress "
        "differs in one lesson send any given report with probabilities at most "
        f"{text.number(ratio)} times apart ($e^{{\\varepsilon/k}}$); whatever their "
        f"progress, at most {text.number(math.exp(epsilon))} times apart "
        f"($e^{{\\varepsilon}}$). {evidence_words(bits)} A later check-in draws a new "
        f"report: two spend 2ε = {text.number(2 * epsilon)} on each student's progress "
        "(composition)."
    )


def evidence_words(bits: Bits) -> str:
    """How much one report says, from the chance each of its bits is the truth (p: a 1 kept
    as 1 and a 0 kept as 0 alike) and the bit's likelihood ratio e^(ε/k) = p/q, read by
    text.evidence: weak evidence, evidence but not proof, or all but the truth (at ε = 16
    and one lesson, p = 99.99999%)."""
    truth = f"Each bit of one report is the truth {text.chance(bits.p)} of the time: "
    strength = text.evidence(bits.p / bits.q)
    if strength == "weak":
        said = "one report alone is weak evidence about any one lesson"
    elif strength == "hint":
        said = "one report is evidence about each lesson, not proof"
    else:
        said = (
            "at this ε one report all but gives away which lessons a student has worked "
            "through (a smaller ε would hide it)"
        )
    return truth + said + "; the class's counts, debiased, are what the check-in is for."


def describe(frame: pd.DataFrame, n: int) -> str:
    """The projector chart's numbers in words (its alt text)."""
    if n == 0:
        return "No reports yet."
    parts = [  # the estimate is unbiased, so it may leave 0..n: said within the room
        f"{row.lesson}: about {min(max(row.estimate, 0), n):,.0f} of {n:,} "
        f"({row.low:,.0f} to {row.high:,.0f})"
        for row in frame.itertuples()
    ]
    return f"Estimated students who worked through each lesson, {n:,} reports. " + "; ".join(parts)
