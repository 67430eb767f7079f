"""The restructure changed no page: metrics, captions and chart data at the defaults and at
two other settings per page equal the record made before it (see behaviour.py)."""

import json

import pytest

from behaviour import FIXTURE, page_path, run_page, snapshot

RECORD = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("case", sorted(RECORD))
def test_page_shows_what_it_showed_before_the_restructure(case) -> None:
    lesson = case.split("/")[0]
    expected = RECORD[case]
    got = snapshot(run_page(page_path(lesson), expected["params"]))
    # JSON round trip, so tuples and lists compare alike.
    got = json.loads(json.dumps(got, ensure_ascii=False))
    for part in ("metrics", "captions", "chart_titles", "charts"):
        assert got[part] == expected[part], f"{case}: {part} changed"
