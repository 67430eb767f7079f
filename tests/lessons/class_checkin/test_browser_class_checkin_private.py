"""The check-in's promise, checked on the wire: a phone randomizes its progress in the browser
and sends only the randomized bits. Each phone is the one tab, as a browser the app has never
seen, given its own progress record; its randomness is pinned (crypto.getRandomValues
returns one chosen word) so that phones with different progress send the same bits. Every
WebSocket frame a phone sends from its tap to "Your report is in" is recorded: equal sent bits
must mean byte-identical frames, whatever the progress behind them (non-interference). The
randomizer as shipped is then drawn 100,000 times in Chromium against unary encoding at the
check-in's p and q (chi-square over the 2^k reports); the same check fails a broken one. A
tap that the busy database did not store is sent again as the same report, after a reload
too."""

from __future__ import annotations

import itertools
import json
import sqlite3

import numpy as np
import pytest
from frames_helpers import component_triggers, normalized
from playwright.sync_api import Page, expect
from scipy import stats

import survey
from browser_helpers import PHONE, lesson_url, open_page
from conftest import SURVEY_DB_DIR, as_a_new_visitor
from lessons.class_checkin import model
from ui import private_choice, private_progress, progress

URL_PATH = lesson_url("class_checkin/page.py")
LESSONS = ["anonymisation", "definition", "binary_rr"]
EPSILON = 4.0
DRAWS = 100_000
P_FLOOR = 1e-6  # a sound randomizer fails the chi-square once in a million runs
PRIVATE_WIDGET = "checkin_private_"  # the component's key (page.key)
# crypto.getRandomValues as the page has it, unless the test pins the words it returns
PINNED_RANDOMNESS = """(() => {
  const real = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (a) => (
    window.__ppWord === undefined ? real(a) : a.fill(window.__ppWord));
})();"""
ALL_ONES, ALL_ZEROS, AS_IS = 0, 0xFFFFFFFF, 0x60000000  # uniform01 = 0, ≈ 1, 0.375


def _entry(done: bool) -> dict:
    return {"opened": True, "moved": done, "homework": False, "asked": 0, "answers": {}}


# Two students: one has worked through the first and last lessons, the other through none.
SOME = {"version": 1, "lessons": {"anonymisation": _entry(True), "binary_rr": _entry(True)}}
NONE = {"version": 1, "lessons": {"anonymisation": _entry(False)}}


def _checkin() -> tuple[survey.CheckinStore, survey.Checkin]:
    store = survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}")
    checkins = survey.CheckinStore(store)
    return checkins, checkins.create(LESSONS, EPSILON).checkin


def _tap(phone: Page, app_server: str, code: str, record: dict, word: int) -> tuple[str, set]:
    """A new phone with `record` taps Send with its randomness pinned to `word`: (the bits it
    sent, the frames its tap sent)."""
    as_a_new_visitor(phone)
    frames: list[bytes | str] = []

    def listen(websocket) -> None:
        websocket.on("framesent", lambda frame: frames.append(frame))

    phone.on("websocket", listen)
    try:
        open_page(phone, app_server, f"{URL_PATH}?join={code}")
        phone.evaluate(
            "([key, record, word]) => {"
            " localStorage.setItem(key, record); window.__ppWord = word; }",
            [progress.STORAGE_KEY, json.dumps(record), word],
        )
        send = phone.get_by_role("button", name="Send my progress, randomized")
        expect(send).to_be_visible(timeout=20_000)
        frames.clear()
        send.click()
        expect(phone.get_by_text("Your report is in.")).to_be_visible(timeout=20_000)
        # the receipt, drawn by the component after the page's text: before it, the list
        # still shows what the phone's record held when the page opened
        expect(phone.get_by_text("Only this phone knows")).to_be_visible()
        items = phone.locator(".pp-checkin li").all_inner_texts()
        sent = "".join(item.strip()[-2] for item in items)  # "… (sent 1)"
        truth = "".join("1" if item.startswith("✓") else "0" for item in items)
        assert truth == ("101" if record is SOME else "000"), items
    finally:
        phone.remove_listener("websocket", listen)
    sent_frames = {normalized(f) for f in frames}
    sent_values = [json.loads(report) for report in component_triggers(frames, PRIVATE_WIDGET)]
    assert sent_values == [[{"event": "sent", "value": sent}]], frames
    return sent, sent_frames


@pytest.mark.budget("six phones join and tap, each a page load as a browser never seen (~3 s)")
def test_equal_sent_bits_send_equal_bytes_whatever_the_progress(
    page: Page, app_server: str
) -> None:
    checkins, checkin = _checkin()
    page.set_viewport_size(PHONE)
    page.add_init_script(PINNED_RANDOMNESS)
    seen = {}
    for record, word in itertools.product((SOME, NONE), (ALL_ONES, ALL_ZEROS, AS_IS)):
        seen[(record is SOME, word)] = _tap(page, app_server, checkin.code, record, word)
    assert seen[(True, ALL_ONES)][0] == seen[(False, ALL_ONES)][0] == "111"
    assert seen[(True, ALL_ZEROS)][0] == seen[(False, ALL_ZEROS)][0] == "000"
    assert (seen[(True, AS_IS)][0], seen[(False, AS_IS)][0]) == ("101", "000")
    # the same bits sent: the same bytes, whatever the progress (and the randomness) behind them
    assert seen[(True, ALL_ONES)][1] == seen[(False, ALL_ONES)][1]
    assert seen[(True, ALL_ZEROS)][1] == seen[(False, ALL_ZEROS)][1] == seen[(False, AS_IS)][1]
    # and the frames do carry what was sent
    assert seen[(True, AS_IS)][1] != seen[(False, AS_IS)][1]
    # the store holds exactly the six reports sent, nothing else of the phones'
    reports = checkins.reports(checkin.id, 3)
    sent = [bits for bits, _ in seen.values()]
    assert reports == survey.Reports(6, tuple(sum(b[i] == "1" for b in sent) for i in range(3)))
    with sqlite3.connect(SURVEY_DB_DIR / "survey.sqlite3") as conn:
        stored = sorted(
            bits
            for (bits,) in conn.execute(
                "SELECT bits FROM checkin_reports WHERE checkin_id = ?", (checkin.id,)
            )
        )
    assert stored == sorted(sent)


def _draws(page: Page, script: str, truth: list[int], p: float, q: float) -> np.ndarray:
    """DRAWS reports of `truth` from `script`'s randomize: how many of each of the 2^k."""
    counts = page.evaluate(
        f"""() => {{
          {script}
          const counts = {{}};
          for (let i = 0; i < {DRAWS}; i++) {{
            const r = randomize({json.dumps(truth)}, {p}, {q});
            counts[r] = (counts[r] || 0) + 1;
          }}
          return counts;
        }}"""
    )
    k = len(truth)
    return np.array([counts.get("".join(r), 0) for r in itertools.product("01", repeat=k)])


def _pvalue(counts: np.ndarray, truth: list[int], p: float, q: float) -> float:
    one = [p if bit else q for bit in truth]
    expected = np.array(
        [
            np.prod([o if r == "1" else 1 - o for o, r in zip(one, report, strict=True)])
            for report in itertools.product("01", repeat=len(truth))
        ]
    )
    return float(stats.chisquare(counts, expected * counts.sum()).pvalue)


def test_the_phones_randomizer_is_unary_encoding(page: Page, app_server: str) -> None:
    open_page(page, app_server, "")  # a real page of the app: its crypto, its JavaScript
    bits = model.bit_probabilities(EPSILON, 3)
    script = private_choice.KRR_JS + private_progress.RANDOMIZE_JS
    truth = [1, 0, 1]
    counts = _draws(page, script, truth, bits.p, bits.q)
    assert counts.sum() == DRAWS
    assert _pvalue(counts, truth, bits.p, bits.q) > P_FLOOR, counts
    # the same check fails a randomizer that reports every bit with one probability
    broken = script.replace("(bit ? p : q)", "(p + q) / 2")
    assert broken != script
    assert _pvalue(_draws(page, broken, truth, bits.p, bits.q), truth, bits.p, bits.q) < P_FLOOR


def test_a_tap_that_fails_is_sent_again_as_the_same_report(page: Page, app_server: str) -> None:
    """While the database is busy a tap is not stored; the phone offers "Send my report
    again" (after a reload too), which sends the report it drew, never a second draw."""
    checkins, checkin = _checkin()
    page.set_viewport_size(PHONE)
    as_a_new_visitor(page)
    frames: list[bytes | str] = []
    page.on("websocket", lambda websocket: websocket.on("framesent", lambda f: frames.append(f)))
    open_page(page, app_server, f"{URL_PATH}?join={checkin.code}")
    send = page.get_by_role("button", name="Send my progress, randomized")
    expect(send).to_be_visible(timeout=20_000)
    lock = sqlite3.connect(SURVEY_DB_DIR / "survey.sqlite3", isolation_level=None)
    try:
        lock.execute("BEGIN IMMEDIATE")
        send.click()
        expect(page.get_by_text("but it is not stored yet")).to_be_visible(timeout=20_000)
        again = page.get_by_role("button", name="Send my report again")
        expect(again).to_be_enabled(timeout=1_000)
        page.reload()
        expect(again).to_be_enabled(timeout=20_000)
        expect(send).to_have_count(0)
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    again.click()
    expect(page.get_by_text("Your report is in.")).to_be_visible(timeout=20_000)
    reports = component_triggers(frames, PRIVATE_WIDGET)
    assert len(reports) == 2 and reports[0] == reports[1], reports
    assert checkins.reports(checkin.id, 3).n == 1
