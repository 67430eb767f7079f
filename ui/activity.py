"""A class activity — the survey, the quiz, the heist, the game, and any that follow — as one
machine. The lecturer creates one; the projector shows it with a join block (code, QR code,
link); students join from their phones and answer. Everything here is what the activities
share, so that a new activity is a small page and a store, not a third copy:

- the class store (`class_store`) and each activity kind's store (`activity_store`, `opener`)
  on the database `database_url()` names;
- the routing between create, projector and phone (`route`), and the projector's gate
  (`lecturer_gate`: the admin key from the private link or this browser's memory, never
  in the address bar; a page without a valid key counts as a guess);
- what a lecturer's browser remembers (`LecturerMemory`), a student's signed token in a
  cookie (`session_token`), the rate limits (`lookup_refused`, `create_refused`, …);
- the join block and the lecturer's links (`join_block`, `lecturer_links`);
- what a fault says (`fault_message`, `show_fault`), and typed session state
  (`SessionValue`) instead of raw `st.session_state` strings.

Database URL, first match wins:
1. `st.secrets["survey_db_url"]` (e.g. in .streamlit/secrets.toml or Community Cloud),
2. the environment variable SURVEY_DB_URL,
3. an SQLite file `survey.sqlite3` in $SURVEY_DB_DIR, default the repository's git-ignored
   var/.
"""

from __future__ import annotations

import contextlib
import functools
import io
import ipaddress
import os
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, NamedTuple, Protocol, TypeVar
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st

import survey
from ui import browser, datasets, links, text

ROOT = Path(__file__).resolve().parents[1]  # ui/activity.py -> the repository
DEFAULT_DB_DIR = ROOT / "var"
SESSION_TOKEN_KEY = "survey_session_token"
TOKEN_PARAM = "me"  # where old links carried a student's token: removed, never used
STUDENT_COOKIE = "survey_me"  # the student's token, for every activity, in this browser
COOKIE_DAYS = 30
JOINS_RECORDED_KEY = "survey_joins_recorded"
QR_WIDTH = 200  # pixels: large enough to scan from a projected screen, small enough to fit

T = TypeVar("T")


# --- typed session state -----------------------------------------------------------------------
class SessionValue(Generic[T]):
    """One value this browser session keeps (in st.session_state) under a fixed key: a
    page names its values once, with their type, instead of repeating key strings."""

    def __init__(self, key: str):
        self.key = key

    def __repr__(self) -> str:
        return f"SessionValue({self.key!r})"

    def get(self, default: T | None = None) -> T | None:
        return st.session_state.get(self.key, default)

    def set(self, value: T) -> None:
        st.session_state[self.key] = value

    def pop(self, default: T | None = None) -> T | None:
        """The value, removed (a message shown once)."""
        return st.session_state.pop(self.key, default)

    def is_set(self) -> bool:
        return self.key in st.session_state

    def setdefault(self, value: T) -> T:
        return st.session_state.setdefault(self.key, value)

    def read_through(self, read: Callable[[], T | None]) -> T | None:
        """The kept value; else `read()` (the store: another tab, a reload), kept once it
        is known. For what never changes once stored, such as a browser's own answer."""
        known = self.get()
        if known is None:
            known = read()
            if known is not None:
                self.set(known)
        return known


# --- the class store -----------------------------------------------------------------------
def database_url() -> str:
    """The SQLAlchemy URL of the class database (see the module docstring)."""
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
def class_store(url: str) -> survey.SurveyStore:
    """One class store (one connection pool) per database URL and process."""
    return survey.SurveyStore(url)


@st.cache_resource(show_spinner=False)
def activity_store(noun: str, url: str) -> survey.ActivityStore:
    """One store of the activity kind `noun` per database URL and process, on the class
    store (its pool), so that what never changes in an activity (a quiz's questions, a
    drawn round, a salt) is read once per process."""
    (kind,) = [kind for kind in survey.ActivityStore.kinds() if kind.noun == noun]
    return kind(class_store(url))


def opener(noun: str) -> Callable[[], survey.ActivityStore]:
    """What `route` opens for the activity kind `noun`: its store on the database
    `database_url()` names."""
    return lambda: activity_store(noun, database_url())


def open_surveys() -> survey.SurveyStore:
    """The class store on the database `database_url()` names (for `route`)."""
    return class_store(database_url())


# --- rate limits -----------------------------------------------------------------------------
# Kept in the class database (in each process's memory they
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
#
# Creating is counted per browser (its signed cookie, `session_token`: a new server session
# does not bring a new allowance) and per address (a client that drops its cookies still
# has one). A browser that runs an open activity of the page's kind is counted by that
# activity's lineage (the first activity of its chain) instead of its address, so a flood
# from a shared address never locks out the lecturer who is running the class, and the
# activities it creates share that one allowance.
RECENT_HOURS = 12.0
MAX_RECENT_OPEN_SURVEYS = 500
# One address (an IPv4 address, an IPv6 /64) may create at most a fifth of the storage bound
# in its window: one client alone can no longer fill it and lock out every new lecturer for
# half a day (at 20 in 10 minutes it did so in about four hours).
ADDRESS_SHARE = MAX_RECENT_OPEN_SURVEYS // 5
LIMITS = {
    ("create", "browser"): (5, 600.0),
    ("create", "address"): (20, 600.0),
    ("create", "address-share"): (ADDRESS_SHARE, RECENT_HOURS * 3600.0),
    ("create", "lecturer"): (5, 600.0),
    # and at most 60 in half a day for one lineage: a client cannot keep a chain creating
    # past the storage bound at five every ten minutes for ever
    ("create", "lineage"): (60, RECENT_HOURS * 3600.0),
    ("guess", "session"): (10, 60.0),
    ("guess", "address"): (120, 60.0),
}
LIMIT_KEY = "survey_limit_key"


# An IPv6 client holds a whole /64 (a home line, a phone, a cloud server): it can send from
# any of its 2⁶⁴ addresses, so a limit per address counts the /64, as is usual.
IPV6_PREFIX = 64


def address_key(address: object) -> str:
    """What a limit per address counts for this client address: an IPv4 address itself
    (an IPv4-mapped IPv6 one as IPv4), an IPv6 address's /64 network; "local" for none."""
    if not isinstance(address, str) or not address:
        return "local"
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])  # without a zone ("%eth0")
    except ValueError:
        return address[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{parsed}/{IPV6_PREFIX}", strict=False))
    return str(parsed)


def client_address() -> str:
    """The client's address as a limit counts it (`address_key` of the address Streamlit
    sees: "local" on this computer, or when there is no real connection, as in AppTest)."""
    return address_key(st.context.ip_address)


def _session_limit_key() -> str:
    if LIMIT_KEY not in st.session_state:
        st.session_state[LIMIT_KEY] = survey.new_session_token()
    return st.session_state[LIMIT_KEY]


def _limit_name(action: str, who: str) -> str:
    return f"{action}/{who}"


def _check(store: survey.SurveyStore, action: str, who: str, key: str) -> bool:
    return store.limits.check(_limit_name(action, who), key, *LIMITS[(action, who)])


def _allow(store: survey.SurveyStore, action: str, who: str, key: str) -> bool:
    return store.limits.allow(_limit_name(action, who), key, *LIMITS[(action, who)])


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
    if not _check(store, "guess", "address", client_address()) and store.limits.count(
        _limit_name("guess", "session"), mine, LIMITS[("guess", "session")][1]
    ):
        return "address"
    return None


def record_guess(store: survey.SurveyStore) -> None:
    """Count one wrong guess (an unknown code, a lecturer page without a valid key) for this
    session and its address."""
    _allow(store, "guess", "session", _session_limit_key())
    _allow(store, "guess", "address", client_address())


def tap_allowed(
    store: survey.ClassStore, token: str, name: str, events: int, window_s: float = 60.0
) -> bool:
    """Count one tap of this student token for the limit `name`: at most `events` in
    `window_s` seconds (in the store, so the same on every replica)."""
    return store.limits.allow(name, token, events, window_s)


# what each page calls itself
ACTIVITIES = {"survey": "class survey"} | {
    kind.noun: kind.display for kind in survey.ActivityStore.kinds()
}


def _plural(activity: str) -> str:
    return f"{activity.split()[-1]}zes" if activity.endswith("quiz") else f"{activity}s"


def recent_open_activities(store: survey.SurveyStore) -> int:
    """Open surveys, and unfinished quizzes, heists and games, created in the last
    RECENT_HOURS hours: together they bound the storage anonymous creations may use."""
    return store.recent_open_surveys(RECENT_HOURS) + sum(
        kind(store).recent_open(RECENT_HOURS) for kind in survey.ActivityStore.kinds()
    )


# The creation allowances this browser session took (who, key, window) and has not yet kept
# through count_create: given back at its next try.
_CREATE_TAKEN = "activity_create_taken"
# The lineage whose lecturer allowance this session's last allowed create took (None: it took
# a stranger's, and what it creates is the first of a lineage of its own).
_CREATE_LINEAGE = "activity_create_lineage"


def create_refused(store: survey.SurveyStore, running: Callable[[], str | None]) -> str | None:
    """None when this browser may create an activity now; else why not: "browser" (this
    browser's allowance, or that of the activity it runs, is used up), "address" (its
    address's allowance), "address-share" (its address's share of the storage bound),
    "lineage" (the half day's allowance of the lineage it runs) or "storage" (too many open
    activities were created recently).
    `running()` is the lineage of an open activity of the page's own kind that this browser
    runs (`Activity.running_lineage`), or None: such a browser is not held to its address's
    count nor to the storage bound, only to that lineage's allowance, so a lecturer running
    a class is never locked out by strangers, and one lecturer key cannot fill the storage.
    The lineage, not the activity's own code: what this create makes belongs to the same
    lineage (`creation_lineage`, stored with it), so a chain of keys, each created with the
    one before, shares one allowance (each new code brought five more before). The same
    rule for every activity.

    The allowances are taken here, each in one atomic statement (`RateLimits.take`), not
    read and counted later: eight tabs of one browser, or many browsers of one address,
    pressing Create at once pass no more creations than the limit (they all passed the
    read before). What a refused or failed create took is given back: a refusal's at
    once, a failed creation's (one `count_create` did not keep) at this browser's next try,
    so a failed create costs nothing."""
    _give_back(store)
    taken: list[tuple[str, str, int]] = []
    st.session_state[_CREATE_TAKEN] = taken
    st.session_state[_CREATE_LINEAGE] = None

    def take(who: str, key: str) -> bool:
        window = store.limits.take(_limit_name("create", who), key, *LIMITS[("create", who)])
        if window is not None:
            taken.append((who, key, window))
        return window is not None

    refused = None
    if not take("browser", session_token(store)):
        refused = "browser"
    elif (lineage := running()) is not None:
        if not take("lecturer", lineage):
            refused = "browser"
        elif not take("lineage", lineage):
            refused = "lineage"
        st.session_state[_CREATE_LINEAGE] = lineage
    elif not take("address", client_address()):
        refused = "address"
    elif not take("address-share", client_address()):
        refused = "address-share"
    elif recent_open_activities(store) >= MAX_RECENT_OPEN_SURVEYS:
        refused = "storage"
    if refused is not None:
        _give_back(store)
        st.session_state[_CREATE_LINEAGE] = None
    return refused


def creation_lineage() -> str | None:
    """The lineage the create that `create_refused` just allowed belongs to, for the store's
    create (`lineage=`): that of the running activity whose allowance it took, or None for
    a first activity."""
    return st.session_state.get(_CREATE_LINEAGE)


def count_create(store: survey.SurveyStore) -> None:
    """Keep the allowances `create_refused` took: the creation succeeded."""
    st.session_state.pop(_CREATE_TAKEN, None)


def _give_back(store: survey.SurveyStore) -> None:
    """Give back the creation allowances this session took and did not keep."""
    for who, key, window in st.session_state.pop(_CREATE_TAKEN, []):
        store.limits.give_back(_limit_name("create", who), key, window)


def limit_message(action: str, who: str, *, activity: str = "survey") -> str:
    """What to tell someone over a limit, naming the page's own activity ("survey" or
    "quiz")."""
    name = ACTIVITIES[activity]
    if action == "create" and who == "lineage":
        events, window = LIMITS[(action, who)]
        return (
            f"At most {events} class activities can be created in {window / 3600:.0f} hours "
            f"from a running {name} and those created from it in turn. Try again later; "
            f"the {_plural(name)} you made keep running."
        )
    if action == "create" and who == "address-share":
        events, window = LIMITS[(action, who)]
        return (
            f"At most {events} class activities can be created from your network address in "
            f"{window / 3600:.0f} hours, a fifth of what this app keeps for new lecturers, so "
            "that no one network can take it all. Try again later, or from another network. "
            f"A browser that is running an open {name} can still create one."
        )
    if action == "create" and who == "storage":
        return (
            f"This app already holds {MAX_RECENT_OPEN_SURVEYS:,} open class activities "
            f"(surveys, quizzes, heists and games) created in the last {RECENT_HOURS:.0f} "
            "hours, the most it keeps for new lecturers. Try again later, or ask whoever runs "
            f"the app to close old ones. A browser that is running an open {name} can still "
            "create one."
        )
    if action == "create":
        events, window = LIMITS[(action, who)]
        span = "a minute" if window <= 60 else f"{window / 60:.0f} minutes"
        source = "this browser" if who == "browser" else "your network address"
        return (
            f"At most {events} class activities can be created from {source} in {span}. "
            f"Wait a few minutes, then create it again; the {_plural(name)} you made keep "
            "running."
        )
    events, window = LIMITS[(action, who)]
    source = "this browser" if who == "session" else "your network"
    return (
        f"Too many wrong codes from {source} in the last minute. Wait a minute, then check "
        "the code on the projector and try again."
    )


# --- students ----------------------------------------------------------------------------
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
        token = from_cookie if store.tokens.is_valid(from_cookie) else store.tokens.issue()
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


# --- links and the join block ------------------------------------------------------------------
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


def join_url(base_url: str, url_path: str, code: str) -> str:
    """The link students open: …/<url_path>?join=CODE."""
    return f"{base_url.rstrip('/')}/{url_path}?{urlencode({'join': code})}"


def lecturer_url(base_url: str, url_path: str, code: str, admin_key: str) -> str:
    """The private lecturer link: …/<url_path>?manage=CODE&key=ADMIN_KEY."""
    query = urlencode({"manage": code, "key": admin_key})
    return f"{base_url.rstrip('/')}/{url_path}?{query}"


@datasets.cached(census_only=True, max_entries=64)
def qr_png(text: str) -> bytes:
    """A QR code of `text` as PNG bytes (segno, pure Python)."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=8, border=2)
    return buffer.getvalue()


# --- faults ------------------------------------------------------------------------------------
_STUDENT_FAULTS = {
    survey.database.BUSY: (
        "The {name} is busy: many answers are arriving at once. Your answer was not "
        "recorded. Tap again."
    ),
    survey.database.READ_ONLY: (
        "The {name} cannot take answers right now: {what}. Tell your lecturer."
    ),
}
_STUDENT_FAULT = (
    "The {name} cannot record answers right now: {what}. Your answer was not recorded. "
    "Tell your lecturer."
)
_LECTURER_FAULTS = {
    survey.database.BUSY: "Another program is holding the database. Try again in a moment.",
    survey.database.DAMAGED: (
        "No {activity} can be shown or saved. Stop the app, move the file "
        "var/survey.sqlite3 aside (keep it: the answers may be recoverable) and start the app "
        "again; it creates a new, empty database. If you set SURVEY_DB_URL, check that "
        "database."
    ),
    survey.database.READ_ONLY: (
        "Results can still be shown, but nothing can be saved: no new {activity}, no "
        "answers, no {moves}. Make the folder var/ and the file var/survey.sqlite3 writable "
        "by the user who runs the app (or set SURVEY_DB_DIR to a writable folder), then "
        "restart the app."
    ),
    survey.database.FULL: (
        "Answers already saved are kept and shown, but new ones cannot be saved. Free "
        "space on the disk that holds the database (the var/ folder, or SURVEY_DB_DIR)."
    ),
    survey.database.UNREACHABLE: (
        "Check SURVEY_DB_URL, or that the folder SURVEY_DB_DIR (default var/) exists and "
        "is writable by the app; with a database server, check that it is running."
    ),
    survey.database.FAILED: "The server's log has the database's own message.",
    survey.database.MISSING: (
        "Nothing more is saved: answers sent since are refused, not lost unseen. Restart "
        "the app, which opens a new, empty database (or put the file back from a backup "
        "first), then start a new {activity}."
    ),
}
_MOVES = {"survey": "closing or reset"} | {
    kind.noun: kind.moves for kind in survey.ActivityStore.kinds()
}


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


# Kept in a page's lecturer-fault value when a press was made from a state the activity had
# already left (survey.StaleState): not a fault of the database.
STALE_PRESS = "stale"
# How long a press's fault stays on a projector that redraws itself every 2 seconds: long
# enough to be read by a lecturer who was looking at the room (a finding: "this press changed
# nothing" after a refused Reset was on screen for 2 s, then gone).
FAULT_SHOWN_S = 12.0


def keep_fault(fault: SessionValue[tuple], reason: str) -> None:
    """Keep why a projector's press failed (a StorageError's reason, or STALE_PRESS), with
    when, for `recent_fault`."""
    fault.set((reason, time.monotonic()))


def recent_fault(fault: SessionValue[tuple]) -> str | None:
    """Why the projector's last press failed, while that is recent (FAULT_SHOWN_S): each of
    the projector's own redraws shows it again; a later press that works clears it."""
    kept = fault.get()
    if kept is None:
        return None
    reason, at = kept
    if time.monotonic() - at > FAULT_SHOWN_S:
        fault.pop()
        return None
    return reason


def lecturer_press(fault: SessionValue[tuple], move: Callable, *args, **kwargs) -> None:
    """A projector button's callback: `move(*args, **kwargs)`, where a move names the state it
    was made from (`since=`). A class-database fault, or a press that another tab made stale,
    is kept in `fault` and told in words on the projector's runs for FAULT_SHOWN_S
    (`recent_fault`, show_fault), never raised; a press that works clears it."""
    try:
        move(*args, **kwargs)
    except survey.StorageError as error:
        keep_fault(fault, error.reason)
    except survey.StaleState:
        keep_fault(fault, STALE_PRESS)
    else:
        fault.pop()


def show_fault(reason: str, *, student: bool, activity: str) -> None:
    """The class database failed: say what happened (and, to the lecturer, what to do). A
    stale press (STALE_PRESS) is told as what it is: nothing changed."""
    if reason == STALE_PRESS:
        name = ACTIVITIES[activity]
        st.info(
            # "changed", not "moved on": a reset and a new ε are refused the same way
            f"Another tab or window changed the {name} first, so this press changed nothing. "
            f"This screen now shows the {name} as it is.",
            icon=":material/sync:",
        )
        return
    message = fault_message(reason, student=student, activity=activity)
    if reason == survey.database.BUSY:
        st.warning(message, icon=":material/hourglass_top:")
    else:
        st.error(message, icon=":material/database:")


@contextlib.contextmanager
def _faults_shown(activity: str, student: bool) -> Iterator[None]:
    try:
        yield
    except survey.StorageError as error:
        show_fault(error.reason, student=student, activity=activity)


# --- the machine: create, projector, phone -------------------------------------------------------
class ActivityStore(Protocol):
    """What the machine needs of an activity's store (SurveyStore, QuizStore)."""

    read_only: bool

    def find(self, code: str) -> Any: ...

    def check_admin_key(self, row_id: int, admin_key: object) -> bool: ...


@dataclass(frozen=True)
class Activity:
    """One kind of class activity, as the machine needs to know it: its name ("survey",
    "quiz": in messages, and the prefix of its session state, cookie and keys), the page's
    title and URL path, what a lecturer page without a valid key says, what the private
    lecturer link lets its holder do, and the button that starts a new one."""

    name: str
    title: str
    url_path: str
    no_key_message: str
    power: str
    new_label: str
    new_help: str
    # Whether one of its activities, as the store finds it, is still running (an open
    # survey, an unfinished quiz or game, a heist still taking answers).
    running: Callable[[Any], bool] = lambda found: True

    def running_lineage(self, store: ActivityStore) -> str | None:
        """The lineage (`survey.activity.lineage_of`: the code of the first activity of its
        chain) of a running activity of this kind that this browser runs (its lecturer key,
        from this session or its cookie, still valid), or None: what lets a lecturer create
        past the limits that strangers meet (create_refused)."""
        for code, admin_key in self.memory.held():
            found = store.find(code)
            if (
                found is not None
                and self.running(found)
                and store.check_admin_key(found.id, admin_key)
            ):
                return store.lineage(found.id)
        return None

    @functools.cached_property
    def memory(self) -> LecturerMemory:
        """What a lecturer's session and browser remember of this activity."""
        name = self.name
        keys, managing, forgot = f"{name}_admin_keys", f"{name}_managing", f"{name}_forgot_managed"
        return LecturerMemory(keys, managing, forgot, cookie=f"{name}_manage")

    @property
    def scroll_top(self) -> SessionValue[str]:
        """The code of the activity just created: its projector opens at the top."""
        return SessionValue(f"{self.name}_scroll_top")

    @property
    def tap_fault(self) -> SessionValue[str]:
        """Why a student's last tap was not stored (a StorageError's reason)."""
        return SessionValue(f"{self.name}_fault")

    @property
    def rate_limited(self) -> SessionValue[bool]:
        """A student's last tap was over the taps' limit."""
        return SessionValue(f"{self.name}_rate_limited")

    def tap(
        self,
        store: survey.ClassStore,
        token: str,
        limit: str,
        per_minute: int,
        submit: Callable[[], survey.SubmitResult],
    ) -> survey.SubmitResult | None:
        """A phone's tap, the one path of every activity: counted against the taps' limit
        `limit` (`per_minute` for this browser's token), then `submit()`. Returns what the
        store said, or None when nothing was stored: over the limit (`rate_limited`) or a
        database fault (`tap_fault`), both told by `tap_feedback` on the next run."""
        try:
            if not tap_allowed(store, token, limit, per_minute):
                self.rate_limited.set(True)
                return None
            return submit()
        except survey.StorageError as error:
            self.tap_fault.set(error.reason)
            return None

    def tap_feedback(self, outcome: str | None = None, messages: dict | None = None) -> None:
        """Under the buttons: why the last tap was not stored (the taps' limit, a database
        fault, in words), or what the store said of it (`outcome`, a SubmitResult's value,
        worded by `messages`)."""
        if self.rate_limited.pop(False):
            st.warning("Too many taps in a minute. Wait a moment, then try again.")
        fault = self.tap_fault.pop()
        if fault is not None:
            show_fault(fault, student=True, activity=self.name)
        worded = {result.value: text for result, text in (messages or {}).items()}
        if outcome in worded:
            st.warning(worded[outcome])

    def faults_shown(self, *, student: bool) -> contextlib.AbstractContextManager:
        """A block (or, as a decorator, a function) whose class-database fault is told in
        place, in words, instead of raised: a fragment's rerun is outside the page's own
        handler. The next rerun tries again."""
        return _faults_shown(self.name, student)

    @property
    def nickname_input(self) -> SessionValue[str]:
        """The nickname box's text (its widget key)."""
        return SessionValue(f"{self.name}_nickname_input")

    @property
    def nickname_problem(self) -> SessionValue[str]:
        """Why the last nickname was not saved."""
        return SessionValue(f"{self.name}_nickname_problem")

    def nickname(self, owner_id: int) -> SessionValue[str]:
        """This browser's nickname in one quiz or game, as stored ("" for none), read once."""
        return SessionValue(f"{self.name}_nickname_{owner_id}")

    @property
    def nickname_limit(self) -> str:
        """The rate limit's name for nickname changes (per student token)."""
        return f"{self.name}-nickname/token"

    @property
    def base_url_key(self) -> str:
        """The widget key of "Address of this app for students"."""
        return f"{self.name}_base_url"


def route(
    activity: Activity,
    open_store: Callable[[], Any],
    *,
    create: Callable[[Any], None],
    projector: Callable[[Any, str], None],
    phone: Callable[[Any, str], None],
) -> None:
    """The page, by its URL: `?join=CODE` a student's phone, `?manage=CODE` the projector
    (behind `lecturer_gate`), nothing the create view (or, when this browser runs an
    activity, its projector again). A database that fails, here or in a view, is explained
    in words to whoever is looking (student or lecturer); the page never shows a traceback."""
    params = st.query_params
    student = "join" in params
    activity.memory.keep_browser_in_step()
    try:
        try:
            store = open_store()
        except (survey.StorageError, OSError):
            st.title(activity.title)  # the views have their own titles; this one has none yet
            raise
        if student:
            phone(store, params["join"])
        elif "manage" in params:
            projector(store, params["manage"])
        else:
            resume(activity, store)
            create(store)
    except survey.StorageError as error:
        show_fault(error.reason, student=student, activity=activity.name)
    except OSError:  # the database folder cannot be created (read-only var/, no such disk)
        show_fault(survey.database.UNREACHABLE, student=student, activity=activity.name)


def resume(activity: Activity, store: ActivityStore) -> None:
    """On the page without parameters: when this session or browser runs an activity (its
    key still valid), open its projector, as if from the private link (a rerun; returns
    only when there is nothing to resume)."""
    managed = activity.memory.managed()
    if managed is None:
        return
    found = store.find(managed[0])
    if found is not None and store.check_admin_key(found.id, managed[1]):
        st.query_params.from_dict({"manage": found.code})
        st.rerun()


def created(activity: Activity, code: str, admin_key: str) -> None:
    """After "Create": remember the key (never shown in the address bar) and open the
    projector at its top (a rerun)."""
    activity.memory.remember(code, admin_key)
    activity.scroll_top.set(code)
    st.query_params.from_dict({"manage": code})
    st.rerun()


def start_new(activity: Activity) -> None:
    """The "start a new one" button (a callback): this browser stops returning to the
    activity it runs, and the page shows the create view."""
    activity.memory.forget()
    # every parameter but a control's (presenter mode, the seed): Streamlit refuses to clear
    # a parameter bound to a widget, and raised here when presenter mode was on
    for key in [key for key in st.query_params if key not in links.last_bound()]:
        del st.query_params[key]


def admin_key_for(activity: Activity, store: ActivityStore, code: str, row_id: int) -> str | None:
    """The admin key of this activity in this browser. A key arriving in the URL (the
    private link) is checked, kept in the session and a cookie of this browser, and removed
    from the address bar, so it is not on the projector (a wrong one is dropped silently); a
    reload or a new tab finds it in the cookie."""
    from_url = st.query_params.get("key")
    if from_url is not None:
        del st.query_params["key"]
        if store.check_admin_key(row_id, from_url):
            activity.memory.remember(code, from_url)
        # a wrong key says nothing of its own: the page then says what it says for any
        # code without a valid key (whether the code exists is not revealed)
    remembered = activity.memory.remembered(code)  # this session's, or this browser's
    if remembered is not None and store.check_admin_key(row_id, remembered):
        activity.memory.remember(code, remembered)  # this browser comes back to it
        return remembered
    return None


def lecturer_gate(
    activity: Activity, store: ActivityStore, limits_store: survey.SurveyStore, raw_code: str
) -> tuple[Any, str] | None:
    """(the activity, its admin key) for a browser that holds the key of `raw_code`, else
    None, having said so: the same words for a real code and an unknown one, the attempt
    counted as a guess (`limits_store`'s limits). A browser that holds no key at all for
    this code costs no lookup. Opens a just-created activity's projector at its top."""
    has_key = "key" in st.query_params or activity.memory.remembered(
        survey.normalize_join_code(raw_code) or ""
    )
    found = store.find(raw_code) if has_key else None
    admin_key = admin_key_for(activity, store, found.code, found.id) if found is not None else None
    if "key" in st.query_params:  # a key for a code that does not exist: out of the address
        del st.query_params["key"]
    if admin_key is None:
        st.title(activity.title)
        refused = lookup_refused(limits_store)
        if refused is not None:
            message = limit_message("guess", refused, activity=activity.name)
            st.warning(message, icon=":material/hourglass_top:")
            return None
        record_guess(limits_store)
        st.warning(activity.no_key_message)
        return None
    if activity.scroll_top.pop() == found.code:
        # the create button sat at the bottom of the page
        browser.scroll_to_top(f"{activity.name}-created-{found.code}")
    return found, admin_key


def joined(activity: Activity, store: Any, raw_code: str) -> tuple[Any, str] | None:
    """A phone at `?join=CODE` of a quiz, heist, game or check-in: (the activity, this browser's
    token), with its title and code written at the top; or None, having said why (over the
    guesses' limit, or no such code: counted as a guess). `store` has `find` and the class
    store as `store.store`."""
    limits = store.store
    refused = lookup_refused(limits)
    if refused is not None:
        st.warning(limit_message("guess", refused, activity=activity.name))
        return None
    found = store.find(raw_code)
    noun = ACTIVITIES[activity.name].split()[-1]
    if found is None:
        record_guess(limits)
        st.error(f"There is no {noun} with this code. Check the code on the projector.")
        return None
    st.caption(f"{text.plain(found.title)} · {noun} {found.code}")
    return found, session_token(limits)


class StudentAddress(NamedTuple):
    """The base of the links students open (`base`), as guessed (`default`, with a `note`
    for the lecturer when the guess is doubtful) and as the lecturer may have corrected it
    under "Address of this app for students"."""

    base: str
    default: str
    note: str


MAX_BASE_URL_CHARS = 200  # an address a QR code of the join link can still hold


def student_address(activity: Activity) -> StudentAddress:
    """The base of the students' links: the lecturer's correction when it is a usable
    address (http or https, at most MAX_BASE_URL_CHARS characters: a QR code holds ~2 KB,
    and a forged 100,000-character one crashed the QR encoder), else the guess."""
    default, note = base_url_guess(st.context.url, st.get_option("server.address"))
    typed = st.session_state.get(activity.base_url_key, default)
    usable = (
        isinstance(typed, str)
        and len(typed) <= MAX_BASE_URL_CHARS
        and urlsplit(typed).scheme in ("http", "https")
    )
    return StudentAddress(typed if usable else default, default, note)


def projector_row(activity: Activity, code: str, join_url: Callable[[str, str], str]):
    """The projector's row: the join block (code, QR, link: `join_url(base, code)`) in a
    narrow column beside a wide one for the activity's own view. Returns the students'
    address (for the lecturer's links below) and the wide column."""
    address = student_address(activity)
    join_column, main_column = st.columns([1, 3], gap="medium")
    with join_column:
        join_block(code, join_url(address.base, code))
    return address, main_column


def join_block(code: str, link: str) -> None:
    """The join code, a QR code of the link and the link itself, for the projector. The QR
    code is the PNG as made (Streamlit's "auto" re-encodes it as JPEG, whose artefacts blur
    the modules a phone's camera must read); the link breaks only after a "/" or before the
    "?" (a code block broke it mid-port)."""
    with st.container(key="pp-join"):  # its QR code's fullscreen button: style.css
        st.metric("Join code", code)
        st.image(
            qr_png(link),
            caption="Scan to join",
            width=QR_WIDTH,
            output_format="PNG",
            alt=f"QR code of the join link, {link}",  # axe's image-alt: an image needs a name
        )
        st.markdown(
            f'<p class="pp-join-link">{text.breakable_url(link)}</p>', unsafe_allow_html=True
        )


def lecturer_links(activity: Activity, code: str, admin_key: str, address: StudentAddress) -> None:
    """Below the projector: the address students use (folded away unless it could not be
    guessed), the private lecturer link, which says what its holder can do, and the button
    that starts a new activity (this browser stops returning to this one)."""
    default_base, note = address.default, address.note
    with st.expander("Address of this app for students", expanded=bool(note)):
        st.text_input(
            "Address of this app for students",
            value=default_base,
            key=activity.base_url_key,
            max_chars=MAX_BASE_URL_CHARS,
            label_visibility="collapsed",
            help="The start of the link students open. Change it if phones reach this "
            "computer under another name.",
        )
        if note:
            st.caption(note)
        typed = st.session_state.get(activity.base_url_key)
        if isinstance(typed, str) and typed != address.base:
            st.warning(
                "Not used: an address starts with http:// or https:// and has at most "
                f"{MAX_BASE_URL_CHARS} characters. The link and QR code use "
                f"{text.plain(address.base)}."
            )
    with st.expander("Private lecturer link — do not project"):
        st.markdown(activity.power)
        link = lecturer_url(address.base, activity.url_path, code, admin_key)
        st.code(link, language=None, wrap_lines=True)
    st.button(
        activity.new_label,
        key=f"{activity.name}_new",
        on_click=start_new,
        args=(activity,),
        icon=":material/add_circle:",
        help=activity.new_help,
    )


# --- nicknames (the quiz's and the game's, optional) ----------------------------------------------
NICKNAMES_PER_10_MINUTES = 10  # a browser may change its nickname this often


class NicknameStore(Protocol):
    """What the nickname box needs of a quiz's or game's store."""

    store: survey.SurveyStore

    def set_nickname(self, owner_id: int, session_token: str, nickname: object) -> str | None: ...

    def nickname(self, owner_id: int, session_token: str) -> str | None: ...


def nickname_problem(reason: str) -> str:
    """Why a nickname was refused, in a student's words (the store's reason names code
    points, as U+202E, for the logs and tests)."""
    if "printable" in reason:
        return (
            "Not saved: your nickname holds an invisible or control character (one that "
            "can hide or reverse text). Type it again with letters, digits or emoji."
        )
    if "visible" in reason:
        return "Not saved: your nickname shows as blank. Use at least one letter, digit or emoji."
    return f"Not saved: {reason}."


def save_nickname(activity: Activity, players: NicknameStore, owner_id: int, token: str) -> None:
    """Form callback: store the nickname typed (empty: none), within the change limit."""
    raw = activity.nickname_input.get("")
    activity.nickname_problem.pop()
    try:
        if not tap_allowed(
            players.store, token, activity.nickname_limit, NICKNAMES_PER_10_MINUTES, 600.0
        ):
            activity.nickname_problem.set("Too many changes: wait a few minutes, then try again.")
            return
        saved = players.set_nickname(owner_id, token, raw)
    except (ValueError, TypeError) as error:
        activity.nickname_problem.set(nickname_problem(str(error)))
        return
    except survey.StorageError as error:
        activity.nickname_problem.set(
            fault_message(error.reason, student=True, activity=activity.name)
        )
        return
    activity.nickname(owner_id).set(saved or "")
    activity.nickname_input.set(saved or "")


def nickname_box(
    activity: Activity,
    players: NicknameStore,
    owner_id: int,
    token: str,
    *,
    expanded: bool,
    scored: str,
) -> None:
    """An optional nickname in a closed box (open while `expanded`, when this browser has
    none): only the lecturer's scores table at the end ever shows it, beside `scored` ("how
    many questions you got right"), and only when the lecturer chooses to."""
    kept = activity.nickname(owner_id)
    if not kept.is_set():  # read once per session
        kept.set(players.nickname(owner_id, token) or "")
        activity.nickname_input.set(kept.get())
    current = kept.get()
    title = f"Nickname: {text.plain(current)}" if current else "Nickname (optional)"
    with st.expander(title, expanded=expanded and not current):
        with st.form(f"{activity.name}_nickname", border=False):
            st.text_input(
                f"Nickname (at most {survey.MAX_NICKNAME_CHARS} characters; empty: none)",
                max_chars=survey.MAX_NICKNAME_CHARS,
                key=activity.nickname_input.key,
            )
            st.form_submit_button(
                "Save nickname",
                on_click=save_nickname,
                args=(activity, players, owner_id, token),
            )
        problem = activity.nickname_problem.get()
        if problem:
            st.warning(text.plain(problem))
        st.caption(
            "You can stay anonymous. A nickname is shown only if your lecturer projects "
            f"the scores at the end, beside {scored}."
        )


# --- what an activity's precision buys a room, said on its create page --------------------------
ROOMS: tuple[int, ...] = (30, 200)  # the room sizes a create page states its intervals for


def too_wide_in(half_widths: Sequence[float], scales: Sequence[float]) -> str | None:
    """Where a 95% interval of ± `half_widths[i]` (one per room of ROOMS) is at least half
    of `scales[i]` wide on either side (a share's scale is 1, a count's is the room): the
    interval then spans every value, and the estimate would say next to nothing. "either
    room", "a room of 30", or None."""
    if len(half_widths) != len(ROOMS) or len(scales) != len(ROOMS):
        raise ValueError(f"one half-width and one scale per room of {ROOMS}")
    loose = [n for n, w, s in zip(ROOMS, half_widths, scales, strict=True) if 2 * w >= s]
    if not loose:
        return None
    return "either room" if len(loose) > 1 else f"a room of {loose[0]:,}"


def share_precision(half_width: Callable[[int], float]) -> tuple[list[str], str | None]:
    """A share's 95% interval in each room of ROOMS, from `half_width(n)` (± on the share):
    each as "± 26.4%" (at most ± 100%), and `too_wide_in` those rooms."""
    widths = [half_width(n) for n in ROOMS]
    shown = [f"±\u00a0{text.percent(min(w, 1.0))}" for w in widths]
    return shown, too_wide_in(widths, [1.0] * len(ROOMS))
