r"""The randomization protocols a lecturer can pick, with the steps a student follows.

Every protocol is binary randomized response with keep-probabilities
    p = P[report yes | truth yes],   q = P[report no | truth no],
and ε = dp.rr_epsilon(p, q). The numbers come from dp/, never from this file:

- Two fair coins (Warner 1965, as told in Dwork & Roth §3.2): coin 1 heads → answer
  truthfully; tails → coin 2 decides (heads "yes", tails "no").
  dp.coin_flip_probabilities(½, ½) = (¾, ¾), ε = ln 3.
- A die: answer truthfully unless it shows a 1, then say the opposite. The truth is kept
  with probability 5/6 either way: p = q = 5/6, ε = ln(5/6 ÷ 1/6) = ln 5.
- Custom p and q (multiples of 1/100): a student draws a whole number from 1 to 100 off
  this app (two ten-sided dice, a random-number app) and compares it to 100p or 100q.

The random draw always happens on the student's side, away from the server: the app never
learns the coin, the die or the number, so it cannot undo the randomization.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import dp

TWO_COINS = "coins"
DIE = "die"
CUSTOM = "custom"
PROTOCOL_KEYS = (TWO_COINS, DIE, CUSTOM)

DIE_FACES = 6
PERCENT = 100


@dataclass(frozen=True)
class Protocol:
    """One randomization protocol: its name, keep-probabilities, ε and student steps."""

    key: str
    name: str
    p: float
    q: float
    epsilon: float
    steps: tuple[str, ...]

    @property
    def likelihood_ratio_bound(self) -> float:
        """e^ε: how many times more likely any report is under one true answer than under
        the other, at most (3 for two coins, 5 for the die)."""
        return math.exp(self.epsilon)

    @property
    def summary(self) -> str:
        return f"{self.name}: p = {self.p:.3g}, q = {self.q:.3g}, ε = {self.epsilon:.3f}"


def two_coins() -> Protocol:
    """Two fair coins: p = q = ¾, ε = ln 3."""
    p, q = dp.coin_flip_probabilities(honest=0.5, yes=0.5)
    return Protocol(
        TWO_COINS,
        "Two coins",
        p,
        q,
        dp.rr_epsilon(p, q),
        (
            "Think of your true answer. Keep it in your head: do not type it or tell anyone.",
            "Flip a coin where nobody can see it.",
            "**Heads:** report your true answer.",
            "**Tails:** flip the coin again. Heads → report **Yes**. Tails → report **No**.",
        ),
    )


def die() -> Protocol:
    """A die: truthful unless it shows a 1 (then the opposite): p = q = 5/6, ε = ln 5."""
    p = q = (DIE_FACES - 1) / DIE_FACES
    return Protocol(
        DIE,
        "One die",
        p,
        q,
        dp.rr_epsilon(p, q),
        (
            "Think of your true answer. Keep it in your head: do not type it or tell anyone.",
            "Roll a die where nobody can see it.",
            "**It shows 2, 3, 4, 5 or 6:** report your true answer.",
            "**It shows 1:** report the opposite of your true answer.",
        ),
    )


def custom(p: float, q: float) -> Protocol:
    """Custom keep-probabilities, rounded to whole percent so a student can act them out
    with a number from 1 to 100. Raises ValueError if p or q is 0 or 1 (infinite ε) or
    p + q = 1 (the reports carry no information)."""
    p_pct, q_pct = percent(p, "p"), percent(q, "q")
    for name, pct in (("p", p_pct), ("q", q_pct)):
        if not 0 < pct < PERCENT:
            raise ValueError(
                f"{name} must lie strictly between 0 and 1 (got {pct / PERCENT:g}): at 0 or 1 "
                "some reports give a person's true answer away (ε is infinite)"
            )
    p, q = p_pct / PERCENT, q_pct / PERCENT
    epsilon = dp.rr_epsilon(p, q)
    dp.estimate_proportion_from_counts(0, 1, p, q)  # raises ValueError when p + q = 1
    return Protocol(
        CUSTOM,
        "Custom p and q",
        p,
        q,
        epsilon,
        (
            "Think of your true answer. Keep it in your head: do not type it or tell anyone.",
            "Draw a whole number from 1 to 100 where nobody can see it: roll two ten-sided "
            "dice, or use a random-number app on your phone (not this page).",
            f"**Your true answer is Yes:** report **Yes** if your number is {p_pct} or "
            f"less, otherwise report **No**.",
            f"**Your true answer is No:** report **No** if your number is {q_pct} or "
            f"less, otherwise report **Yes**.",
        ),
    )


def percent(probability: float, name: str) -> int:
    """A probability as a whole percent 0..100 (ValueError outside [0, 1])."""
    probability = float(probability)
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {probability:g}")
    return round(probability * PERCENT)


def protocol_for(key: str, p: float | None = None, q: float | None = None) -> Protocol:
    """The protocol stored under `key` ('coins', 'die' or 'custom' with its p and q)."""
    if key == TWO_COINS:
        return two_coins()
    if key == DIE:
        return die()
    if key == CUSTOM:
        if p is None or q is None:
            raise ValueError("a custom protocol needs p and q")
        return custom(p, q)
    raise ValueError(f"protocol must be one of {PROTOCOL_KEYS}, got {key!r}")
