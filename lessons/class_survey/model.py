"""Class survey helpers: where the database lives, the cached store, links, the QR code,
and the live-estimate chart.

Database URL, first match wins:
1. `st.secrets["survey_db_url"]` (e.g. in .streamlit/secrets.toml or Community Cloud),
2. the environment variable SURVEY_DB_URL,
3. an SQLite file `survey.sqlite3` in $SURVEY_DB_DIR, default the repo's git-ignored var/.
"""

from __future__ import annotations

import io
import ipaddress
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import numpy as np
import pandas as pd
import segno
import streamlit as st

import dp
import survey
from ui import browser, text

ROOT = Path(__file__).resolve().parents[2]  # lessons/class_survey/model.py -> the repository
DEFAULT_DB_DIR = ROOT / "var"
URL_PATH = "class-survey"
SESSION_TOKEN_KEY = "survey_session_token"
TOKEN_PARAM = "me"  # where old links carried a student's token: removed, never used
ADMIN_KEYS_KEY = "survey_admin_keys"
MANAGING_KEY = "survey_managing"  # the code of the survey this session last managed
STUDENT_COOKIE = "survey_me"  # the student's token, for every survey, in this browser
MANAGE_COOKIE = "survey_manage"  # "CODE.ADMINKEY" of the survey this browser last managed
COOKIE_DAYS = 30
JOINS_RECORDED_KEY = "survey_joins_recorded"
FORGOT_KEY = "survey_forgot_managed"  # "Start a new survey" pressed in this session
MAX_CHART_POINTS = 300
CHART_HEIGHT = 300  # the plot area, in pixels
PRESENTER_CHART_HEIGHT = 240  # with projector fonts: the chart and the QR fit 1280×720
QR_WIDTH = 200  # pixels: large enough to scan from a projected screen, small enough to fit
SUBMITS_PER_MINUTE = 10


def database_url() -> str:
    """The SQLAlchemy URL of the survey database (see the module docstring)."""
    try:
        from_secrets = st.secrets.get("survey_db_url")
    except Exception:  # noqa: BLE001  (no secrets file at all is the common case)
        from_secrets = None
    if from_secrets:
        return str(from_secrets)
    if os.environ.get("SURVEY_DB_URL"):
        return os.environ["SURVEY_DB_URL"]
    directory = Path(os.environ.get("SURVEY_DB_DIR") or DEFAULT_DB_DIR)
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'survey.sqlite3'}"


@st.cache_resource(show_spinner=False)
def survey_store(url: str) -> survey.SurveyStore:
    """One store (one connection pool) per database URL and process."""
    return survey.SurveyStore(url)


# Limits. Kept in the survey database (in each process's memory they
# multiplied by the number of replicas), keyed on this browser session and on the client's
# address. Only *guesses* are limited: a join code that does not exist, or a lecturer page
# opened without a valid key (a student token's taps have their own SUBMITS_PER_MINUTE).
# A join to a survey that exists is never counted, so a whole class behind one address (a
# school's NAT, a load balancer) always gets in, whatever another session floods; a
# session that guesses is refused once over its own limit, and, while its address is over
# the address limit, after its first wrong guess. Creating a survey counts only when it
# succeeds, against this session's allowance; what anonymous creators can store is bounded
# by the number of open surveys created in the last RECENT_HOURS hours, a bound a browser
# that manages a survey does not meet.
LIMITS = {
    ("create", "session"): (5, 600.0),
    ("guess", "session"): (10, 60.0),
    ("guess", "address"): (120, 60.0),
}
RECENT_HOURS = 12.0
MAX_RECENT_OPEN_SURVEYS = 500
LIMIT_KEY = "survey_limit_key"


def client_address() -> str:
    """The client's address as Streamlit sees it ("local" on this computer, or when there
    is no real connection, as in AppTest)."""
    address = st.context.ip_address
    return address if isinstance(address, str) and address else "local"


def _session_limit_key() -> str:
    if LIMIT_KEY not in st.session_state:
        st.session_state[LIMIT_KEY] = survey.new_session_token()
    return st.session_state[LIMIT_KEY]


def _limit_name(action: str, who: str) -> str:
    return f"{action}/{who}"


def _check(store: survey.SurveyStore, action: str, who: str, key: str) -> bool:
    return store.limit_check(_limit_name(action, who), key, *LIMITS[(action, who)])


def _allow(store: survey.SurveyStore, action: str, who: str, key: str) -> bool:
    return store.limit_allow(_limit_name(action, who), key, *LIMITS[(action, who)])


def lookup_refused(store: survey.SurveyStore) -> str | None:
    """Before looking a code up: None when allowed, else "session" (this session has made
    too many wrong guesses) or "address" (its address has, and this session guessed wrong
    at least once in the window). A session that never guessed wrong is always allowed;
    one that never guessed costs no database read."""
    if LIMIT_KEY not in st.session_state:
        return None
    mine = _session_limit_key()
    if not _check(store, "guess", "session", mine):
        return "session"
    if not _check(store, "guess", "address", client_address()) and store.limit_count(
        _limit_name("guess", "session"), mine, LIMITS[("guess", "session")][1]
    ):
        return "address"
    return None


def record_guess(store: survey.SurveyStore) -> None:
    """Count one wrong guess (an unknown code, a lecturer page without a valid key) for this
    session and its address."""
    _allow(store, "guess", "session", _session_limit_key())
    _allow(store, "guess", "address", client_address())


def tap_allowed(store: survey.SurveyStore, token: str) -> bool:
    """Count one tap of this student token: at most SUBMITS_PER_MINUTE a minute."""
    return store.limit_allow("tap/token", token, SUBMITS_PER_MINUTE, 60.0)


def manages_a_survey(store: survey.SurveyStore) -> bool:
    """Whether this browser holds a valid lecturer key of an open survey: one this session
    created or opened (kept after "Start a new survey"), or the one in its cookie."""
    for code, admin_key in LECTURER.held():
        found = store.get_by_code(code)
        if found is not None and found.is_open and store.check_admin_key(found.id, admin_key):
            return True
    return False


ACTIVITIES = {"survey": "class survey", "quiz": "class quiz"}  # what each page calls itself


def _plural(activity: str) -> str:
    return f"{activity.split()[-1]}zes" if activity.endswith("quiz") else f"{activity}s"


def recent_open_activities(store: survey.SurveyStore) -> int:
    """Open surveys and unfinished quizzes created in the last RECENT_HOURS hours: together
    they bound the storage anonymous creations may use."""
    return store.recent_open_surveys(RECENT_HOURS) + survey.QuizStore(store).recent_open_quizzes(
        RECENT_HOURS
    )


def create_refused(
    store: survey.SurveyStore, manages_open: Callable[[], bool] | None = None
) -> str | None:
    """None when this browser may create a survey or quiz now; else "session" (this
    session's own allowance is used up) or "storage" (too many open surveys and quizzes
    were created recently, and this browser manages no open one: a lecturer who is running
    one is never locked out by strangers). `manages_open` tells whether this browser runs an
    open activity (default: an open survey)."""
    if not _check(store, "create", "session", _session_limit_key()):
        return "session"
    if recent_open_activities(store) >= MAX_RECENT_OPEN_SURVEYS:
        manages = manages_open if manages_open is not None else lambda: manages_a_survey(store)
        if not manages():
            return "storage"
    return None


def count_create(store: survey.SurveyStore) -> None:
    """Count a creation that succeeded (a failed one costs nothing)."""
    _allow(store, "create", "session", _session_limit_key())


def limit_message(action: str, who: str, *, activity: str = "survey") -> str:
    """What to tell someone over a limit, naming the page's own activity ("survey" or
    "quiz")."""
    name = ACTIVITIES[activity]
    if action == "create" and who == "storage":
        return (
            f"This app already holds {MAX_RECENT_OPEN_SURVEYS:,} open class surveys and "
            f"quizzes created in the last {RECENT_HOURS:.0f} hours, the most it keeps for new "
            "lecturers. Try again later, or ask whoever runs the app to close old ones. A "
            f"browser that is running an open {name} can still create one."
        )
    events, window = LIMITS[(action, "session" if who == "storage" else who)]
    span = "a minute" if window <= 60 else f"{window / 60:.0f} minutes"
    if action == "create":
        return (
            f"At most {events} class surveys and quizzes can be created from this browser in "
            f"{span}. Wait a few minutes, then create it again; the {_plural(name)} you made "
            "keep running."
        )
    source = "this browser" if who == "session" else "your network"
    return (
        f"Too many wrong codes from {source} in the last minute. Wait a minute, then check "
        "the code on the projector and try again."
    )


def session_token(store: survey.SurveyStore) -> str:
    """The student's token, which makes an answer count once per browser.

    The server issues it, signed with the database's key (survey.security), and keeps it in
    this session and in a cookie of this browser (ui/browser.py). It is fixed for the whole
    server session: whatever the address bar says, one session is one student, so one
    session answers at most once. A new session (a reload, a new tab, the reconnect after a
    server restart) takes the token from the cookie, if the server signed it, so an answer
    that was stored (even if never confirmed) is recognised as already in. A token the
    server did not sign is never accepted, and an address never carries one: a forwarded
    link (old links had `?me=`) gives a friend an identity of their own. Only the HMAC of
    the token with the survey's salt reaches the database. A private window or another
    device has no cookie: it can answer again (the projector shows answers / devices)."""
    token = st.session_state.get(SESSION_TOKEN_KEY)
    if token is None:
        from_cookie = browser.cookie(STUDENT_COOKIE)
        if store.student_token_is_valid(from_cookie):
            token = from_cookie
        else:
            token = store.issue_student_token()
        st.session_state[SESSION_TOKEN_KEY] = token
    if TOKEN_PARAM in st.query_params:  # an identity in an address is never used
        del st.query_params[TOKEN_PARAM]
    browser.set_cookie(STUDENT_COOKIE, token, max_age_s=COOKIE_DAYS * 86_400)
    return token


def record_join(store: survey.SurveyStore, survey_id: int, token: str) -> None:
    """Count this browser among the survey's devices, once per session."""
    recorded = st.session_state.setdefault(JOINS_RECORDED_KEY, set())
    if survey_id not in recorded:
        store.record_join(survey_id, token)
        recorded.add(survey_id)


@dataclass(frozen=True)
class LecturerMemory:
    """What a lecturer's session and browser remember of the survey (or quiz) they run, so
    that a reload, a new tab or a visit to another page returns to it, and the admin key is
    never in the address bar or on the projector. The class survey and the class quiz each
    have one, under their own names."""

    keys: str  # session state: {code: admin key} this session created or opened
    managing: str  # session state: the code this session last ran
    forgot: str  # session state: "start a new one" was pressed
    cookie: str  # browser cookie: "CODE.ADMINKEY" of what this browser last ran

    def remember(self, code: str, admin_key: str) -> None:
        """Keep the admin key for this session, and in this browser for the next visits
        (reload, new tab): the lecturer never sees or projects it."""
        st.session_state.setdefault(self.keys, {})[code] = admin_key
        st.session_state[self.managing] = code
        st.session_state.pop(self.forgot, None)
        browser.set_cookie(self.cookie, f"{code}.{admin_key}", max_age_s=COOKIE_DAYS * 86_400)

    def remembered(self, code: str) -> str | None:
        """The admin key of `code` this session or this browser holds (unchecked)."""
        key = st.session_state.get(self.keys, {}).get(code)
        if key is not None:
            return key
        managed = self.managed()
        return managed[1] if managed is not None and managed[0] == code else None

    def managed(self) -> tuple[str, str] | None:
        """(code, admin key) of what this session, or else this browser, last ran."""
        code = st.session_state.get(self.managing)
        if code is not None and code in st.session_state.get(self.keys, {}):
            return code, st.session_state[self.keys][code]
        value = None if st.session_state.get(self.forgot) else browser.cookie(self.cookie)
        if value is None or "." not in value:
            return None
        code, key = value.split(".", 1)
        return (code, key) if code and key else None

    def held(self) -> list[tuple[str, str]]:
        """Every (code, admin key) this session holds, and the one in this browser's cookie
        (unchecked)."""
        held = list(st.session_state.get(self.keys, {}).items())
        cookie = browser.cookie(self.cookie)
        if cookie is not None and "." in cookie:
            held.append(tuple(cookie.split(".", 1)))
        return held

    def forget(self) -> None:
        """The "start a new one" button (a callback): this session stops returning to the
        last one; `keep_browser_in_step` then asks the browser to forget it too."""
        st.session_state.pop(self.managing, None)
        st.session_state[self.forgot] = True

    def keep_browser_in_step(self) -> None:
        """On every run of the page: after "start a new one", the browser's cookie of the
        last one is deleted (until another is created or opened)."""
        if st.session_state.get(self.forgot) and browser.cookie(self.cookie) is not None:
            browser.set_cookie(self.cookie, "", max_age_s=0)


LECTURER = LecturerMemory(ADMIN_KEYS_KEY, MANAGING_KEY, FORGOT_KEY, MANAGE_COOKIE)
remember_admin_key = LECTURER.remember
remembered_admin_key = LECTURER.remembered
managed_in_browser = LECTURER.managed
forget_managed = LECTURER.forget
keep_browser_in_step = LECTURER.keep_browser_in_step


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("10.254.254.254", 1))
            address = sock.getsockname()[0]
    except OSError:
        return None
    return None if _is_loopback(address) else address


def base_url_guess(context_url: str | None, server_address: str | None) -> tuple[str, str]:
    """(base URL students should use, a note for the lecturer).

    If the lecturer opened the app on localhost but the server listens on every
    interface (make run HOST=0.0.0.0), the room-network address is suggested."""
    parts = urlsplit(context_url or "http://localhost:8501")
    origin = f"{parts.scheme}://{parts.netloc}"
    host, port = parts.hostname or "localhost", parts.port
    if not _is_loopback(host):
        return origin, ""
    listens_everywhere = (server_address or "") in ("", "0.0.0.0", "::")
    lan = lan_address()
    if listens_everywhere and lan:
        suffix = f":{port}" if port else ""
        return f"{parts.scheme}://{lan}{suffix}", (
            "You opened the app on this computer (localhost); phones in the room use this "
            "computer's network address instead."
        )
    return origin, (
        "Phones cannot reach *localhost*. Serve the app on the room's network with "
        "`make run HOST=0.0.0.0` and put this computer's network address here."
    )


def join_url(base_url: str, code: str) -> str:
    """The link students open: …/class-survey?join=CODE."""
    return f"{base_url.rstrip('/')}/{URL_PATH}?{urlencode({'join': code})}"


def lecturer_url(base_url: str, code: str, admin_key: str) -> str:
    """The private lecturer link: …/class-survey?manage=CODE&key=ADMIN_KEY."""
    return f"{base_url.rstrip('/')}/{URL_PATH}?{urlencode({'manage': code, 'key': admin_key})}"


@st.cache_data(show_spinner=False, max_entries=64)
def qr_png(text: str) -> bytes:
    """A QR code of `text` as PNG bytes (segno, pure Python)."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=8, border=2)
    return buffer.getvalue()


# -- storage faults --------------------------------------------------------------------
_STUDENT_FAULTS = {
    survey.store.BUSY: (
        "The {name} is busy: many answers are arriving at once. Your answer was not "
        "recorded. Tap again."
    ),
    survey.store.READ_ONLY: (
        "The {name} cannot take answers right now: {what}. Tell your lecturer."
    ),
}
_STUDENT_FAULT = (
    "The {name} cannot record answers right now: {what}. Your answer was not recorded. "
    "Tell your lecturer."
)
_LECTURER_FAULTS = {
    survey.store.BUSY: "Another program is holding the database. Try again in a moment.",
    survey.store.DAMAGED: (
        "No {activity} can be shown or saved. Stop the app, move the file "
        "var/survey.sqlite3 aside (keep it: the answers may be recoverable) and start the app "
        "again; it creates a new, empty database. If you set SURVEY_DB_URL, check that "
        "database."
    ),
    survey.store.READ_ONLY: (
        "Results can still be shown, but nothing can be saved: no new {activity}, no "
        "answers, no {moves}. Make the folder var/ and the file var/survey.sqlite3 writable "
        "by the user who runs the app (or set SURVEY_DB_DIR to a writable folder), then "
        "restart the app."
    ),
    survey.store.FULL: (
        "Answers already saved are kept and shown, but new ones cannot be saved. Free "
        "space on the disk that holds the database (the var/ folder, or SURVEY_DB_DIR)."
    ),
    survey.store.UNREACHABLE: (
        "Check SURVEY_DB_URL, or that the folder SURVEY_DB_DIR (default var/) exists and "
        "is writable by the app; with a database server, check that it is running."
    ),
    survey.store.FAILED: "The server's log has the database's own message.",
    survey.store.MISSING: (
        "Nothing more is saved: answers sent since are refused, not lost unseen. Restart "
        "the app, which opens a new, empty database (or put the file back from a backup "
        "first), then start a new {activity}."
    ),
}
_MOVES = {"survey": "closing or reset", "quiz": "moving to the next question or revealing"}


def fault_message(reason: str, *, student: bool, activity: str = "survey") -> str:
    """What a student or the lecturer reads when the class database fails (`reason`, from
    survey.StorageError), naming the page's own activity: what happened and, for the
    lecturer, what to do. Never SQL."""
    what = survey.STORAGE_FAULTS[reason]
    name = ACTIVITIES[activity]
    if student:
        return _STUDENT_FAULTS.get(reason, _STUDENT_FAULT).format(name=name, what=what)
    advice = _LECTURER_FAULTS[reason].format(activity=activity, moves=_MOVES[activity])
    return f"The {name} cannot work normally: {what}. {advice}"


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
