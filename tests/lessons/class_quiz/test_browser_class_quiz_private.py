"""Private mode's promise, checked on the wire: a phone randomizes in the browser and sends
only the randomized option. Phones (one tab, each time as a browser the app has never seen:
no cookie, no stored data, a new session) tap a private question; every
WebSocket frame a phone sends from its tap to "Your answer is in" is recorded. Two taps with
different true choices and the same randomized answer must send identical bytes
(non-interference), for every (choice, sent) pair. A phone also asks every 2 s which question
is on show (an automatic rerun of its fragment); when such a poll falls between the tap and the
confirmation (on a busy machine), it is checked on its own: it carries nothing of the private
component. The phone's randomizer, as shipped, is then
drawn 100,000 times in Chromium and its distribution checked against k-ary randomized response
at that ε (chi-square), and so are the answers stored; the same check fails on a broken
randomizer."""

from __future__ import annotations

import contextlib
import itertools
import sqlite3

import numpy as np
import pytest
from frames_helpers import back_message, component_triggers, normalized
from playwright.sync_api import Page, WebSocket, expect
from scipy import stats

import dp
import survey
from browser_helpers import PHONE, lesson_url, open_page
from conftest import SURVEY_DB_DIR, as_a_new_visitor
from ui import private_choice

URL_PATH = lesson_url("class_quiz/page.py")
EPSILON = 0.5  # the smallest ε the builder offers: every (choice, sent) pair is likely
OPTIONS = ("yes, *often*", "no <b>never</b>")  # markup must show as written
MAX_PHONES = 40  # a bound on the loop; ~8 phones cover the four pairs on average
DRAWS = 100_000
P_FLOOR = 1e-6  # a sound randomizer fails the chi-square once in a million runs


def _quiz() -> tuple[survey.QuizStore, survey.Quiz]:
    store = survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}")
    quizzes = survey.QuizStore(store)
    question = survey.QuizQuestion("Did you ever cheat?", OPTIONS, 0, "")
    created = quizzes.create_quiz("Private", [question], epsilon=EPSILON, countdown_s=0)
    quizzes.show(created.quiz.id, created.admin_key, 0)
    return quizzes, created.quiz


PRIVATE_WIDGET = "quiz_private_"  # the private component's key (page.private_key)


def _is_poll(frame: bytes | str) -> bool:
    """The phone's every-2-s question poll: an automatic rerun of its fragment."""
    message = back_message(frame)
    return message.WhichOneof("type") == "rerun_script" and message.rerun_script.is_auto_rerun


def _poll_leaks(frame: bytes | str) -> list[str]:
    """The private component's widget states that a poll carries (none may)."""
    widgets = back_message(frame).rerun_script.widget_states.widgets
    return [widget.id for widget in widgets if PRIVATE_WIDGET in widget.id]


def _tap(phone: Page, app_server: str, code: str, choice: int) -> tuple[int, set[bytes]]:
    """A new phone taps option `choice`: (what it says it sent, the frames its tap sent). A
    question poll in between is not one of them, and must carry nothing of the component.
    Each phone is the one tab, as a browser the app has never seen (no cookie, no stored
    data, a new session): a new context per phone cost 2.3 s more CPU, for nothing."""
    as_a_new_visitor(phone)
    frames: list[bytes | str] = []

    def record(websocket: WebSocket) -> None:
        websocket.on("framesent", lambda frame: frames.append(frame))

    phone.on("websocket", record)
    try:
        return _answer(phone, app_server, code, choice, frames)
    finally:
        phone.remove_listener("websocket", record)


def _answer(
    phone: Page, app_server: str, code: str, choice: int, frames: list[bytes | str]
) -> tuple[int, set[bytes]]:
    open_page(phone, app_server, f"{URL_PATH}?join={code}")
    buttons = phone.get_by_role("button", name="A.")
    expect(buttons).to_have_text(f"A.  {OPTIONS[0]}", timeout=20_000)
    frames.clear()
    phone.get_by_role("button", name=f"{'AB'[choice]}.").click()
    expect(phone.get_by_text("Your answer is in")).to_be_visible(timeout=20_000)
    receipt = phone.get_by_text("Only this phone knows")
    expect(receipt).to_contain_text(f"you chose {'AB'[choice]}")
    sent = "AB".index(receipt.inner_text().rstrip(".")[-1])
    expect(phone.get_by_text(f"your phone sent {'AB'[sent]}")).to_be_visible()
    polls = [frame for frame in frames if _is_poll(frame)]
    assert not [leak for poll in polls for leak in _poll_leaks(poll)], "a poll carries the tap"
    return sent, {normalized(frame) for frame in frames if not _is_poll(frame)}


@pytest.mark.budget(
    "phones join and tap until every (choice, sent) pair is seen: about 8 of them on "
    "average, each a page load (3 s), and past 20 s when the coin is unlucky (at most 40)"
)
def test_a_private_tap_sends_nothing_about_the_choice(page: Page, app_server: str) -> None:
    quizzes, quiz = _quiz()
    page.set_viewport_size(PHONE)
    seen: dict[tuple[int, int], set[bytes]] = {}
    taps: list[tuple[int, int]] = []
    for choice in itertools.islice(itertools.cycle((0, 1)), MAX_PHONES):
        sent, frames = _tap(page, app_server, quiz.code, choice)
        assert frames, "the tap sent no frame at all"
        seen.setdefault((choice, sent), frames)
        assert frames == seen[(choice, sent)]  # the same tap sends the same bytes
        taps.append((choice, sent))
        if len(seen) == 4:
            break
    assert len(seen) == 4, f"not every (choice, sent) pair in {MAX_PHONES} taps: {taps}"
    for sent in (0, 1):
        assert seen[(0, sent)] == seen[(1, sent)], f"a tap that sent {'AB'[sent]} leaks its choice"
    assert seen[(0, 0)] != seen[(0, 1)]  # the frames do carry what was sent
    # the store holds exactly what the phones sent, and nothing else of theirs
    stored = quizzes.counts(quiz.id)[0]
    assert stored == [sum(s == v for _, s in taps) for v in (0, 1)]
    with contextlib.closing(sqlite3.connect(SURVEY_DB_DIR / "survey.sqlite3")) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(quiz_answers)")]
    assert not {"choice", "chosen", "true_option"} & set(columns)
    # the stored answers against k-ary RR at ε given the choices tapped (few taps: a sanity
    # check; the 100,000 draws below are the test of the distribution)
    keep = dp.grr_probabilities(EPSILON, 2)[0]
    kept = sum(choice == sent for choice, sent in taps)
    assert stats.binomtest(kept, len(taps), keep).pvalue > P_FLOOR


def _draws(page: Page, script: str, k: int, keep: float, choice: int) -> np.ndarray:
    counts = page.evaluate(
        f"""() => {{
          {script}
          const counts = new Array({k}).fill(0);
          for (let i = 0; i < {DRAWS}; i++) counts[krr({choice}, {k}, {keep})] += 1;
          return counts;
        }}"""
    )
    return np.array(counts)


def _pvalue(counts: np.ndarray, keep: float, choice: int) -> float:
    k = len(counts)
    expected = np.full(k, (1 - keep) / (k - 1))
    expected[choice] = keep
    return float(stats.chisquare(counts, expected * counts.sum()).pvalue)


@pytest.mark.parametrize(("k", "epsilon", "choice"), [(2, 0.5, 1), (4, 1.0, 2), (6, 3.0, 0)])
def test_the_phones_randomizer_is_k_ary_randomized_response(
    page: Page, app_server: str, k: int, epsilon: float, choice: int
) -> None:
    open_page(page, app_server, "")  # a real page of the app: its crypto, its JavaScript
    keep = float(dp.grr_probabilities(epsilon, k)[0])
    counts = _draws(page, private_choice.KRR_JS, k, keep, choice)
    assert counts.sum() == DRAWS and (counts > 0).all()
    assert _pvalue(counts, keep, choice) > P_FLOOR, counts
    # the same check fails a randomizer whose "another option" may be the choice itself
    broken = private_choice.KRR_JS.replace(
        "return other < choice ? other : other + 1;", "return uniformBelow(k);"
    )
    assert broken != private_choice.KRR_JS
    assert _pvalue(_draws(page, broken, k, keep, choice), keep, choice) < P_FLOOR


def test_a_private_tap_that_fails_is_sent_again_as_the_same_report(
    page: Page, app_server: str
) -> None:
    """Finding: while the database was busy a private tap was not stored, the option buttons
    stayed disabled 6–8 s after it was free, and after a reload the tap drew a fresh
    randomization: two independent reports of one choice (2ε for the question). The phone
    now keeps its one report per question: after the failed tap, and after a reload, it
    offers "Send my answer again", which sends the same report; the store keeps one."""
    quizzes, quiz = _quiz()
    page.set_viewport_size(PHONE)
    as_a_new_visitor(page)
    frames: list[bytes | str] = []
    page.on("websocket", lambda websocket: websocket.on("framesent", lambda f: frames.append(f)))
    open_page(page, app_server, f"{URL_PATH}?join={quiz.code}")
    expect(page.get_by_role("button", name="A.")).to_be_visible(timeout=20_000)
    # Another process holds SQLite's write lock: the tap's write fails as "busy" (reads, the
    # phone's polls, go on in WAL mode).
    lock = sqlite3.connect(SURVEY_DB_DIR / "survey.sqlite3", isolation_level=None)
    try:
        lock.execute("BEGIN IMMEDIATE")
        page.get_by_role("button", name="A.").click()
        expect(page.get_by_text("but it is not stored yet")).to_be_visible(timeout=20_000)
        again = page.get_by_role("button", name="Send my answer again")
        expect(again).to_be_enabled(timeout=1_000)  # back with the fault, not seconds later
        page.reload()  # a reload before the answer is in: still the same report
        expect(again).to_be_enabled(timeout=20_000)
        expect(page.get_by_role("button", name="A.")).to_have_count(0)
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    again.click()
    expect(page.get_by_text("Your answer is in")).to_be_visible(timeout=20_000)
    reports = component_triggers(frames, PRIVATE_WIDGET)
    assert len(reports) == 2 and reports[0] == reports[1], reports
    stored = quizzes.counts(quiz.id)[0]
    assert sum(stored) == 1
    assert str(stored.index(1)) in reports[0]
