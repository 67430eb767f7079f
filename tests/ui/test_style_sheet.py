"""The style sheets app.py and presenter mode load with st.html: Streamlit's frontend passes
st.html through an HTML sanitizer that drops a <style> element whose text holds "<" followed
by a letter or "/" (mutation-XSS protection), so one such comment once silently removed
every rule of ui/style.css (found with a browser: the join link's rules, the formula
padding and the static tables' rules all gone)."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT

SHEETS = sorted((ROOT / "ui").glob("*.css"))


@pytest.mark.parametrize("sheet", SHEETS, ids=[sheet.name for sheet in SHEETS])
def test_a_style_sheet_holds_nothing_a_sanitizer_reads_as_a_tag(sheet) -> None:
    text = sheet.read_text(encoding="utf-8")
    assert not re.search(r"<[/!?a-zA-Z]", text), sheet.name


def test_there_are_style_sheets_to_check() -> None:
    assert {"style.css", "presenter.css"} <= {sheet.name for sheet in SHEETS}
