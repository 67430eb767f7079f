"""The class survey's own parts: its names (URL, cookies, session keys), what its lecturer's
browser remembers, and the projector's numbers and chart data. The machine it runs on (the
store, routing, join block, limits, faults) is ui/activity.py, shared with the class quiz."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

import dp
import survey
from ui import activity, text

URL_PATH = "class-survey"
MAX_CHART_POINTS = 300
CHART_HEIGHT = 300  # the plot area, in pixels
PRESENTER_CHART_HEIGHT = 240  # with projector fonts: the chart and the QR fit 1280×720
SUBMITS_PER_MINUTE = 10
TAP_LIMIT = "tap/token"

ACTIVITY = activity.Activity(
    "survey",
    "Class survey",
    URL_PATH,
    no_key_message="To see the results and manage a survey, open your private lecturer link "
    "(it carries the admin key) in this browser. Without it, this page shows nothing. "
    "Students join with the link or the code on the projector.",
    power="Anyone with this link can close, reopen or reset the survey. Open it on another "
    "device to manage the survey from there; keep it to yourself.",
    new_label="Start a new survey",
    new_help="This browser comes back to this survey until you start a new one. The survey "
    "itself stays as it is; your private link still opens it.",
    running=lambda found: found.is_open,
)
# What this browser remembers of the survey it runs: the admin keys this session holds
# (ADMIN_KEYS_KEY), and "CODE.ADMINKEY" of the last one in a cookie (MANAGE_COOKIE).
LECTURER = ACTIVITY.memory
# A press's fault on the projector (a database fault, or a reset another tab made stale),
# told in words above its buttons for FAULT_SHOWN_S (activity.lecturer_press, recent_fault).
LECTURER_FAULT: activity.SessionValue[tuple] = activity.SessionValue("survey_lecturer_fault")
ADMIN_KEYS_KEY, MANAGE_COOKIE = LECTURER.keys, LECTURER.cookie


def outcome(survey_id: int) -> activity.SessionValue[str]:
    """What became of this session's tap on the survey (a SubmitResult's value)."""
    return activity.SessionValue(f"survey_outcome_{survey_id}")


def phone_promise(protocol: survey.Protocol) -> str:
    """What the phone promises its student, with this protocol's numbers: the true answer
    is never asked, and what ε bounds about a report (not that nobody can guess)."""
    return (
        "**This page never asks for your true answer.** You randomize it yourself, with your "
        "own coin or die, and send only the result. With this protocol a true yes is "
        f"reported yes {text.percent(protocol.p)} of the time and a true no reported no "
        f"{text.percent(protocol.q)} of the time, so a report is a hint, never a proof: "
        f"ε = {text.number(protocol.epsilon, 3)} means any report is at most "
        f"{text.number(protocol.likelihood_ratio_bound, 3)} times as likely under one true "
        "answer as under the other, for your lecturer and for this app alike."
    )


def planned_half_width(n: int, protocol: survey.Protocol) -> float:
    """The most the projector's 95% interval can be (± on the share) with n answers:
    1.96 √Var with Var = dp.rr_variance at the true share where it is widest (Var is linear
    in the share: its largest value is at 0 or 1)."""
    z = dp.normal_quantile_two_sided(0.95)
    return max(z * math.sqrt(dp.rr_variance(r, n, protocol.p, protocol.q)) for r in (0.0, 1.0))


def precision_words(protocol: survey.Protocol) -> str:
    """What the protocol buys a room, before the survey is made: the estimate to within ±
    the planned half-width from 30 and 200 answers; where that spans half the scale or
    more, the estimate would say next to nothing."""
    (low, high), where = activity.share_precision(lambda n: planned_half_width(n, protocol))
    small, large = activity.ROOMS
    said = (
        f"The estimate will be known to within {low} from {small:,} answers and {high} from "
        f"{large:,} (95%, at most): the price of randomizing"
    )
    if where:
        said += (
            f"; in {where} it would say next to nothing (p and q further from ½ sharpen it, "
            "and spend more ε)"
        )
    return said + "."


def pull_words(p: float, q: float) -> str:
    """What the coins do to the share of reported yes: E = r(p + q − 1) + 1 − q, so the
    reported share sits (p + q − 1) times as far from the pull point (1 − q)/(2 − p − q) as
    the true share does: toward it when p + q > 1, and across it as well when p + q < 1 (a
    reported yes is then evidence for no)."""
    point = text.percent(dp.rr_pull_point(p, q))
    said = (
        f"(1 − q)/(2 − p − q) = {point} (50% only when p = q), keeping "
        f"{text.percent(abs(p + q - 1))} of the true share's distance from it"
    )
    if p + q > 1:
        return f"The coins pull the dashed line toward {said}; the estimate undoes that pull."
    return (
        f"The coins turn the dashed line over, across {said} on the other side, because with "
        "p + q < 1 a reported yes is evidence for no; the estimate undoes both."
    )


def answered_words(protocol: survey.Protocol) -> str:
    """Under a phone's confirmation: the protocol's numbers, how strong a hint a reported yes
    is (dp.rr_likelihood_ratios: p/(1 − q), which may be less than e^ε when p ≠ q; the box
    below it says what ε bounds), and how to answer again after the lecturer resets the
    survey (a phone does not poll)."""
    yes_ratio, _ = dp.rr_likelihood_ratios(protocol.p, protocol.q, log=False)
    return (
        f"Your protocol keeps a true yes with probability p = {text.number(protocol.p, 3)} "
        f"and a true no with probability q = {text.number(protocol.q, 3)}: privacy loss "
        f"ε = {text.number(protocol.epsilon, 3)}. A reported yes is "
        f"{text.number(yes_ratio, 3)} times as likely from someone whose true answer is yes "
        "as from someone whose true answer is no. If your lecturer resets the survey, "
        "reload this page to answer again."
    )


def join_url(base_url: str, code: str) -> str:
    """The link students open: …/class-survey?join=CODE."""
    return activity.join_url(base_url, URL_PATH, code)


# -- results ---------------------------------------------------------------------------
def responses_csv(responses: list[survey.Response]) -> str:
    """CSV of the randomized responses only: number, reported bit, minute (UTC)."""
    frame = pd.DataFrame(
        {
            "response": [r.number for r in responses],
            "reported_yes": [int(r.reported_yes) for r in responses],
            "minute_utc": [r.submitted_at.strftime("%Y-%m-%d %H:%M") for r in responses],
        }
    )
    return frame.to_csv(index=False)


def reported_bits(responses: list[survey.Response]) -> np.ndarray:
    """The reported bits of a survey's responses, in arrival order."""
    return np.array([r.reported_yes for r in responses], dtype=bool)


def running_frame(reports: np.ndarray, p: float, q: float) -> pd.DataFrame:
    """The estimate and its 95% interval after each response (dp.rr_running_intervals),
    thinned to at most 300 evenly spaced rows (always keeping the last)."""
    run = dp.rr_running_intervals(reports, p, q)
    frame = pd.DataFrame(run)
    if len(frame) > MAX_CHART_POINTS:
        keep = np.unique(np.linspace(0, len(frame) - 1, MAX_CHART_POINTS).round().astype(int))
        frame = frame.iloc[keep]
    return frame


def estimate_data(frame: pd.DataFrame) -> tuple[int, dict[str, pd.DataFrame]]:
    """The x extent (at least 10 responses) and the data of `charts.estimate`: the band,
    and the estimate and the raw reported share as two series."""
    n_max = max(int(frame["n"].max()) if len(frame) else 0, 10)
    long = frame.melt(
        id_vars=["n"],
        value_vars=["estimate", "reported_share"],
        var_name="series",
        value_name="share",
    )
    long["series"] = long["series"].map(
        {"estimate": "debiased estimate", "reported_share": "share reported yes"}
    )
    long["share"] = long["share"].clip(0.0, 1.0)  # drawn at the edge (see clipped_points)
    return n_max, {"band": frame, "lines": long}


def clipped_points(frame: pd.DataFrame) -> int:
    """How many of the drawn estimates lie outside 0–100% (drawn at the edge)."""
    return int(((frame["estimate"] < 0.0) | (frame["estimate"] > 1.0)).sum())


def describe_estimate(n: int, reported_share: float, estimate: float, low: float, high: float):
    """Alt text for the chart, with the current numbers."""
    return (
        f"Line chart over {n:,} responses. The debiased estimate (solid blue line, shaded "
        f"95% interval) is now {text.percent(estimate, 2)}, with the interval from "
        f"{text.percent(low, 2)} to {text.percent(high, 2)}. "
        f"The share of reported yes (dashed orange line) is {text.percent(reported_share, 2)}."
    )
