"""What this browser remembers between visits: small first-party cookies.

Streamlit reads the cookies a browser sent when its session opened (`st.context.cookies`,
documented, read-only). To remember something for the next visit (a reload, a new tab, the
next day) the page writes a cookie from the browser itself, with a one-line script through
`st.html(..., unsafe_allow_javascript=True)` (documented). Such a cookie cannot be
HTTP-only; it is `SameSite=Strict` (never sent by another site's link or form), `Secure`
when the app is served over HTTPS, and holds only random tokens of our own making, which are
checked against a pattern before they are used.

A cookie written during a visit is seen by the server from the next session on, so a page
also keeps the value in st.session_state for the rest of this visit."""

from __future__ import annotations

import json
import re

import streamlit as st

from ui import text

PREFIX = "pp_"
SAFE_VALUE = re.compile(r"[A-Za-z0-9_.-]{1,200}")


def cookie(name: str) -> str | None:
    """The value of this app's cookie `name` as the browser sent it when the session opened
    (None when absent or not of the safe form)."""
    value = st.context.cookies.get(PREFIX + name)  # empty outside a session
    if isinstance(value, str) and SAFE_VALUE.fullmatch(value):
        return value
    return None


def set_cookie(name: str, value: str, *, max_age_s: int) -> None:
    """Ask the browser to keep `value` under `name` for `max_age_s` seconds (0: forget it).

    Call it on every run that should keep the cookie: the script runs when the element first
    appears in the browser, and an identical element on later runs is left as it is (a run
    cut short by st.rerun never reaches the browser, so nothing is remembered as "sent")."""
    if not SAFE_VALUE.fullmatch(value) and value != "":
        raise ValueError("value must be letters, digits, '_', '-' or '.' (at most 200)")
    secure = "; Secure" if str(st.context.url or "").startswith("https:") else ""
    attributes = f"; Path=/; Max-Age={int(max_age_s)}; SameSite=Strict{secure}"
    script = f"document.cookie = {json.dumps(PREFIX + name + '=' + value + attributes)};"
    st.html(f"<script>{script}</script>", unsafe_allow_javascript=True, width="content")


_SCROLL_TO_TOP = """(() => {
  // On a phone the menu covers the page (300 of 390 px): a page switch closes it, as a
  // phone's menus do, so the student sees the lesson they picked.
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  const covers = sidebar && window.innerWidth < 640 && sidebar.getBoundingClientRect().right > 1;
  const close = '[data-testid="stSidebar"] button[aria-label="Collapse sidebar"]';
  if (covers) document.querySelector(close)?.click();
  if (location.hash) return;  // a link that names an anchor goes there instead
  const top = () => document.querySelector('[data-testid="stMain"]')?.scrollTo(0, 0);
  top();
  requestAnimationFrame(top);
  setTimeout(top, 200);
})();"""


def scroll_to_top(reason: str) -> None:
    """Ask the browser to show the top of the page, once per distinct `reason` (a page
    switch, a survey just created): Streamlit keeps the main area's scroll position when
    the same page, or another one, redraws in it (documented st.html with JavaScript). On a
    phone it also closes the menu, which would otherwise cover the page just opened."""
    if not SAFE_VALUE.fullmatch(reason):
        raise ValueError("reason must be letters, digits, '_', '-' or '.' (at most 200)")
    st.html(
        f'<script data-reason="{reason}">{_SCROLL_TO_TOP}</script>',
        unsafe_allow_javascript=True,
        width="content",
    )


# A display formula wider than its box (KaTeX does not wrap): scale its font down until it
# fits, to at most MIN_FORMULA_SCALE and never below MIN_FORMULA_PX (scaled formulas read
# 9.6-10.5 px on a phone); narrower still, Streamlit's sideways scroll
# takes over. A formula that would need it has a narrow form on lines (notebook.latex).
MIN_FORMULA_SCALE = 0.6
MIN_FORMULA_PX = 12
FORMULA_SLACK_PX = 6
_FIT_FORMULAS = """(() => {
  if (window.__ppFitFormulas) return;
  window.__ppFitFormulas = true;
  const reachable = (box, scrolls, label) => {
    if (scrolls && !box.hasAttribute("tabindex")) {
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", label);
    } else if (!scrolls && box.hasAttribute("tabindex")) {
      box.removeAttribute("tabindex");
      box.removeAttribute("role");
      box.removeAttribute("aria-label");
    }
  };
  // What changed since the last frame: the formulas, tables and metrics inside or under the
  // nodes a run added or changed (all of them after a resize). A rerun that changes no
  // formula, table or metric costs a scan of its mutation records and nothing else: reading
  // every formula's width on every rerun forced a layout of the page (9.6 ms a slider press
  // on Laplace, in Chromium's profile).
  const FORMULA = ".katex-display", TABLE = '[data-testid="stTable"] > div';
  const METRIC = '[data-testid="stMetric"]';
  const WATCHED = [FORMULA, '[data-testid="stTable"]', METRIC].join(",");
  let everything = true;
  const touched = new Set();
  // A chart's redraw (Vega's SVG: hundreds of records a press) is skipped unread: no
  // formula, table or metric is inside an SVG, and a formula KaTeX redraws also changes
  // its HTML. Walking those records cost ~7 ms a press on Laplace.
  const SVG = "http://www.w3.org/2000/svg";
  const note = (records) => {
    let found = false;
    for (const record of records) {
      const target = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      if (!target || target.namespaceURI === SVG) continue;
      const inside = target.closest(WATCHED);
      if (inside) { touched.add(inside); found = true; }
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1 || node.namespaceURI === SVG) continue;
        if (node.matches(WATCHED)) { touched.add(node); found = true; }
        for (const under of node.querySelectorAll(WATCHED)) { touched.add(under); found = true; }
      }
    }
    return found;
  };
  const pick = (selector) => {
    if (everything) return [...document.querySelectorAll(selector)];
    const found = new Set();
    for (const node of touched) {
      if (!node.isConnected) continue;
      const own = node.matches(selector) ? node : node.closest(selector);
      const self = own || node.querySelector(selector);
      if (self) found.add(self);
    }
    return [...found];
  };
  const fit = () => {
    const formulas = pick(FORMULA), tables = pick(TABLE), metrics = pick(METRIC);
    everything = false;
    touched.clear();
    for (const box of formulas) {
      const formula = box.querySelector(":scope > .katex");
      if (!formula) continue;
      // Only a formula scaled before is reset to measure it at full size: resetting every
      // one made each of them a write followed by a read, a forced layout of the whole page
      // per formula on every frame while the page builds (coin-flip's ten formulas: ~80 ms
      // of a first visit).
      if (formula.style.fontSize) formula.style.fontSize = "";
      // KaTeX's box always overflows its own width by a pixel or two: only a real overflow
      // (more than SLACK pixels) is scaled.
      const room = box.clientWidth, need = box.scrollWidth;
      let fits = room > 0 && need <= room + %(slack)s;
      if (!fits && room > 0) {
        const base = parseFloat(getComputedStyle(formula).fontSize) || 16;
        const lowest = Math.max(%(minimum)s, %(min_px)s / base);
        const scale = Math.max(lowest, (room - %(slack)s) / need);
        formula.style.fontSize = (scale * 100).toFixed(1) + "%%";
        fits = scale > lowest;
      }
      // A formula that fits does not scroll (its box was a sideways-scrolling region that a
      // keyboard cannot reach, for a pixel or two); one that still does is a tab stop. The
      // sizes above read alike either way: written only when the state changes.
      if (fits !== (box.style.overflow === "visible")) box.style.overflow = fits ? "visible" : "";
      reachable(box, !fits, "Formula, scrolls sideways");
    }
    // A table wider or taller than its box scrolls in it: a tab stop, so that the arrow
    // keys scroll it (WCAG 2.1.1). Measured first, then marked, one layout for all.
    const scrolls = tables.map(
      (t) => t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1
    );
    tables.forEach((t, i) => reachable(t, scrolls[i], "Table, scrolls"));
    // A metric is read out when its number changes (a slider moved it): a polite live
    // region, read whole, label and value (WCAG 4.1.3). Streamlit keeps a metric's element
    // from run to run and changes its text, which is what a live region announces.
    for (const metric of metrics) {
      if (!metric.hasAttribute("aria-live")) {
        metric.setAttribute("aria-live", "polite");
        metric.setAttribute("aria-atomic", "true");
      }
      // A number is never cut: a value wider than its column (presenter mode's large type
      // in a narrow column) is set smaller until it fits, as a formula is; measured at its
      // own size first when it was scaled before.
      const box = metric.querySelector('[data-testid="stMetricValue"] > div');
      const number = box && box.querySelector("p");
      if (!number) continue;
      if (number.style.fontSize) number.style.fontSize = "";
      const room = box.clientWidth, need = box.scrollWidth;
      if (room > 0 && need > room + 1) {
        const size = parseFloat(getComputedStyle(number).fontSize) || 16;
        number.style.fontSize = Math.max(%(min_px)s, (size * (room - 2)) / need).toFixed(1) + "px";
      }
    }
  };
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; fit(); });
  };
  new MutationObserver((records) => { if (note(records)) soon(); })
    .observe(document.body, {childList: true, subtree: true, characterData: true});
  window.addEventListener("resize", () => { everything = true; soon(); });
  // KaTeX's fonts load after its first formulas are laid out in a fallback font, narrower:
  // a formula that fitted then overflows with no change to the page. Measure all again.
  document.fonts?.addEventListener("loadingdone", () => { everything = true; soon(); });
  soon();
})();"""


# Vega's SVG renderer names a gradient or clip path by the page's full address,
# `url(<address>#gradient_1)` (so that a <base> element cannot break it). A control's move
# rewrites the address (its value goes into the link, history.replaceState) while a legend
# that did not change is not redrawn: its fill then names another document, and the colour
# bar vanished (group-by's heatmap, 3 runs in 4). After every change of address, each such
# reference is pointed at the address the page now has.
_SVG_REFERENCES = """(() => {
  if (window.__ppSvgReferences) return;
  window.__ppSvgReferences = true;
  const ATTRIBUTES = ["fill", "stroke", "clip-path", "mask", "filter"];
  const follow = () => {
    const here = location.href.split("#")[0];
    for (const name of ATTRIBUTES) {
      for (const node of document.querySelectorAll(`svg [${name}*="url("]`)) {
        const value = node.getAttribute(name).trim();
        if (!value.startsWith("url(") || !value.endsWith(")")) continue;
        const target = value.slice(4, -1).replace(/["']/g, "");
        const mark = target.lastIndexOf("#");
        if (mark < 0 || target.slice(0, mark) === here) continue;
        node.setAttribute(name, `url(${here}#${target.slice(mark + 1)})`);
      }
    }
  };
  for (const method of ["pushState", "replaceState"]) {
    const original = history[method];
    history[method] = function (...args) {
      const result = original.apply(this, args);
      follow();
      requestAnimationFrame(follow);  // and once Vega has drawn this run's changes
      return result;
    };
  }
  window.addEventListener("popstate", follow);
})();"""


# Streamlit turns every address the server writes (st.query_params: a control whose value
# the server puts in the link, such as a number labelled 1,250 or 10⁻⁵ that travels as 1250
# or 0.00001; an activity's ?manage=CODE) into history.pushState: each press added an entry
# to the browser's history, and Back then showed the same page at the same values as many
# times over (the sparse vector's threshold pressed twice: two Backs that changed nothing;
# a survey just created: Back showed its projector again). The browser's own writes of a
# bound control replace the entry. Once this script is in the page, a change of address on
# the same page replaces it too; a move to another page (another path) still adds one, so
# Back leaves the lesson, whichever control was moved. (A write during a page's very first
# run, such as a hand-written ?lap_eps=2.0 rewritten to 2, may reach the browser before this
# script does, and add its entry as before.)
_SAME_PAGE_REPLACES = """(() => {
  if (window.__ppSamePageReplaces) return;
  window.__ppSamePageReplaces = true;
  const push = history.pushState;
  history.pushState = function (state, unused, url) {
    const to = url === undefined || url === null ? null : new URL(url, location.href);
    if (to && to.origin === location.origin && to.pathname === location.pathname) {
      return history.replaceState(state, unused, url);
    }
    return push.apply(this, arguments);
  };
})();"""


# A sign between two words keeps both of its spaces (text.KEEP_TOGETHER): each space
# beside it in text Streamlit renders as markdown (paragraphs, captions, alerts, metric and
# widget labels), and in the boxes our own scripts draw text in (marked data-pp-text, such
# as the progress line), becomes a no-break space, so a phone never ends a line with "α" and starts
# the next with "= 5.4". Formulas (KaTeX), code and charts are left alone. The text is
# rewritten in place in the observer's own callback, before the browser paints it, and
# again whenever a run changes it; a rewritten node reads the same to a screen reader.
_KEEP_TOGETHER = """(() => {
  if (window.__ppKeepTogether) return;
  window.__ppKeepTogether = true;
  const TEXT = '[data-testid="stMarkdownContainer"], [data-pp-text]';
  const SKIP = ".katex, code, pre, script, style, svg";
  const SIGNS = %(signs)s;
  const INSIDE = new RegExp(` ([${SIGNS}]) `, "g");
  const FIRST = new RegExp(`^([${SIGNS}]) `), LAST = new RegExp(` ([${SIGNS}])$`);
  const glue = (node) => {
    const value = node.nodeValue;
    if (!value || value.indexOf(" ") < 0) return;
    const parent = node.parentElement;
    if (!parent || parent.closest(SKIP)) return;
    const glued = value.replace(INSIDE, "\u00a0$1\u00a0")
      .replace(FIRST, "$1\u00a0").replace(LAST, "\u00a0$1");
    if (glued !== value) node.nodeValue = glued;
  };
  const walk = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) glue(node);
  };
  const SVG = "http://www.w3.org/2000/svg";
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "characterData") {
        if (record.target.parentElement?.closest(TEXT)) glue(record.target);
        continue;
      }
      for (const node of record.addedNodes) {
        if (node.nodeType === 3) {
          if (node.parentElement?.closest(TEXT)) glue(node);
        } else if (node.nodeType === 1 && node.namespaceURI !== SVG) {
          if (node.closest(TEXT)) walk(node);
          else for (const box of node.querySelectorAll(TEXT)) walk(box);
        }
      }
    }
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
  for (const box of document.querySelectorAll(TEXT)) walk(box);
})();"""


def fit_formulas(also: str = "") -> None:
    """Install, once per browser page, the script that scales display formulas wider than
    the screen down to fit (phones at 390 px), makes every box that still scrolls (a
    formula, a table) a tab stop with a name, and makes each metric a live region (read out
    when its value changes), and keeps every chart's gradient and clip references pointing
    at the page's address when a control changes it, and makes a change of address on the
    same page replace its history entry (_SAME_PAGE_REPLACES), and keeps a sign such as "="
    on one line with both its neighbours (_KEEP_TOGETHER); app.py calls it on every
    run. `also`: one more script installed in the same element (ui/progress.py's): each
    element, even an empty one, adds a gap to the top of every page."""
    script = _FIT_FORMULAS % {
        "minimum": MIN_FORMULA_SCALE,
        "min_px": MIN_FORMULA_PX,
        "slack": FORMULA_SLACK_PX,
    }
    more = f"<script>{also}</script>" if also else ""
    together = _KEEP_TOGETHER % {"signs": json.dumps(re.escape(text.KEEP_TOGETHER))}
    st.html(
        f"<script>{script}</script><script>{_SVG_REFERENCES}</script>"
        f"<script>{_SAME_PAGE_REPLACES}</script><script>{together}</script>{more}",
        unsafe_allow_javascript=True,
        width="content",
    )
