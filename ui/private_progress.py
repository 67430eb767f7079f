"""Your progress, randomized on your own device: the progress check-in's phone (the local
model, for a set of lessons).

A small component (Streamlit's documented components v2 API, inline JavaScript) reads this
browser's own progress record (ui/progress.py: `localStorage`, never sent), works out which
of the check-in's lessons it has worked through (the same rule as the progress page,
`progress.WORKED_JS`) and shows the student that list. A tap on "Send" draws one bit per
lesson in the browser with the operating system's entropy (`crypto.getRandomValues`): a 1
is sent as 1 with probability p, a 0 as 1 with probability q (unary encoding; p and q are
computed in Python, lessons/class_checkin/model.py). Only the drawn bits go back to Python,
as the component's one trigger value: the true progress never leaves the browser.

The phone keeps its drawn report (`localStorage`: only what the server is sent anyway), so a
retry after a failed tap or a reload sends the same report instead of drawing a second one
(two independent reports would spend 2ε), and it remembers the truth it randomized in its
own `sessionStorage` (this tab only, never sent), to show its student "you had worked through
these; your phone sent these".

A test records the WebSocket frames a phone sends and checks that phones with different
true progress that send the same bits send the same bytes
(tests/lessons/class_checkin/test_browser_class_checkin_private.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from ui import private_choice, progress

EVENT = "sent"  # the component's one trigger: the randomized bits, "0"/"1" per lesson

# Unary encoding, in the browser: each bit on its own, P[1 | 1] = p, P[1 | 0] = q, with
# private_choice.KRR_JS's uniform01 (53 random bits from crypto.getRandomValues).
RANDOMIZE_JS = r"""
function randomize(bits, p, q) {
  return bits.map((bit) => (uniform01() < (bit ? p : q) ? "1" : "0")).join("");
}
"""

JS = (
    private_choice.KRR_JS
    + RANDOMIZE_JS
    + progress.WORKED_JS
    + r"""
// The lessons this device has worked through (a 0/1 per check-in lesson), from its record.
function truth(data) {
  let record = null;
  try { record = JSON.parse(window.localStorage.getItem(data.record) || "null"); }
  catch (error) { record = null; }
  const lessons = record && typeof record === "object" && record.lessons
    && typeof record.lessons === "object" ? record.lessons : {};
  return data.lessons.map((l) => (workedThrough(lessons[l.folder], l.control) ? 1 : 0));
}

function drawnReport(memoryKey, k) {
  try {
    const report = JSON.parse(window.localStorage.getItem(memoryKey + ":report") || "null");
    return typeof report === "string" && report.length === k && /[01]+/.exec(report)?.[0]
      === report ? report : null;
  } catch (error) {
    return null;
  }
}

function el(tag, text) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;  // plain text, never markup
  return node;
}

function lessonList(data, bits, sent) {
  const list = el("ul");
  data.lessons.forEach((lesson, i) => {
    const item = el("li");
    item.append(el("strong", bits[i] ? "✓ " : "– "), lesson.title);
    if (sent !== undefined) item.append(el("span", ` (sent ${sent[i]})`));
    list.append(item);
  });
  return list;
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let root = parentElement.querySelector(".pp-checkin");
  if (!root) {
    root = el("div");
    root.className = "pp-checkin";
    parentElement.appendChild(root);
  }
  root.replaceChildren();
  const k = data.lessons.length;
  if (data.sent === null || data.sent === undefined) {
    const drawn = drawnReport(data.memory, k);
    if (drawn !== null) {  // a report that was not stored: the same one again, never a new draw
      root.append(el("p", "Your phone has drawn its report, but it is not stored yet. Sending "
        + "it again reveals nothing more: it is the same report."));
      const again = el("button", "Send my report again");
      again.type = "button";
      again.addEventListener("click", () => {
        again.disabled = true;
        setTriggerValue("sent", drawn);
      });
      root.append(again);
      return;
    }
    const bits = truth(data);
    const done = bits.reduce((a, b) => a + b, 0);
    root.append(el("p", `This device's record: worked through ${done} of ${k} `
      + `lesson${k === 1 ? "" : "s"} asked about (✓). Only your phone sees this list.`));
    root.append(lessonList(data, bits));
    const send = el("button", "Send my progress, randomized");
    send.type = "button";
    send.addEventListener("click", () => {
      send.disabled = true;
      const now = truth(data);  // the record as it is at the tap
      const sent = randomize(now, data.p, data.q);
      try { window.localStorage.setItem(data.memory + ":report", JSON.stringify(sent)); }
      catch (error) { /* no storage: a retry after a reload would draw again */ }
      try { window.sessionStorage.setItem(data.memory, JSON.stringify({ truth: now, sent })); }
      catch (error) { /* no storage: the phone just cannot remind its student */ }
      setTriggerValue("sent", sent);
    });
    root.append(send);
    return;
  }
  let mine = null;
  try { mine = JSON.parse(window.sessionStorage.getItem(data.memory) || "null"); }
  catch (error) { mine = null; }
  if (mine && mine.sent === data.sent && Array.isArray(mine.truth) && mine.truth.length === k) {
    root.append(el("p", "Only this phone knows what it randomized (✓ worked through) and "
      + "what it sent:"));
    root.append(lessonList(data, mine.truth, data.sent));
  }
}
"""
)

CSS = """
.pp-checkin { display: flex; flex-direction: column; gap: 0.5rem; font-family: inherit; }
.pp-checkin ul { margin: 0; padding-left: 1.25rem; color: #262730; }
.pp-checkin button {
  font: inherit; font-size: 1rem; text-align: center; min-height: 2.75rem;
  padding: 0.4rem 0.75rem; border-radius: 0.5rem; cursor: pointer;
  color: #ffffff; background: #b3261e; border: 1px solid #b3261e;
}
.pp-checkin button:hover { background: #8c1d18; }
.pp-checkin button:focus-visible { outline: 3px solid #1a56db; outline-offset: 2px; }
.pp-checkin button:disabled { color: #595b66; background: #f0f2f6; cursor: wait; }
.pp-checkin p { margin: 0; color: #262730; }
"""


@st.cache_resource(show_spinner=False)
def _component() -> Callable:
    return st.components.v2.component("pp_private_progress", js=JS, css=CSS)


def _lessons(lessons: Sequence[tuple[str, str, bool]]) -> list[dict]:
    return [{"folder": f, "title": t, "control": bool(c)} for f, t, c in lessons]


def ask(
    key: str,
    lessons: Sequence[tuple[str, str, bool]],
    p: float,
    q: float,
    memory: str,
    on_sent: Callable[[], None],
    *,
    attempt: int = 0,
) -> None:
    """The lessons (folder, title, has a main control) this device has worked through, and
    "Send": a tap randomizes in the browser and sends only the bits, then `on_sent` runs
    (read them with `sent_value(key, k)`). `memory` names this check-in in the browser's
    storage (one report per check-in); `attempt` counts the taps that failed, so that the
    button comes back each time one does."""
    _component()(
        key=key,
        data={
            "lessons": _lessons(lessons),
            "p": float(p),
            "q": float(q),
            "record": progress.STORAGE_KEY,
            "memory": memory,
            "sent": None,
            "attempt": int(attempt),
        },
        on_sent_change=on_sent,
    )


def receipt(key: str, lessons: Sequence[tuple[str, str, bool]], memory: str, sent: str) -> None:
    """After the report is in: the phone, from its own memory, shows its student what it
    randomized and what it sent (nothing is sent)."""
    _component()(
        key=key,
        data={"lessons": _lessons(lessons), "memory": memory, "sent": sent, "record": ""},
        on_sent_change=lambda: None,
    )


def sent_value(key: str, k: int) -> str | None:
    """The bits the browser sent through component `key`, or None when there are none or
    they are not k characters of 0 and 1 (a forged frame is ignored, never trusted)."""
    state = st.session_state.get(key)
    value = None if state is None else state.get(EVENT)
    if not isinstance(value, str) or len(value) != k or set(value) - {"0", "1"}:
        return None
    return value
