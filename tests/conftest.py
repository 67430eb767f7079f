"""Shared fixtures: AppTest for a page, a live `streamlit run` server, and system Chromium.

Browser tests use pytest-playwright's `page` fixture (a fresh 1280x800 context per test);
the overrides below point it at Debian's /usr/bin/chromium, so no browser is ever
downloaded. Without that binary the browser tests skip, with the reason shown by `-ra`.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import itertools
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit import config as streamlit_config  # noqa: E402
from streamlit.components.v2 import manifest_scanner  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402  (after the sys.path line above)

# Every new AppTest scans every installed distribution's metadata for Streamlit components
# (streamlit/testing/v1/app_test.py: BidiComponentManager.discover_and_register_components):
# 0.11 s of CPU each, for the same answer every time (the test venv installs none), and the
# suite makes thousands of AppTests. The installed packages do not change during a run: the
# scan is made once.
_scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)
manifest_scanner.scan_component_manifests = lambda: list(_scan_component_manifests())

# AppTests run in this process: their exceptions keep their messages, so that a failing
# `assert not at.exception, at.exception` says why. The servers the browser tests start read
# .streamlit/config.toml, which shows no error detail to any browser.
streamlit_config.set_option("client.showErrorDetails", "full")

APP = ROOT / "app.py"
PAGES = ROOT / "lessons"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
APPTEST_TIMEOUT_S = 30
SERVER_START_TIMEOUT_S = 60


def page_apptest(page_file: str) -> AppTest:
    """An AppTest running one file under lessons/ on its own (call .run() on it)."""
    return AppTest.from_file(str(PAGES / page_file), default_timeout=APPTEST_TIMEOUT_S)


def app_apptest() -> AppTest:
    """An AppTest running the whole app (app.py with its navigation)."""
    return AppTest.from_file(str(APP), default_timeout=APPTEST_TIMEOUT_S)


@pytest.fixture
def apptest() -> Callable[[str], AppTest]:
    """`apptest("laplace/page.py").run()` runs lessons/laplace/page.py under AppTest."""
    return page_apptest


# A browser test waits on a real Chromium and a real server sharing two cores: on a loaded
# machine a wait can run out although nothing is wrong. Browser tests (only they) get two
# more tries; a real failure fails all three and still turns the run red.
BROWSER_RERUNS = 2
# Playwright's default 5 s for an `expect` is tight for a cold server on two busy cores;
# a real failure still fails, only later.
expect.set_options(timeout=15_000)


# What a run costs, printed by the run itself at its end: the SLOWEST tests (setup, call and
# teardown together) and their total, against the time of every test. A test over BUDGET_S
# says why it must in a `budget` marker (pyproject.toml); one that does not is named.
SLOWEST = 15
BUDGET_S = 20.0


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and config.getoption("testrunuid", None) is None:
        # the controller names the run, so that it can remove what its workers shared
        # (autograder_helpers.autograder_venv) when the run ends
        with contextlib.suppress(ValueError):
            config.option.testrunuid = uuid.uuid4().hex


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return
    spent: dict[str, float] = {}
    why: set[str] = set()
    for reports in terminalreporter.stats.values():
        for report in reports:
            if isinstance(report, pytest.TestReport):
                spent[report.nodeid] = spent.get(report.nodeid, 0.0) + report.duration
                if "budget" in report.keywords:
                    why.add(report.nodeid)
    if not spent:
        return
    if os.environ.get("PP_DURATIONS"):  # every test's seconds, for a look at the whole run
        Path(os.environ["PP_DURATIONS"]).write_text(json.dumps(spent, indent=0))
    slowest = sorted(spent.items(), key=lambda item: -item[1])[:SLOWEST]
    total = sum(spent.values())
    write = terminalreporter.write_line
    terminalreporter.section(f"the {len(slowest)} slowest tests")
    for nodeid, seconds in slowest:
        write(f"{seconds:7.1f} s  {nodeid}")
    top = sum(seconds for _, seconds in slowest)
    write(f"{top:7.1f} s  together: {top / total:.0%} of {total:,.0f} s of test time")
    unexplained = [n for n, s in spent.items() if s > BUDGET_S and n not in why]
    for nodeid in unexplained:
        write(f"over {BUDGET_S:g} s without a budget marker saying why: {nodeid}")


# A test process's full collections stay as small as the app's. The app freezes what its
# imports made (lessons/preload.py) and collects in full every 5 s and after each upload; a
# test process's heap grows with every test file (imported modules, caches, pytest's reports:
# 36,000 tracked objects after collection, 520,000 at the end), and each full collection
# walked all of it: 0.35 s each by the end, 27 of 172 core-s of the lesson and ui tests in
# one process. What a test file leaves alive once its tests and fixtures are done lives on:
# frozen after one collection, as the app does (2.8 s of collections instead of 27).
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    yield  # the test's fixtures are torn down
    if nextitem is None or nextitem.path != item.path:
        gc.collect()
        gc.freeze()


def pytest_sessionfinish(session: pytest.Session) -> None:
    run = session.config.getoption("testrunuid", None)
    if run and not hasattr(session.config, "workerinput"):
        from autograder_helpers import shared_venv_path

        where = shared_venv_path(run)
        shutil.rmtree(where, ignore_errors=True)
        Path(f"{where}.lock").unlink(missing_ok=True)


# Test files that share one PostgreSQL database (SURVEY_TEST_PG_URL), whose tests also
# rewrite its schema table: never two of them at once.
SHARED_DATABASE_FILES = ("test_store.py", "test_quiz_store.py", "test_store_limits.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that drives a real browser carries the `browser` marker (and reruns).

    The order of the files (each keeps its own order) is what `make test`'s two workers take
    them in, each the next file when done with one (pytest_xdist_make_scheduler below):
    long ones first, so that neither worker is left with one at the end, and a file with
    browser tests next to one without, so that two Chromiums rarely draw at once. First the
    files with a slow browser test (the catalogue sweep, about 3 minutes; the session-memory
    test, a minute mostly spent waiting), then, turn about, a file without browser tests
    (the slow ones first) and one with (those with the most first)."""
    browser_tests: dict[Path, int] = {}
    slow: set[Path] = set()
    slow_browser: set[Path] = set()
    for item in items:
        browser_tests.setdefault(item.path, 0)
        is_slow = item.get_closest_marker("slow") is not None
        if {"page", "browser"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS, reruns_delay=1))
            browser_tests[item.path] += 1
            if is_slow:
                slow_browser.add(item.path)
        if is_slow:
            slow.add(item.path)
    files = list(browser_tests)  # in collection order
    first = [path for path in files if path in slow_browser]
    with_browser = sorted(
        (path for path in files if browser_tests[path] and path not in slow_browser),
        key=lambda path: -browser_tests[path],
    )
    without = sorted(
        (path for path in files if not browser_tests[path]), key=lambda path: path not in slow
    )
    turns = [*first]
    for pair in itertools.zip_longest(without, with_browser):
        turns.extend(path for path in pair if path is not None)
    position = {path: i for i, path in enumerate(turns)}
    items.sort(key=lambda item: position[item.path])  # stable: each file keeps its order


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """pytest-xdist's workers take a test file at a time (its module-level caches and servers
    serve all of its tests, in order, in one worker), and the files that share the
    PostgreSQL database take turns as one unit. (pytest-xdist 3.8's `--dist loadgroup`
    groups nothing under pytest 9.2: it renames `item._nodeid`, which pytest 9 no longer
    reads, so one file's tests ran on both workers.)"""
    from xdist.scheduler import LoadScopeScheduling

    # Take the files in the order above, not (xdist's default) the files with the most tests
    # first: that started the 2,542 quick bad-input tests first and the sweep a minute late.
    config.option.loadscopereorder = False

    class FileScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = Path(nodeid.split("::")[0])
            shared = path.parent.name == "survey" and path.name in SHARED_DATABASE_FILES
            return "postgresql" if shared else str(path)

    return FileScheduling(config, log)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200 and response.read().strip() == b"ok"
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


@contextlib.contextmanager
def serve_app(log_dir: Path, script: Path = APP) -> Iterator[str]:
    """Run `script` (app.py unless told) with `streamlit run` on a free loopback port; yield
    its base URL once /_stcore/health answers, and stop the server afterwards."""
    with serve_app_process(log_dir, script) as (base_url, _server):
        yield base_url


@contextlib.contextmanager
def serve_app_process(
    log_dir: Path, script: Path = APP, extra_args: tuple[str, ...] = (), root: Path = ROOT
) -> Iterator[tuple[str, subprocess.Popen]]:
    """`serve_app` with extra `streamlit run` options, yielding (base URL, the server's
    process) — for tests that read the server's memory in /proc. `root` serves another
    checkout's app (bench/bench_browser.py --against: an earlier commit, back to back)."""
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    log_path = log_dir / "server.log"
    # The course's own app starts as `make run` starts it (deploy/serve.py: its st.App, with
    # the message budget and the preload); other scripts with `streamlit run`.
    start = (
        [sys.executable, str(root / "deploy" / "serve.py")]
        if script == APP
        else [sys.executable, "-m", "streamlit", "run", str(script)]
    )
    command = [
        *start,
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",  # a file saved mid-run must not be re-imported
        *extra_args,
    ]
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, cwd=root, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while not _healthy(f"{base_url}/_stcore/health"):
            if server.poll() is not None or time.monotonic() > deadline:
                log_tail = log_path.read_text(errors="replace")[-3000:]
                pytest.fail(f"streamlit did not become healthy at {base_url}:\n{log_tail}")
            time.sleep(0.25)
        yield base_url, server
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


@pytest.fixture(scope="session")
def app_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the whole test session; yields its base URL."""
    with serve_app(tmp_path_factory.mktemp("streamlit")) as base_url:
        yield base_url


@pytest.fixture
def fresh_app_server(tmp_path: Path) -> Iterator[str]:
    """A server of this test's own, so that the test sees its very first request."""
    with serve_app(tmp_path) as base_url:
        yield base_url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Launch Debian's Chromium (never a Playwright-downloaded one), headless."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: `sudo apt-get install chromium` (make test does it)")
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    """Desktop-sized, 1280×800."""
    return {**browser_context_args, "viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="session")
def _one_tab(browser: Browser, browser_context_args: dict) -> Iterator[BrowserContext]:
    context = browser.new_context(**browser_context_args)
    yield context
    context.close()


@pytest.fixture
def page(_one_tab: BrowserContext, browser_context_args: dict) -> Iterator[Page]:
    """The browser tab a test drives (pytest-playwright's `page`, overridden): one tab for
    the whole run, handed to each test as a new one would be: no cookies, no stored data, no
    other tab open, 1280×800, on about:blank.

    A new tab starts Streamlit's front end from nothing: 4.0 s of CPU to open a lesson in a
    new context against 1.7 s in a tab that has opened one before (measured, the definition
    page, five loads each), for each of the ~40 tests that use this fixture. A test that
    needs a second browser at once (another student, a phone) takes `another_device`."""
    context = _one_tab
    tabs = context.pages
    tab = tabs[0] if tabs else context.new_page()
    for other in tabs[1:]:
        other.close()
    as_a_new_visitor(tab)
    context.clear_permissions()
    tab.set_viewport_size(browser_context_args["viewport"])
    yield tab
    for other in context.pages:  # tabs the test opened: none goes on polling its server
        if other is not tab:
            other.close()
    if not tab.is_closed():
        tab.unroute_all(behavior="ignoreErrors")
        _leave(tab)  # its server may stop now: no reconnecting in the background


@pytest.fixture
def another_device(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Another browser (a phone, a second student, the projector beside a phone):
    `another_device(viewport=...)` opens a tab in a context of its own, closed when the test
    ends. A context left open keeps its page connected: a classroom page went on polling the
    server every 2 s for the rest of the run (200 s of CPU in one make test)."""
    contexts: list[BrowserContext] = []

    def open_device(**context_args) -> Page:
        contexts.append(browser.new_context(**context_args))
        return contexts[-1].new_page()

    yield open_device
    for context in contexts:
        context.close()


def _leave(tab: Page) -> None:
    """Go to about:blank and forget what the tab's pages stored for their server.

    The page is left first, and the storage cleared from the server's health page, which
    runs no script: a lesson's progress script (ui/progress.py) goes on looking at its page
    for a few seconds after it opens and writes its record back, so storage cleared under
    it was written again before the tab reached about:blank (the next test then met another
    lesson's record). A server that has already stopped (a test that started its own)
    serves no health page: what its pages stored stays, under an address no later server
    has."""
    address = urlsplit(tab.url)
    tab.goto("about:blank")
    if address.scheme not in ("http", "https"):
        return
    try:
        tab.goto(f"{address.scheme}://{address.netloc}/_stcore/health")
    except PlaywrightError:  # the server has stopped: Chromium shows its error page
        tab.wait_for_url("chrome-error://**")
    else:
        tab.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    tab.goto("about:blank")


def as_a_new_visitor(tab: Page) -> None:
    """The tab on about:blank with nothing of what its pages stored (cookies, local and
    session storage): the next page it opens meets a browser it has never seen. Its
    context's cache of the app's code is kept: a phone that joins opens no faster or slower
    for it, and the app cannot tell."""
    _leave(tab)
    tab.context.clear_cookies()


# The class survey's database for this test session (and every server it starts): never the
# repository's var/. Set before any fixture, so servers and tests agree on it.
# Each process that imports this file (the controller and every worker) has its own, removed
# when it exits: a run left one folder per process in /tmp (133 after a day of runs).
SURVEY_DB_DIR = Path(tempfile.mkdtemp(prefix="pp-survey-tests-"))
os.environ["SURVEY_DB_DIR"] = str(SURVEY_DB_DIR)
atexit.register(shutil.rmtree, SURVEY_DB_DIR, ignore_errors=True)


# The survey database's files as they were after the last clearing of its limits: (name,
# size, mtime in ns) of the file and its write-ahead log.
_LIMITS_CLEARED_AT: list[tuple] = []


def _survey_files_now(database: Path) -> list[tuple]:
    found = []
    for path in (database, database.with_name(database.name + "-wal")):
        with contextlib.suppress(FileNotFoundError):
            stat = path.stat()
            found.append((path.name, stat.st_size, stat.st_mtime_ns))
    return found


@pytest.fixture(autouse=True)
def _fresh_survey_rate_limits() -> Iterator[None]:
    """Every test starts with no rate-limit events: limits are kept in the survey database,
    which all tests of the session share, and AppTest sessions all come from
    the same "local" address. (A test that names its own database starts empty anyway.)

    The database is opened only when its file or its write-ahead log changed since the
    last clearing: most tests never touch the store (opening it for each of the ~5,300
    tests cost ~2 ms a test, ~12 s a run)."""
    database = SURVEY_DB_DIR / "survey.sqlite3"
    files = _survey_files_now(database)
    if files and files != _LIMITS_CLEARED_AT:
        with contextlib.closing(sqlite3.connect(database, timeout=10)) as conn, conn:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
            if "survey_limits" in tables:
                conn.execute("DELETE FROM survey_limits")
        _LIMITS_CLEARED_AT[:] = _survey_files_now(database)
    yield


# --- The classroom pages (class survey, class quiz): a store of their own, a browser's cookies


PG_URL = os.environ.get("SURVEY_TEST_PG_URL", "")


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=pytest.mark.skipif(
                not PG_URL,
                reason="PostgreSQL tests need SURVEY_TEST_PG_URL "
                '(run `eval "$(bash ci/postgres.sh)"` as root first)',
            ),
        ),
    ]
)
def db_url(request, tmp_path) -> str:
    """A class database for a store test, once on each: a fresh SQLite file, and the
    PostgreSQL server SURVEY_TEST_PG_URL names (CI starts one; shared by the tests, so a test
    reads only its own activity's rows)."""
    return f"sqlite:///{tmp_path / 'survey.sqlite3'}" if request.param == "sqlite" else PG_URL


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A class store in a fresh SQLite file, which the pages open too (SURVEY_DB_URL). A
    test module with a store of its own (tests/survey) overrides it."""
    import survey

    url = f"sqlite:///{tmp_path / 'survey.sqlite3'}"
    monkeypatch.setenv("SURVEY_DB_URL", url)
    opened = survey.SurveyStore(url)
    yield opened
    opened.dispose()


@pytest.fixture
def jar(monkeypatch) -> dict[str, str]:
    """The cookies a browser sends when its next session opens (`ui.browser.cookie`), by
    name without the prefix."""
    from ui import browser

    cookies: dict[str, str] = {}
    monkeypatch.setattr(browser, "cookie", lambda name: cookies.get(name))
    return cookies


@pytest.fixture(scope="session")
def people():
    """The bundled census as data/census.py loads it (32,561 people)."""
    from data.census import load_census

    return load_census()
