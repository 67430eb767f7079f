"""The progress check-in's chart on a phone-sized window (390×844, a lecturer with the
private link on a phone) and the projector (1280×720, presenter mode): no text of the chart
runs past its edge, is written over another or crossed by one of its lines. Finding: on a
phone the lessons' names leave the plot about 100 px, and the x axis's title, centred under
it, ran past the chart's right edge ("… (estimate, 95% in")."""

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

URL_PATH = lesson_url("class_checkin/page.py")
LESSONS = ["laplace", "composition", "renyi", "census_topdown", "who_pays"]
DRAWN = """() => document.querySelectorAll('[data-testid=stVegaLiteChart] svg').length > 0"""


@pytest.mark.parametrize("screen", ["presenter", "phone"])
def test_no_text_of_the_chart_runs_out_or_is_crossed(
    another_device: Callable[..., Page], app_server: str, screen: str
) -> None:
    checkins = survey.CheckinStore(
        survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}")
    )
    made = checkins.create(LESSONS, 2.0)
    rng = np.random.default_rng(0)
    for _ in range(30):
        bits = "".join(rng.choice(["0", "1"], len(LESSONS)))
        checkins.submit(made.checkin.id, survey.new_session_token(), bits)
    page = another_device(viewport=PROJECTOR if screen == "presenter" else PHONE)
    link = f"{URL_PATH}?manage={made.checkin.code}&key={made.admin_key}"
    open_page(page, app_server, link + ("&present=true" if screen == "presenter" else ""))
    page.wait_for_function(DRAWN)
    found = chart_text_problems(page)
    assert_no_exception(page)
    assert not found, "\n".join(found)
