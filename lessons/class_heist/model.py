"""The class heist's own parts: its names (URL, session state, limits), what the projector
computes from the agency's ledger (the differencing attack's answer, the noisy attack's
estimate and its exact interval), and the words of each query. Storage is survey/heist.py;
the machine it runs on (store, routing, join block, lecturer memory, student token, limits,
faults) is ui/activity.py, shared with the class survey and quiz."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
import survey
from survey import heist as store
from ui import activity, datasets, text

URL_PATH = "class-heist"
POLL_S = 2  # a phone (and the projector's count) asks every POLL_S seconds
TAPS_PER_MINUTE = 20
TAP_LIMIT = "heist-tap/token"
EPSILONS: tuple[float, ...] = (0.1, 0.5, 1.0, 2.0, 5.0)
BUDGETS: tuple[float | None, ...] = (1.0, 2.0, 5.0, 10.0, 50.0, None)
REPEATS: tuple[int, ...] = (1, 10, 100)
CONFIDENCE = 0.95
LEDGER_ROWS = 8  # the projector's ledger: the last few queries (the CSV has them all)
SECRETS = tuple(range(store.SECRET_MIN, store.SECRET_MAX + 1))

ACTIVITY = activity.Activity(
    "heist",
    "Class heist",
    URL_PATH,
    no_key_message="To run a heist, open your private lecturer link in this browser. Students "
    "join with the link or the code on the projector.",
    power="Anyone with this link can run this heist: pick the target and ask the agency. "
    "Keep it to yourself.",
    new_label="New heist",
    new_help="This browser comes back to this heist until you start a new one; your private "
    "link still opens it.",
    running=lambda heist: not heist.closed,
)
LECTURER = ACTIVITY.memory

Value = activity.SessionValue
LECTURER_FAULT: Value[tuple] = Value("heist_lecturer_fault")  # a button that failed
PROBLEM: Value[str] = Value("heist_problem")  # why the lecturer's last move was refused
# (heist id, the stored (ε, budget) the projector's last run showed)
PRIVACY_SEEN: Value[tuple] = Value("heist_privacy_seen")


def outcome(heist_id: int) -> activity.SessionValue[str]:
    """What became of this browser's answer (a SubmitResult's value)."""
    return Value(f"heist_outcome_{heist_id}")


def sent(heist_id: int) -> activity.SessionValue[survey.heist.Answer]:
    """This browser's answer, once stored (it never changes)."""
    return Value(f"heist_sent_{heist_id}")


def target_values(heist_id: int) -> activity.SessionValue[tuple[int, int]]:
    """The target's two values (A, B) once picked, as the projector shows them (never its
    secret): a phone that shares them is in the group the pair reads."""
    return Value(f"heist_target_values_{heist_id}")


def pairs_text(pairs: int, noun: str = "pair") -> str:
    """ "1 pair", "2,000 pairs"."""
    return f"{pairs:,} {noun}{'' if pairs == 1 else 's'}"


def join_url(base: str, code: str) -> str:
    return activity.join_url(base, URL_PATH, code)


def epsilon_label(epsilon: object) -> str:
    """An ε option as the slider writes it (anything else, a forged value: "?")."""
    return text.number(epsilon) if epsilon in EPSILONS else "?"


def budget_choice(index: object) -> str:
    """The budget select box's option `index` in words (a forged value: "?")."""
    return budget_label(BUDGETS[index]) if index in range(len(BUDGETS)) else "?"


def privacy_choice(epsilon: object, index: object) -> tuple[float, float | None] | None:
    """The (ε, budget) the projector's two widgets hold; None when either holds no option
    (an ε tapped off, a forged value)."""
    if epsilon not in EPSILONS or isinstance(index, bool) or index not in range(len(BUDGETS)):
        return None
    return float(epsilon), BUDGETS[index]


def privacy_widgets(epsilon: float, budget: float | None) -> tuple[float | None, int | None]:
    """What the two widgets show for a stored (ε, budget): the option, or none chosen when
    the store holds a value they do not offer (a script's)."""
    return (
        epsilon if epsilon in EPSILONS else None,
        BUDGETS.index(budget) if budget in BUDGETS else None,
    )


def budget_label(budget: float | None) -> str:
    return "no budget" if budget is None else f"ε = {text.number(budget)} in all"


def value_name(heist: survey.Heist, a: int | None, b: int | None) -> str:
    """ "Seat row 3 and Birthday month 5" (plain text: the names are the lecturer's)."""
    parts = []
    if a is not None:
        parts.append(f"{text.plain(heist.a_name)} {a}")
    if b is not None:
        parts.append(f"{text.plain(heist.b_name)} {b}")
    return " and ".join(parts)


def describe(heist: survey.Heist, query: survey.Query) -> str:
    """A query in words, as the ledger writes it."""
    what = "number of people" if query.kind == "count" else "sum of secrets"
    group = value_name(heist, query.a, query.b)
    if query.who == "all":
        who = "everyone"
    elif query.who == "only":
        who = f"those with {group}"
    elif query.who == "except":
        who = f"everyone but {group}"
    else:
        return f"{what}: everyone, minus everyone but {group}"
    return f"{what}: {who}"


def answer_text(query: survey.Query) -> str:
    """What the agency said: the answer, the mean of repeated noisy answers, or why not."""
    if query.refused is not None:
        return f"refused: {query.refused}"
    assert query.total is not None
    if query.repeats == 1:
        return f"{query.total:,}"
    return f"{text.number(query.total / query.repeats, 3)} (mean of {query.repeats:,})"


def ledger_frame(heist: survey.Heist, ledger: list[survey.Query]) -> pd.DataFrame:
    """The ledger as the projector and the CSV show it: one row a query, newest last."""
    return pd.DataFrame(
        {
            "query": [q.id for q in ledger],
            "asked": [describe(heist, q) for q in ledger],
            "noise": [
                "exact" if q.epsilon is None else f"ε = {text.number(q.epsilon)} each"
                for q in ledger
            ],
            "answer": [answer_text(q) for q in ledger],
            "ε spent": [text.number(q.cost) for q in ledger],
        }
    )


@dataclass(frozen=True)
class Attack:
    """What the attacker knows about the target from the ledger: the exact differencing
    answer (None until asked), and from the noisy pairs their mean and its exact interval."""

    exact: int | None
    pairs: int
    estimate: float | None
    half_width: float | None
    spent: float
    group: int = 1  # how many people share the target's two values (the pair reads all)

    @property
    def low(self) -> float | None:
        return None if self.estimate is None else self.estimate - self.half_width

    @property
    def high(self) -> float | None:
        return None if self.estimate is None else self.estimate + self.half_width

    @property
    def possible(self) -> tuple[int, int]:
        """What the group's total can be: 1 to 10 for one person (g to 10g for g people)."""
        return store.SECRET_MIN * self.group, store.SECRET_MAX * self.group

    @property
    def missed(self) -> bool:
        """The 95% interval lies wholly outside what the total can be: one of the runs in
        which it misses, and the attacker can tell (at ε = 0.5 after one pair, about 4%)."""
        if self.estimate is None:
            return False
        least, most = self.possible
        return self.high < least or self.low > most

    def stated(self) -> tuple[float, float] | None:
        """The interval the attacker can state, cut to what the group's total can be; None
        before a noisy pair, and when the interval misses every possible total (cut, it
        would read "between 10 and 10": a certainty that is false)."""
        if self.estimate is None or self.missed:
            return None
        least, most = self.possible
        return max(self.low, least), min(self.high, most)


def claim(found: Attack, what: str, confidence: str = "95%, exact") -> str | None:
    """What the attacker can say about `what` ("the secret", "your group's total") after the
    noisy pairs, as a sentence without its full stop; None before a noisy pair. Three cases:
    an interval that rules values out, one that holds every value the total can take, and
    one that misses them all."""
    if found.estimate is None:
        return None
    least, most = found.possible
    stated = found.stated()
    if stated is None:
        side, edge, end = (
            ("below", least, "least") if found.high < least else ("above", most, "most")
        )
        return (
            f"the attacker's 95% interval, {text.number(found.low, 3)} to "
            f"{text.number(found.high, 3)}, lies wholly {side} {edge:,}, the {end} {what} can "
            "be: one of the runs (at most 5%) in which the interval misses, and the attacker can "
            "tell"
        )
    said = (
        f"the attacker can say: {what} is between {text.number(stated[0], 3)} and "
        f"{text.number(stated[1], 3)} ({confidence})"
    )
    if stated == (least, most):
        said += f"; that is every value {what} can take, so none is ruled out yet"
    return said


def exact_words(answers: int, group: int, min_group: int) -> str:
    """The exact differencing pair, and whether the agency's rule lets it through in this
    room: everyone (`answers` people) and everyone but the target's group must both number
    at least `min_group`."""
    rest = answers - group
    pair = (
        "**1. Exact.** Everyone's sum of secrets, minus that of everyone but the target's group: "
    )
    if min(answers, rest) >= min_group:
        return pair + (
            f"groups of {answers:,} and {rest:,} people, both at least {min_group:,}, so "
            "the agency answers both."
        )
    return pair + (
        f"with {answers:,} answers the second group has {rest:,} "
        f"{'person' if rest == 1 else 'people'}, fewer than the agency's minimum of "
        f"{min_group:,}, so it refuses (a room of {min_group + group:,} would pass). The noisy "
        "pair has no such rule."
    )


def exact_needs(answers: int, min_group: int) -> str | None:
    """While the room answers: what the exact attack will need, when there are too few
    answers for it (everyone but a target alone must be at least `min_group`)."""
    if answers > min_group:
        return None
    return (
        f"The exact attack needs at least {min_group + 1:,} answers: with fewer, everyone but "
        f"the target is a group under the agency's minimum of {min_group:,}, and it refuses."
    )


def attack(
    ledger: list[survey.Query], target: survey.heist.Answer | None, group: int = 1
) -> Attack:
    """The differencing attack on the target, from the ledger's sum pairs about the
    target's group: the exact pair's answer; the noisy pairs' mean S/M, where S is the sum
    of their answers and M how many pairs, and ±w/M with w the exact 95% half-width of the
    sum of their 2M discrete Laplace noises (each with parameter ε/Δ, Δ = 10 for a sum).
    The pair reads everyone who shares the target's values: `group` of them."""
    spent = sum(q.cost for q in ledger)
    if target is None:
        return Attack(None, 0, None, None, spent, group)
    about = [
        q
        for q in ledger
        if q.who == "pair" and q.kind == "sum" and q.refused is None
        if (q.a, q.b) == (target.a, target.b)
    ]
    exact = next((q.total for q in reversed(about) if q.epsilon is None), None)
    noisy = [q for q in about if q.epsilon is not None]
    if not noisy:
        return Attack(exact, 0, None, None, spent, group)
    pairs = sum(q.repeats for q in noisy)
    total = sum(q.total for q in noisy)
    width = half_width(tuple((q.epsilon / store.SENSITIVITY["sum"], 2 * q.repeats) for q in noisy))
    return Attack(exact, pairs, total / pairs, width / pairs, spent, group)


@datasets.cached(census_only=True, max_entries=256)
def half_width(noises: tuple[tuple[float, int], ...]) -> int:
    """dp.discrete_laplace_sum_half_width of these (parameter, how many) noises, once a
    process: the projector's chart recomputes every step of the ledger on every run."""
    return dp.discrete_laplace_sum_half_width(
        [e for e, _ in noises], [n for _, n in noises], confidence=CONFIDENCE
    )


# The chart's fixed y axis: the estimate of a secret 1..10 and its interval, clipped to this;
# an estimate beyond it (a first noisy pair at a small ε) is marked at the edge with its value.
ESTIMATE_DOMAIN = (-60, 70)


def running(
    ledger: list[survey.Query], target: survey.heist.Answer, group: int = 1
) -> pd.DataFrame:
    """The attacker's estimate and interval after each noisy pair query about the target
    (the chart's "running" dataset): pairs so far, estimate, low, high; `beyond` ("above",
    "below" or "") says an estimate lies off the chart's fixed axis, drawn at `edge` with its
    value as `label`."""
    rows = []
    for i in range(len(ledger)):
        step = ledger[i]
        if step.who != "pair" or step.epsilon is None or step.refused is not None:
            continue
        if (step.a, step.b) != (target.a, target.b) or step.kind != "sum":
            continue
        found = attack(ledger[: i + 1], target, group)
        rows.append((found.pairs, found.estimate, found.low, found.high))
    frame = pd.DataFrame(rows, columns=["pairs", "estimate", "low", "high"])
    low, high = ESTIMATE_DOMAIN
    estimate = frame["estimate"].to_numpy(dtype=float)
    beyond = np.where(estimate > high, "above", np.where(estimate < low, "below", ""))
    return frame.assign(
        beyond=beyond,
        edge=np.clip(estimate, low, high),  # where a point beyond the axis is drawn
        label=[
            f"{value:,.0f}".replace("-", "−") if side else ""  # a real minus, as the title's
            for value, side in zip(estimate, beyond, strict=True)
        ],
    )
