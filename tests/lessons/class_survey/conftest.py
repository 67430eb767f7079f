"""Every class-survey test starts with empty rate limiters (they are shared by all sessions
of the process, and AppTest sessions all come from the same "local" address)."""

from __future__ import annotations

import pytest

from lessons.class_survey import model


@pytest.fixture(autouse=True)
def fresh_limits():
    model.limiters.clear()
    yield
    model.limiters.clear()
