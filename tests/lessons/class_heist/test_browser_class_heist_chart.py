"""The heist's chart after a room has asked many noisy pairs, on the projector (1280×720,
presenter mode) and a phone-sized window (390×844): no text of the chart is written over
another or crossed by one of its lines. Finding: "a secret is 1 to 10" stood inside the plot
at its right edge, just above the grey band, and after 2,000 pairs the estimate's line (a
secret of 10) or its interval bars (ε = 0.1) ran through it on a phone; the words are now
the title's subtitle."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from playwright.sync_api import Page

import survey
from browser_helpers import (
    PHONE,
    PROJECTOR,
    assert_no_exception,
    chart_text_problems,
    lesson_url,
    open_page,
)
from conftest import SURVEY_DB_DIR

URL_PATH = lesson_url("class_heist/page.py")
DRAWN = """() => [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg')]
  .some((svg) => svg.textContent.includes("2,000 pairs"))"""


def asked_2000_pairs(epsilon: float, secret: int) -> str:
    """A heist of 12 answers at `epsilon` a query, no budget, whose target's secret is
    `secret`, after 20 presses of × 100: its projector link."""
    heists = survey.HeistStore(survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}"))
    made = heists.create_heist(
        "Heist", "Seat row", 6, "Birth month", 12, epsilon=epsilon, budget=None
    )
    heist_id, key = made.heist.id, made.admin_key
    for i in range(12):  # the fifth volunteers; no two share both values
        mine = secret if i == 4 else 1 + i % 10
        token = survey.new_session_token()
        heists.submit(heist_id, token, mine, 1 + i % 6, 1 + i % 12, volunteer=i == 4)
    rng = np.random.default_rng(7)
    target = heists.pick_target(heist_id, key, rng=rng)
    for _ in range(20):
        heists.ask(
            heist_id, key, "sum", "pair", target.a, target.b, private=True, repeats=100, rng=rng
        )
    return f"{URL_PATH}?manage={made.heist.code}&key={key}"


@pytest.mark.parametrize("screen", ["presenter", "phone"])
def test_no_text_of_the_chart_is_crossed_after_many_pairs(
    another_device: Callable[..., Page], app_server: str, screen: str
) -> None:
    page = another_device(viewport=PROJECTOR if screen == "presenter" else PHONE)
    found = []
    for epsilon, secret in ((0.1, 1), (0.5, 10)):
        link = asked_2000_pairs(epsilon, secret)
        open_page(page, app_server, link + ("&present=true" if screen == "presenter" else ""))
        page.wait_for_function(DRAWN)
        found += [f"ε = {epsilon}: {problem}" for problem in chart_text_problems(page)]
        assert_no_exception(page)
    assert not found, "\n".join(found)
