"""The ε guessing game's own parts: its names (URL, session state, limits), the room's guess
in each round and the rates they give, the best any guesser can do at ε, and the ε the
room has proven (Clopper–Pearson, dp.epsilon_lower_bound, as in the membership lesson).
Storage is survey/game.py; the machine it runs on is ui/activity.py.

Why the room's guess is one majority vote a round: every phone sees the same release, so
thirty guesses of one round are not thirty independent trials of the mechanism, and
Clopper–Pearson needs independent trials. The rounds are independent (a fresh coin and fresh
noise each), so the room's audit counts one guess a round; each phone's own guesses are an
audit of their own, shown only to that phone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
import survey
from ui import activity, datasets, text

URL_PATH = "class-game"
POLL_S = 2
TAPS_PER_MINUTE = 30
TAP_LIMIT = "game-tap/token"
SCORES_SHOWN = 10
EPSILONS: tuple[float, ...] = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0)
ROUNDS: tuple[int, ...] = (10, 20, 30, 40)
DEFAULT_ROUNDS = 20
CONFIDENCE = 0.95
REGION_POINTS = 101

ACTIVITY = activity.Activity(
    "game",
    "The ε guessing game",
    URL_PATH,
    no_key_message="To run a game, open your private lecturer link in this browser. Students "
    "join with the link or the code on the projector.",
    power="Anyone with this link can run this game. Keep it to yourself.",
    new_label="New game",
    new_help="This browser comes back to this game until you start a new one; your private "
    "link still opens it.",
    running=lambda game: not game.finished,
)

Value = activity.SessionValue
LECTURER_FAULT: Value[tuple] = Value("game_lecturer_fault")
NICKNAME_INPUT: Value[str] = ACTIVITY.nickname_input


def outcome(game_id: int, position: int) -> activity.SessionValue[str]:
    """What became of this browser's last tap in a round (a SubmitResult's value)."""
    return Value(f"game_outcome_{game_id}_{position}")


def guessed(game_id: int, position: int) -> activity.SessionValue[bool]:
    """This browser's guess in a round, once stored (it never changes)."""
    return Value(f"game_guessed_{game_id}_{position}")


def join_url(base: str, code: str) -> str:
    return activity.join_url(base, URL_PATH, code)


def side(with_record: bool) -> str:
    return "with" if with_record else "without"


def room_guess(tally: survey.Tally | None) -> bool | None:
    """The room's guess in a round: "with" when more phones said "with" than "without";
    a tie says "without"; None when no phone guessed (the round does not count)."""
    if tally is None or tally.n == 0:
        return None
    return tally.with_record > tally.without


@dataclass(frozen=True)
class Rates:
    """The room's audit over the revealed rounds it guessed: true positives among the rounds
    with the record, false positives among those without."""

    true_positives: int
    positives: int
    false_positives: int
    negatives: int
    looks: int = 1  # how many times the projector computes the bound in the game (its rounds)

    @property
    def played(self) -> int:
        return self.positives + self.negatives

    @property
    def right(self) -> int:
        return self.true_positives + self.negatives - self.false_positives

    @property
    def tpr(self) -> float | None:
        return self.true_positives / self.positives if self.positives else None

    @property
    def fpr(self) -> float | None:
        return self.false_positives / self.negatives if self.negatives else None

    def proven(self) -> float | None:
        """The ε the room has proven with 95% confidence over the whole game (Clopper–Pearson
        on both rates at `looks_confidence(looks)`); None until there is a round of each
        kind."""
        if not (self.positives and self.negatives):
            return None
        return dp.epsilon_lower_bound(
            self.true_positives,
            self.positives,
            self.false_positives,
            self.negatives,
            confidence=looks_confidence(self.looks),
        )


def looks_confidence(looks: int) -> float:
    """The confidence of each bound when the projector computes one after every reveal, up
    to `looks` times in a game: 1 − 5%/looks, so that by the union bound all of them hold
    together with 95% confidence. (One 95% bound recomputed after each of 40 rounds came out
    above the promised ε in about 1% of games at ε = 0.1: each look is another chance.)"""
    return 1.0 - (1.0 - CONFIDENCE) / max(int(looks), 1)


def done_rounds(game: survey.Game) -> int:
    """How many rounds are revealed (the one on show counts once revealed)."""
    return min(game.position + (1 if game.revealed else 0), game.rounds)


def room_rates(
    game: survey.Game, rounds: list[survey.Round], tallies: dict[int, survey.Tally]
) -> Rates:
    """The room's rates over the revealed rounds (a round nobody guessed is left out)."""
    tp = positives = fp = negatives = 0
    for found in rounds[: done_rounds(game)]:
        guess = room_guess(tallies.get(found.position))
        if guess is None:
            continue
        if found.with_record:
            positives += 1
            tp += int(guess)
        else:
            negatives += 1
            fp += int(guess)
    return Rates(tp, positives, fp, negatives, looks=game.rounds)


def best_rates(epsilon: float) -> tuple[float, float]:
    """(TPR, FPR) of the best test of "with" against "without": guess "with" when the
    release is at least the count with the record. With K discrete Laplace,
    P[K ≥ 0] = 1/(1 + e^(−ε)) and P[K ≥ 1] = e^(−ε)/(1 + e^(−ε)); their ratio is e^ε and
    so is (1 − FPR)/(1 − TPR): the corner of the ε privacy region. Its accuracy on fair
    coins is 1/(1 + e^(−ε))."""
    a = math.exp(-epsilon)
    return 1.0 / (1.0 + a), a / (1.0 + a)


@datasets.cached(census_only=True, max_entries=16)
def region_frame(epsilon: float) -> pd.DataFrame:
    """The edge of the ε privacy region (dp.tpr_bound), the chart's "region" dataset."""
    grid = np.linspace(0.0, 1.0, REGION_POINTS)
    return pd.DataFrame({"fpr": grid, "tpr": dp.tpr_bound(grid, epsilon)})


def proven_frame(proven: float | None) -> pd.DataFrame:
    """The edge of the region at the proven ε (none yet, or 0: the diagonal)."""
    grid = np.linspace(0.0, 1.0, REGION_POINTS)
    if proven is None or proven == 0.0 or not math.isfinite(proven):
        return pd.DataFrame({"fpr": grid, "tpr": grid})
    return pd.DataFrame({"fpr": grid, "tpr": dp.tpr_bound(grid, proven)})


POINT_NAMES = ("the room", "the best possible guesser")


def points_frame(rates: Rates, epsilon: float) -> pd.DataFrame:
    """The room's (FPR, TPR) and the best test's: the chart's "points" (always two rows)."""
    best_tpr, best_fpr = best_rates(epsilon)
    return pd.DataFrame(
        {
            "what": list(POINT_NAMES),
            "fpr": [rates.fpr if rates.fpr is not None else np.nan, best_fpr],
            "tpr": [rates.tpr if rates.tpr is not None else np.nan, best_tpr],
        }
    )


def provable(positives: int, negatives: int, looks: int = 1) -> float:
    """The most a room could prove with this many rounds of each kind: right every time
    (Clopper–Pearson, corrected for `looks` as `Rates.proven`). With 5 and 5 even that is 0."""
    return dp.epsilon_lower_bound(
        positives, positives, 0, negatives, confidence=looks_confidence(looks)
    )


def even_split(rounds: int) -> tuple[int, int]:
    """The rounds with and without the record that fair coins give on average."""
    return rounds // 2, rounds - rounds // 2


def headline(rates: Rates, epsilon: float) -> str:
    """The chart's title: the room's score and what it proves, in a few words."""
    if rates.played == 0:
        return f"ε = {text.number(epsilon)} promised · no round revealed yet"
    proven = rates.proven()
    proof = "nothing proven yet" if not proven else f"proven ε ≥ {text.number(proven, 3)}"
    return (
        f"{rates.right:,} of {rates.played:,} right · {proof} · ε = {text.number(epsilon)} promised"
    )


def verdict(rates: Rates, epsilon: float) -> str:
    """The page's sentence on the room's play, from its own numbers."""
    if rates.played == 0:
        return "No round has been guessed and revealed yet."
    best = best_rates(epsilon)[0]
    share = rates.right / rates.played
    proven = rates.proven()
    said = (
        f"The room guessed {rates.right:,} of {rates.played:,} rounds right "
        f"({text.percent(share)}); a coin gets half on average, and the best possible "
        f"guesser {text.percent(best)} at ε = {text.number(epsilon)}."
    )
    if proven is None:
        return said + " The proof needs at least one round with the record and one without."
    looks = (
        f"95% confidence for all {rates.looks:,} looks of the game together"
        if rates.looks > 1
        else "95% confidence"
    )
    if proven == 0.0:
        most = provable(rates.positives, rates.negatives, rates.looks)
        if most == 0.0:
            return (
                said + f" With {rates.positives:,} rounds with the record and "
                f"{rates.negatives:,} without, even a room that is always right proves "
                f"nothing at {looks}: an audit needs enough trials."
            )
        return (
            said + f" So far the room has proven nothing: at {looks}, its guesses "
            "are consistent with ε = 0, a mechanism that reveals nothing (a room always "
            f"right in these rounds would have proven ε ≥ {text.number(most, 3)})."
        )
    if proven > epsilon:
        return (
            said + f" The bound came out at ε ≥ {text.number(proven, 3)}, above the "
            f"ε = {text.number(epsilon)} the mechanism guarantees: no guesser can beat the "
            "guarantee, so this is the rare case the confidence level allows (the room was "
            f"lucky). At {looks} that happens in at most 1 game in 20."
        )
    return (
        said + f" At {looks}, the room has proven ε ≥ {text.number(proven, 3)}; "
        f"the mechanism promises ε = {text.number(epsilon)}, which no guesser can beat."
    )


def describe_chart(rates: Rates, epsilon: float) -> str:
    best_tpr, best_fpr = best_rates(epsilon)
    room = (
        "The room has no point yet."
        if rates.tpr is None or rates.fpr is None
        else f"The room: {text.percent(rates.tpr)} of rounds with the record found, "
        f"{text.percent(rates.fpr)} of rounds without it flagged."
    )
    return (
        f"The ε = {text.number(epsilon)} privacy region: its edge at the promised ε dashed, "
        f"at the ε the room has proven red and dotted. {room} The best possible guesser: "
        f"{text.percent(best_tpr)} found, {text.percent(best_fpr)} flagged."
    )


def own_record(rounds: list[survey.Round], mine: dict[int, bool], done: int) -> tuple[int, int]:
    """(right, guessed) of this phone over the revealed rounds."""
    guessed = [(r, mine[r.position]) for r in rounds[:done] if r.position in mine]
    return sum(int(g == r.with_record) for r, g in guessed), len(guessed)


def score_table(scores: list[survey.Score]) -> pd.DataFrame:
    top = scores[:SCORES_SHOWN]
    return pd.DataFrame(
        {
            "rank": range(1, len(top) + 1),
            "nickname": [s.nickname for s in top],
            "right": [f"{s.correct:,} of {s.answered:,}" for s in top],
        }
    )
