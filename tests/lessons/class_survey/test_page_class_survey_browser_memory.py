"""The class survey remembers its lecturer and its students per browser, under
AppTest: the browser's cookies are what `ui.browser.cookie` returns (patched
here; the real cookies are exercised in test_browser_class_survey.py), and a cookie the page
asks the browser to keep is an st.html script in the run."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import survey
from apptest_helpers import classroom_page
from lessons.class_survey import model
from survey import security
from ui import activity, browser

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "lessons" / "class_survey/page.py")
ANSWERS = "Answers / devices joined"


def page(**params: str) -> AppTest:
    return classroom_page(PAGE, **params).run()


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def cookie_scripts(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.get("html") if "document.cookie" in h.proto.body]


def create(at: AppTest) -> str:
    at.button(key="survey_create").click().run()
    assert not at.exception, at.exception
    return at.query_params["manage"]


def test_navigating_away_and_back_returns_to_the_running_survey(store, jar):
    lecturer = page()
    code = create(lecturer)
    # The browser is asked to keep code and key; the key is not in the address.
    scripts = cookie_scripts(lecturer)
    key = next(s for s in scripts if "pp_survey_manage=" in s)
    assert code in key and "SameSite=Strict" in key and "Max-Age=2592000" in key
    assert "key" not in lecturer.query_params
    # Another lesson, then back to /class-survey: no parameters in the address.
    lecturer.query_params.clear()
    lecturer.run()
    assert not lecturer.exception
    assert lecturer.query_params["manage"] == code
    assert metrics(lecturer)[ANSWERS] == "0 / 0"
    assert lecturer.button(key="survey_close")


def test_a_reload_or_new_tab_finds_the_survey_in_the_browsers_cookie(store, jar):
    new = store.create_survey("Q?", survey.two_coins())
    jar[model.MANAGE_COOKIE] = f"{new.survey.code}.{new.admin_key}"
    tab = page()  # a new session: only the cookie knows the survey
    assert not tab.exception, tab.exception
    assert tab.query_params["manage"] == new.survey.code
    assert "key" not in tab.query_params
    assert tab.button(key="survey_close")
    tab.button(key="survey_close").click().run()
    assert not store.get_by_id(new.survey.id).is_open
    # The same from the address ?manage=CODE (a reload of the projector).
    reload = page(manage=new.survey.code)
    assert reload.button(key="survey_reopen")


def test_a_cookie_with_a_wrong_key_opens_nothing(store, jar):
    new = store.create_survey("Q?", survey.two_coins())
    jar[model.MANAGE_COOKIE] = f"{new.survey.code}.{'x' * 32}"
    tab = page()
    assert "manage" not in tab.query_params
    assert tab.button(key="survey_create")  # the create form
    other = page(manage=new.survey.code)
    assert ANSWERS not in metrics(other)
    assert any("private lecturer link" in w.value for w in other.warning)


def test_start_a_new_survey_forgets_the_last_one(store, jar):
    new = store.create_survey("Q?", survey.two_coins())
    jar[model.MANAGE_COOKIE] = f"{new.survey.code}.{new.admin_key}"
    tab = page()
    tab.button(key="survey_new").click().run()
    assert not tab.exception
    assert "manage" not in tab.query_params
    assert tab.button(key="survey_create")
    assert any("pp_survey_manage=;" in s and "Max-Age=0" in s for s in cookie_scripts(tab))
    tab.run()  # stays on the create form in this session, although the cookie was sent
    assert tab.button(key="survey_create")


def given_token(at: AppTest) -> str:
    """The student token this session asked the browser to keep (its cookie script)."""
    (token,) = {
        s.split("pp_survey_me=", 1)[1].split(";", 1)[0]
        for s in cookie_scripts(at)
        if "pp_survey_me=" in s
    }
    return token


def test_a_new_tab_in_the_same_browser_cannot_answer_again(store, jar):
    new = store.create_survey("Q?", survey.two_coins())
    code = new.survey.code
    first = page(join=code)
    token = given_token(first)
    assert store.tokens.is_valid(token)  # issued and signed by the server
    assert "me" not in first.query_params  # never in the address
    first.button(key="survey_report_yes").click().run()
    assert store.counts(new.survey.id) == survey.Counts(1, 1)
    # A reload or a new tab from the QR code: the browser's cookie.
    jar[activity.STUDENT_COOKIE] = token
    second = page(join=code)
    assert given_token(second) == token
    assert not [b for b in second.button if b.label in ("Yes", "No")]
    assert [i.value for i in second.info][0] == (
        "This browser has already answered this survey. Only its first answer counts."
    )
    # A private window (no cookie) is another browser: it may answer.
    jar.clear()
    private = page(join=code)
    assert given_token(private) != token
    private.button(key="survey_report_no").click().run()
    assert store.counts(new.survey.id) == survey.Counts(2, 1)
    projector = page(manage=code, key=new.admin_key)
    assert metrics(projector)[ANSWERS] == "2 / 2"


def test_one_session_answers_once_whatever_its_address_says(store, jar):
    """The identity came from `?me=` whenever the session had no
    cookie, so rotating it in one tab minted new students (40 answers in 3 s). Now one
    server session is one student: 40 rotations, 40 taps, one answer."""
    new = store.create_survey("Q?", survey.two_coins())
    student = page(join=new.survey.code)
    token = given_token(student)
    for _ in range(40):
        student.query_params["me"] = security.new_session_token()  # pushState + popstate
        student.run()
        assert "me" not in student.query_params
        yes = [b for b in student.button if b.label == "Yes"]
        if yes:
            yes[0].click().run()
    assert given_token(student) == token
    assert store.counts(new.survey.id) == survey.Counts(1, 1)


def test_a_token_the_server_did_not_issue_is_never_accepted(store, jar):
    """Finding 1: an identity chosen by the student (a hand-made cookie, an unsigned token,
    a signature from another server) is replaced by one the server issues."""
    new = store.create_survey("Q?", survey.two_coins())
    forged = [
        security.new_session_token(),  # unsigned random, as old cookies held
        f"{security.new_session_token()}.{'A' * 22}",
        security.issue_student_token(security.new_signing_key()),
    ]
    for cookie in forged:
        jar[activity.STUDENT_COOKIE] = cookie
        student = page(join=new.survey.code)
        issued = given_token(student)
        assert issued != cookie and store.tokens.is_valid(issued)
    # A token the server issued is kept.
    jar[activity.STUDENT_COOKIE] = issued
    assert given_token(page(join=new.survey.code)) == issued


def test_a_forwarded_link_carries_no_identity(store, jar):
    """Finding 2: the address held `?me=TOKEN`; opened in a fresh browser it showed "already
    in" and set that browser's cookie to the first student's token. Now a link never carries
    an identity: the friend answers in their own right, and the sender's reload still says
    "already in"."""
    new = store.create_survey("Q?", survey.two_coins())
    sender = page(join=new.survey.code)
    sender_token = given_token(sender)
    sender.button(key="survey_report_yes").click().run()
    jar.clear()  # a fresh browser opens the forwarded address (an old link with ?me=)
    friend = page(join=new.survey.code, me=sender_token)
    assert given_token(friend) != sender_token
    assert "me" not in friend.query_params
    friend.button(key="survey_report_no").click().run()
    assert any("answer is in" in s.value for s in friend.success)
    assert store.counts(new.survey.id) == survey.Counts(2, 1)
    jar[activity.STUDENT_COOKIE] = sender_token  # the sender reloads their own page
    reloaded = page(join=new.survey.code)
    assert not [b for b in reloaded.button if b.label in ("Yes", "No")]
    assert any("already answered" in i.value for i in reloaded.info)


def test_an_answer_stored_but_never_confirmed_is_recognised_after_a_crash(store, jar):
    new = store.create_survey("Q?", survey.two_coins())
    student = page(join=new.survey.code)
    token = given_token(student)
    # The tap reached the database, then the server died before the page was sent back.
    assert store.submit(new.survey.id, token, 0) is survey.SubmitResult.ACCEPTED
    jar[activity.STUDENT_COOKIE] = token  # the reconnect brings the browser's cookie
    after_restart = page(join=new.survey.code)
    assert not [b for b in after_restart.button if b.label in ("Yes", "No")]
    assert store.submit(new.survey.id, token, 1) is survey.SubmitResult.DUPLICATE
    assert store.counts(new.survey.id) == survey.Counts(1, 0)


def test_a_closed_survey_says_so_before_the_instructions(store, jar):
    new = store.create_survey("Q?", survey.two_coins())
    store.close(new.survey.id, new.admin_key)
    student = page(join=new.survey.code)
    assert any("closed" in w.value for w in student.warning)
    assert not student.header  # no "How to answer" above or below it
    assert not student.info


@pytest.mark.parametrize("value", ["a;b", "x" * 201, "<script>", 'a"b'])
def test_unsafe_cookie_values_are_refused(value):
    with pytest.raises(ValueError, match="value"):
        browser.set_cookie("test", value, max_age_s=10)
