"""Helpers for browser tests: open a page, wait until its script run has finished, move a
slider with the keyboard.

How "the run has finished" is detected (Streamlit 1.67): the app root
`<div data-testid="stApp">` carries two attributes that Streamlit keeps up to date for its
own end-to-end tests:

- `data-test-connection-state` — "CONNECTED" once the websocket is up;
- `data-test-script-state` — "initial" before the first run, "running" (or
  "rerunRequested") while the script runs, and "notRunning" when it is done.

A finished run is therefore
`[data-testid="stApp"][data-test-connection-state="CONNECTED"][data-test-script-state="notRunning"]`
with `[data-testid="stMain"]` present, no element still marked `data-stale="true"` and no
`stSkeleton` left (the placeholder drawn while the code for a kind of element loads, which
outlives the run's end on a page's first run).

After an interaction the state may still read "notRunning" from the *previous* run, a
fast rerun can go running -> notRunning between two Playwright polls, and a very fast one
(every message handled in one React commit) never changes the attribute at all. So
`open_page` installs an init script that counts runs two ways: a MutationObserver counts
every time the script state leaves the idle state (`window.__ppRunsStarted`), and a
listener on the app's websocket counts every successful "script finished" message
(`window.__ppRunsFinished`). `expect_rerun` waits for either count to grow, then for the
finished selector. Use it around any interaction:

    with expect_rerun(page):
        page.get_by_role("button", name="Draw again").click()
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from streamlit.proto.Delta_pb2 import Delta
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from lessons.catalogue import LESSONS

RUN_TIMEOUT_MS = 60_000
RERUN_START_TIMEOUT_MS = 20_000
APP = '[data-testid="stApp"]'
FINISHED = f'{APP}[data-test-connection-state="CONNECTED"][data-test-script-state="notRunning"]'
SKELETON = '[data-testid="stSkeleton"]'
# The classroom panel atop every page (ui/classroom.py): a fold, closed until clicked.
CLASSROOM = ".st-key-pp-classroom"
CLASSROOM_SEED = f'{CLASSROOM} [data-testid="stNumberInput"] input'

COUNT_RUNS = """
(() => {
  if (window.__ppRunsStarted !== undefined) return;
  window.__ppRunsStarted = 0;
  window.__ppRunsFinished = 0;
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.target.getAttribute("data-testid") !== "stApp") continue;
      if (record.oldValue === "notRunning" || record.oldValue === "initial") {
        window.__ppRunsStarted += 1;
      }
    }
  }).observe(document, {
    subtree: true,
    attributes: true,
    attributeOldValue: true,
    attributeFilter: ["data-test-script-state"],
  });
  // A run that ends within one React commit never changes the attribute above, so runs
  // are also counted from the wire: a ForwardMsg whose top-level field 6 (script_finished)
  // says FINISHED_SUCCESSFULLY (0) or FINISHED_FRAGMENT_RUN_SUCCESSFULLY (3). Counted one
  // task later, after Streamlit's own listener has handled the message.
  const varint = (bytes, at) => {
    let value = 0, shift = 0, byte;
    do { byte = bytes[at++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; }
    while (byte & 0x80);
    return [value, at];
  };
  const finishedRun = (buffer) => {
    const bytes = new Uint8Array(buffer);
    let at = 0, tag, value;
    while (at < bytes.length) {
      [tag, at] = varint(bytes, at);
      const field = Math.floor(tag / 8), wire = tag % 8;
      if (wire === 0) {
        [value, at] = varint(bytes, at);
        if (field === 6) return value === 0 || value === 3;
      } else if (wire === 2) { [value, at] = varint(bytes, at); at += value; }
      else if (wire === 1) at += 8;
      else if (wire === 5) at += 4;
      else return false;
    }
    return false;
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (event.data instanceof ArrayBuffer && finishedRun(event.data)) {
          setTimeout(() => { window.__ppRunsFinished += 1; }, 0);
        }
      });
    }
  };
})();
"""


def wait_for_run(page: Page, *, timeout_ms: int = RUN_TIMEOUT_MS) -> None:
    """Block until the app is connected, its script has finished, the main area exists and
    every element the run sent is drawn."""
    page.wait_for_selector(FINISHED, state="attached", timeout=timeout_ms)
    page.wait_for_selector('[data-testid="stMain"]', state="attached", timeout=timeout_ms)
    # Elements from the previous run stay marked stale until the run ends; none may remain.
    expect(page.locator('[data-stale="true"]')).to_have_count(0, timeout=timeout_ms)
    # Streamlit loads the code that draws each kind of element (a slider, a chart, a metric)
    # when a page first shows one, with a grey skeleton in its place meanwhile: a lesson's
    # first run reads "notRunning" 0.2-0.6 s before its sliders, metrics and charts exist
    # (34 skeletons on "Why anonymisation fails" on a phone). None may remain.
    expect(page.locator(SKELETON)).to_have_count(0, timeout=timeout_ms)


def runs_seen(page: Page) -> list[int]:
    """[runs started, runs finished] since `open_page` ([-1, -1] if it did not open the page).
    Pass it to `RAN_SINCE` to wait for the next run."""
    return page.evaluate("[window.__ppRunsStarted ?? -1, window.__ppRunsFinished ?? -1]")


# A JS predicate for `page.wait_for_function(RAN_SINCE, arg=runs_seen(page))`: a run has
# started or finished since those counts were read.
RAN_SINCE = "([s, f]) => window.__ppRunsStarted > s || window.__ppRunsFinished > f"


@contextlib.contextmanager
def expect_rerun(page: Page, *, timeout_ms: int = RUN_TIMEOUT_MS) -> Iterator[None]:
    """Wrap an interaction that must trigger a rerun; return when that rerun has finished.

    It first waits until no run is in progress: an interaction during a run makes Streamlit
    restart that run without passing through "notRunning", so no new start is counted (a
    false "did not start a rerun" on a busy machine)."""
    wait_for_run(page)
    before = runs_seen(page)
    yield
    if min(before) >= 0:
        try:
            page.wait_for_function(RAN_SINCE, arg=before, timeout=RERUN_START_TIMEOUT_MS)
        except PlaywrightTimeoutError as error:
            raise AssertionError(
                "the interaction did not start a rerun (was the widget already at that value?)"
            ) from error
    wait_for_run(page, timeout_ms=timeout_ms)


def open_page(page: Page, base_url: str, url_path: str = "") -> None:
    """Navigate to `base_url/url_path` (a Lesson's url_path; "" for Home) and wait for the
    first run to finish.

    A new session shows "notRunning" before its first run has even started, so it first
    waits for that run to start (counted by the init script), then for it to end."""
    if not getattr(page, "_pp_counts_runs", False):  # once per tab (the tab is reused)
        page.add_init_script(COUNT_RUNS)
        page._pp_counts_runs = True
    page.goto(f"{base_url.rstrip('/')}/{url_path.lstrip('/')}", wait_until="domcontentloaded")
    page.wait_for_function(
        "() => window.__ppRunsStarted >= 1 || window.__ppRunsFinished >= 1",
        timeout=RUN_TIMEOUT_MS,
    )
    wait_for_run(page)


# Another page of the app opened from its menu (a link in the sidebar, as a student opens it):
# the same document and session, no reload. Visiting every page this way costs the browser
# half the CPU of loading each (36 s against 70 s for the catalogue on a laptop screen).
CLICK_MENU_LINK = """(path) => {
  const link = [...document.querySelectorAll('[data-testid="stSidebar"] a[href]')]
    .find((a) => new URL(a.href).pathname.replace(/^\\/|\\/$/g, '') === path);
  if (!link) return false;
  link.click();
  return true;
}"""
ARRIVED = """([finished, path]) => window.__ppRunsFinished > finished
  && location.pathname.replace(/^\\/|\\/$/g, '') === path"""


def navigate(page: Page, url_path: str) -> None:
    """Open the page at `url_path` (a Lesson's url_path; "" for Home) from the app's menu, in
    a tab that `open_page` opened, and wait for its run to finish."""
    finished = page.evaluate("() => window.__ppRunsFinished")
    if not page.evaluate(CLICK_MENU_LINK, url_path):
        raise AssertionError(f"the menu has no link to /{url_path}")
    page.wait_for_function(ARRIVED, arg=[finished, url_path], timeout=RUN_TIMEOUT_MS)
    wait_for_run(page)


def assert_no_exception(page: Page) -> None:
    """No Streamlit exception box (a traceback shown to the user) anywhere on the page."""
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)


def move_slider_with_keyboard(
    page: Page, label_substring: str | re.Pattern, key: str = "ArrowRight", times: int = 1
) -> None:
    """Focus the slider (st.slider or st.select_slider) whose label contains
    `label_substring`, press `key` `times` times, and wait for the rerun to finish.

    Each key press is its own rerun, so the presses are waited for one at a time."""
    slider = page.locator('[data-testid="stSlider"]').filter(has_text=label_substring)
    expect(slider).to_have_count(1)
    thumb = slider.get_by_role("slider").first
    for _ in range(times):
        with expect_rerun(page):
            thumb.focus()
            thumb.press(key)


def press_from_the_keyboard(page: Page, target: Locator, key: str, *, limit: int = 80) -> None:
    """Reach `target` with Tab alone, from the top of the page (as a student without a mouse
    does), and press `key` on it ("Enter", " "). Fails if Tab never gets there."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(limit):
        page.keyboard.press("Tab")
        # a component's shadow root keeps its own focused element (components v2)
        if target.evaluate("(e) => e === e.getRootNode().activeElement"):
            page.keyboard.press(key)
            return
    raise AssertionError(f"{limit} Tab presses never reached {target}")


# A confirmation a screen reader announces: Streamlit's st.success/st.info are role="status"
# (a polite live region, WCAG 4.1.3).
STATUS = '[role="status"]'


def lesson_url(file: str) -> str:
    """The url_path of the lesson in lessons/`file` (for `open_page`)."""
    return next(lesson.url_path for lesson in LESSONS if lesson.file == file)


def metric(page: Page, label: str) -> Locator:
    """The st.metric whose text contains `label` (label and value)."""
    return page.locator('[data-testid="stMetric"]').filter(has_text=label)


def metric_value(page: Page, label: str) -> Locator:
    """The value of the st.metric whose text contains `label`."""
    return metric(page, label).locator('[data-testid="stMetricValue"]')


def open_lesson(page: Page, base_url: str, file: str) -> None:
    """`open_page` for the lesson in lessons/`file`."""
    open_page(page, base_url, lesson_url(file))


def link_params(page: Page) -> dict[str, list[str]]:
    """The page's current link (query) parameters, name -> values, as `parse_qs` reads them."""
    return parse_qs(urlparse(page.url).query)


def open_classroom(page: Page) -> Locator:
    """Open the classroom panel atop the page (if it is closed) and return it, at rest: the
    fold opens with an animation of about half a second, and a click inside it before the end
    could land on a DIV (the copy-link tests' rare rerun in full runs, its trace: "click on
    DIV in stHtml")."""
    panel = page.locator(CLASSROOM)
    if not panel.locator("details[open]").count():
        panel.locator("summary").click()
    expect(panel.get_by_text("Presenter mode", exact=True)).to_be_visible()
    wait_at_rest(page)
    return panel


def enter_seed(page: Page, seed: str) -> None:
    """Type `seed` into the classroom panel's seed box, press Enter, wait for the rerun."""
    open_classroom(page)
    box = page.locator(CLASSROOM_SEED)
    with expect_rerun(page):
        box.fill(seed)
        box.press("Enter")


# Presenter mode hides the toolbar, but the header strip (the sidebar's open button) stays.
HEADER_PX = 60

# The chart a slider drives: a chart beside it (overlapping it vertically), else the first
# chart after it in the page; null if there is none. A JS function of the slider's element.
DRIVEN_CHART = """(slider) => {
  const s = slider.getBoundingClientRect();
  const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')];
  const beside = charts.find((c) => {
    const r = c.getBoundingClientRect();
    return r.top < s.bottom && r.bottom > s.top;
  });
  return beside || charts.find(
    (c) => slider.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) || null;
}"""


# A chart's description: the current numbers in words that ui/template.Template.show writes
# right after it for a screen reader (its own aria-label stays fixed).
CHART_DESCRIPTION = """(chart) => {
  const next = chart.closest('[data-testid="stElementContainer"]').nextElementSibling;
  const words = next && next.querySelector('.pp-chart-description');
  return words ? words.textContent : null;
}"""


# Calls visit(svg, title, shown) for each chart of the page's main area that is drawn:
# its svg, its title's lines joined ("(untitled)"), and whether an element of it is drawn
# (neither it nor a group above it hidden, transparent or without fill).
_EACH_CHART = """(visit) => {
  const charts = '[data-testid="stMain"] [data-testid=stVegaLiteChart]';
  for (const chart of document.querySelectorAll(charts)) {
    const svg = chart.querySelector('svg');
    if (!svg || svg.getBoundingClientRect().width === 0) continue;
    const title = [...svg.querySelectorAll('g.role-title text')].map((t) => t.textContent)
      .join(' ') || '(untitled)';
    const shown = (element) => {
      for (let node = element; node && node !== svg; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.display === 'none' || style.visibility === 'hidden') return false;
        if (parseFloat(style.opacity) === 0 || parseFloat(style.fillOpacity) === 0) return false;
      }
      return true;
    };
    visit(svg, title, shown);
  }
}"""

# What a chart writes that cannot be read: two of its texts (a label, a value, an axis's
# numbers) written over each other, or a text running past the chart's own edge (where the
# SVG cuts it). Over each other: their boxes share more than 2 px across and more than a
# quarter of the lower one's height (a box is a line's height, taller than its letters: two
# lines of a title, or labels a line apart, touch without meeting). Texts turned on their
# side (a category axis's slanted labels) are left out: their boxes overlap where the
# letters do not. One line each, "<chart title>: …"; found
# before (tests/ui/test_browser_chart_texts.py): a point's label over the y axis's numbers,
# ±ε over each other, a rule's label cut at the right edge.
CHART_TEXT_CLASHES = """() => {
  const out = [];
  (EACH_CHART)((svg, title, shown) => {
    const edge = svg.getBoundingClientRect();
    const upright = (t) => !/rotate\\((?!0)/.test(t.getAttribute('transform') || '');
    const texts = [...svg.querySelectorAll('text')]
      .filter((t) => t.textContent.trim() && upright(t))
      .map((t) => [t, t.getBoundingClientRect()])
      .filter(([t, r]) => r.width >= 1 && r.height >= 1 && shown(t));
    texts.forEach(([a, r], i) => {
      if (r.left < edge.left - 1 || r.right > edge.right + 1) {
        out.push(`${title}: "${a.textContent}" runs past the chart's edge`);
      }
      for (const [b, s] of texts.slice(i + 1)) {
        const across = Math.min(r.right, s.right) - Math.max(r.left, s.left);
        const down = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
        if (across > 2 && down > Math.min(r.height, s.height) / 4) {
          out.push(`${title}: "${a.textContent}" over "${b.textContent}"`);
        }
      }
    });
  });
  return out;
}""".replace("EACH_CHART", _EACH_CHART)


# Every text of every chart a line of the chart's own marks runs through (a curve, a rule, an
# error bar; not the axes' grid): sampled every 1.5 px along each line, a point inside the
# text's box (its middle 40% of the height, 2 px in from either end) crosses it (a mark
# drawn with clip, only inside its clip rectangle). Each as
# 'title: "text" crossed by a line'. Found with it: "lowest total: m = 80" crossed by the
# total's climb, "true value" by a rule 2 SD away, "ε = 0.01" by a curve rising to 100%.
CHART_TEXT_CROSSED = """() => {
  const out = [];
  (EACH_CHART)((svg, title, shown) => {
    const texts = [...svg.querySelectorAll('text')]
      .filter((t) => t.textContent.trim() && shown(t))
      .map((t) => [t, t.getBoundingClientRect()])
      .filter(([t, r]) => r.width >= 1 && r.height >= 1);
    const marks = 'g.mark-line.role-mark path, g.mark-rule.role-mark line, '
      + 'g.mark-rule.role-mark path';
    const points = [];
    for (const line of svg.querySelectorAll(marks)) {
      const style = getComputedStyle(line);
      if (!shown(line) || style.stroke === 'none' || parseFloat(style.strokeOpacity) === 0) {
        continue;
      }
      // a mark drawn with clip: only what lies inside its group's clip rectangle shows (the
      // attribute is url("<page's address>#clip3"); ids repeat between charts)
      const clipped = line.closest('[clip-path]');
      const id = clipped && (clipped.getAttribute('clip-path').match(/#([^"')]+)/) || [])[1];
      const rect = id && svg.querySelector(`[id="${id}"] rect`);
      let box = null;
      if (rect) {
        const m = clipped.getScreenCTM();
        const x = rect.x.baseVal.value, y = rect.y.baseVal.value;
        const a = new DOMPoint(x, y).matrixTransform(m);
        const b = new DOMPoint(x + rect.width.baseVal.value, y + rect.height.baseVal.value)
          .matrixTransform(m);
        box = [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)];
      }
      const ctm = line.getScreenCTM();
      const length = line.getTotalLength();
      const steps = Math.min(4000, Math.ceil(length / 1.5));
      for (let i = 0; i <= steps; i++) {
        const at = line.getPointAtLength((length * i) / Math.max(steps, 1));
        const p = new DOMPoint(at.x, at.y).matrixTransform(ctm);
        if (!box || (p.x >= box[0] && p.x <= box[2] && p.y >= box[1] && p.y <= box[3])) {
          points.push(p);
        }
      }
    }
    for (const [text, r] of texts) {
      const top = r.top + r.height * 0.3, bottom = r.bottom - r.height * 0.3;
      if (points.some((p) => p.x > r.left + 2 && p.x < r.right - 2 && p.y > top
          && p.y < bottom)) {
        out.push(`${title}: "${text.textContent}" crossed by a line`);
      }
    }
  });
  return out;
}""".replace("EACH_CHART", _EACH_CHART)


# Two frames: what a page just drew has been laid out and painted.
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def chart_text_problems(page: Page) -> list[str]:
    """After two frames, every chart's text written over another (CHART_TEXT_CLASHES) or
    crossed by one of its lines (CHART_TEXT_CROSSED): one line each; none, an empty list."""
    page.evaluate(TWO_FRAMES)
    return page.evaluate(CHART_TEXT_CLASHES) + page.evaluate(CHART_TEXT_CROSSED)


def control_to_chart_px(page: Page, control: str) -> tuple[float, float]:
    """For the slider whose label contains `control` and the chart it drives (a chart
    beside it, i.e. overlapping it vertically, else the first chart after it in the page):
    the height of the band that holds both, and the room a screen has under the header. The
    slider and the whole chart fit on one screen when the first is at most the second."""
    slider = page.locator('[data-testid="stSlider"]').filter(has_text=control).first
    slider.scroll_into_view_if_needed()
    span = slider.evaluate(
        f"""(slider) => {{
            const chart = ({DRIVEN_CHART})(slider);
            if (!chart) return null;
            const s = slider.getBoundingClientRect(), r = chart.getBoundingClientRect();
            return Math.max(r.bottom, s.bottom) - Math.min(r.top, s.top);
        }}"""
    )
    assert span is not None, f"no chart beside or after the slider {control!r}"
    return float(span), float(page.viewport_size["height"] - HEADER_PX)


# The text of an element, line by line as the browser laid it out (one rect per character;
# a space at a line's end, drawn with no width, stays on that line).
LINES_OF_TEXT = """e => {
  const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  const lines = [];
  let top = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getBoundingClientRect();
      if (rect.width === 0 && node.data[i] === " " && lines.length) {
        lines[lines.length - 1] += " ";
        continue;
      }
      if (top === null || rect.top > top + 2) { lines.push(""); top = rect.top; }
      lines[lines.length - 1] += node.data[i];
    }
  }
  return lines;
}"""


def lines_of_text(locator: Locator) -> list[str]:
    """The element's text, line by line as laid out (see LINES_OF_TEXT)."""
    return locator.evaluate(LINES_OF_TEXT)


def create_from_the_bottom(page: Page, button: str, url_path: str) -> str:
    """Press the classroom page's create button (scrolled to, at the bottom of the builder)
    and wait for its projector (`?manage=CODE`); the join code."""
    create = page.get_by_role("button", name=button)
    create.scroll_into_view_if_needed()
    assert main_scroll(page) > 0
    with expect_rerun(page):
        create.click()
    page.wait_for_url(f"**/{url_path}?manage=*")
    wait_for_run(page)
    return page.url.split("manage=")[1][:6]


def main_scroll(page: Page) -> float:
    """How far the main area is scrolled down, in pixels."""
    return page.evaluate("document.querySelector('[data-testid=stMain]').scrollTop")


def assert_on_one_screen(parts: dict[str, Locator], viewport: dict[str, int]) -> None:
    """Every named part is visible and lies wholly within the viewport."""
    for name, part in parts.items():
        expect(part).to_be_visible()
        box = part.bounding_box()
        assert box is not None, name
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (name, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (name, box)


# axe-core's WCAG 2.0 and 2.1 level A and AA rules; a violation at these impacts fails.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
_AXE = Axe()
AXE_FAILS = ("serious", "critical")


# How tall the page is: its main column's whole content (Streamlit scrolls `stMain`, not the
# document), and the sidebar's.
_WHOLE_HEIGHT = """() => Math.max(window.innerHeight, ...['stMain', 'stSidebarContent']
  .map((id) => document.querySelector(`[data-testid="${id}"]`))
  .filter(Boolean).map((e) => e.getBoundingClientRect().top + e.scrollHeight))"""
MAX_AXE_HEIGHT = 30_000  # px: taller than any page of the course (the longest is ~13,000)
# A transition or a finite animation still running (Streamlit fades the classroom fold's label
# from 60% to full opacity as presenter mode's style sheet lands): axe would read a colour on
# its way, not the one a student sees.
_AT_REST = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || !isFinite(a.effect.getComputedTiming().endTime))"""
AT_REST_TIMEOUT_MS = 3_000


def wait_at_rest(page: Page) -> None:
    """Wait, at most AT_REST_TIMEOUT_MS, until the page's finite transitions and animations
    have ended (one that never ends is left as it is)."""
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(_AT_REST, timeout=AT_REST_TIMEOUT_MS)


def axe_violations(
    page: Page, rules: list[str] | None = None, *, also: tuple[str, ...] = ()
) -> list[tuple[str, str, int, str]]:
    """axe-core's WCAG A and AA violations on the whole page as it stands (or those of the
    given `rules`; `also`: rules checked in the same run besides the A and AA ones, e.g.
    presenter mode's 7:1 contrast, half the time of a second run): (rule, impact, how many
    nodes, the first node's HTML).

    The whole page: axe cannot tell the background of text scrolled out of view, and leaves
    it unchecked (found when the guessing game's Create button, below a 720-pixel screen,
    passed the 7:1 check that the same button failed on a shorter page). So the window is
    made as tall as the page for the run, then given its size back. It runs once the page's
    transitions have ended (a fade read half-way failed presenter mode's 7:1 once)."""
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": AXE_TAGS}
    options = {"runOnly": only, "resultTypes": ["violations"]}
    if also:
        options["rules"] = {rule: {"enabled": True} for rule in also}
    # axe-core (about 550 KB of script) is put in a document once, not before every check:
    # a sweep checks every page of one document (`navigate`).
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_AXE.axe_script)
    wait_at_rest(page)
    size = page.viewport_size
    tall = min(int(page.evaluate(_WHOLE_HEIGHT)), MAX_AXE_HEIGHT)
    if size is not None and tall > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": tall})
        page.evaluate(TWO_FRAMES)
    try:
        found = page.evaluate("(options) => axe.run(document, options)", options)["violations"]
    finally:
        if size is not None and tall > size["height"]:
            page.set_viewport_size(size)
    return [(v["id"], v["impact"], len(v["nodes"]), v["nodes"][0]["html"][:160]) for v in found]


def serious_violations(page: Page) -> list[tuple[str, str, int, str]]:
    """`axe_violations` at the impacts that fail a test (AXE_FAILS)."""
    return [v for v in axe_violations(page) if v[1] in AXE_FAILS]


# The classroom activities' screens: a phone that joins by QR code, the lecturer's projector
# (presenter mode), and how long a live view may take to show a change (each polls every 2 s).
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1280, "height": 720}
LIVE_TIMEOUT_MS = 15_000


def delta_of(frame: bytes | str) -> Delta | None:
    """The delta one websocket frame from the server carries (what it draws or opens), or
    None for any other message (a run's start or end, a page's info, text)."""
    if isinstance(frame, str):
        return None
    message = ForwardMsg()
    try:
        message.ParseFromString(frame)
    except Exception:  # noqa: BLE001 - not a ForwardMsg: nothing drawn
        return None
    return message.delta if message.WhichOneof("type") == "delta" else None
