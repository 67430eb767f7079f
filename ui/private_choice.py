"""A multiple-choice answer randomized on the student's own device (the local model).

The options are buttons drawn by a small component (Streamlit's documented components v2
API, inline JavaScript). A tap draws k-ary randomized response in the browser with the
operating system's entropy (`crypto.getRandomValues`): the choice is kept with probability
p = e^ε/(e^ε + k − 1), else one of the other k − 1 options, each with probability
(1 − p)/(k − 1) (dp/kary.py, `grr_probabilities`; Wang et al. 2017). Only the randomized
option goes back to Python, as the component's one trigger value: the true choice never
leaves the browser. The phone remembers it in its own `sessionStorage` (kept by this tab,
never sent), so that it can show its student "you chose B, your phone sent D"; and it keeps
the randomized report itself (`localStorage`, what the server is sent anyway), so that a
retry after a failed tap or a reload sends the same report instead of drawing a second one.

A test records the WebSocket frames a phone sends and checks that two taps with different
true choices and the same randomized answer send the same bytes (tests/ui/
test_browser_private_choice.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

import dp

EVENT = "sent"  # the component's one trigger: the randomized option's index

# k-ary randomized response, in the browser. `keep` is p above, computed in Python (one
# formula, dp.grr_probabilities). A uniform [0, 1) from 53 random bits, a uniform integer
# below n by rejection (no modulo bias).
KRR_JS = r"""
function uniformBelow(n) {
  const limit = Math.floor(4294967296 / n) * n;
  const word = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(word);
    if (word[0] < limit) return word[0] % n;
  }
}
function uniform01() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return ((words[0] >>> 5) * 67108864 + (words[1] >>> 6)) / 9007199254740992;
}
function krr(choice, k, keep) {
  if (uniform01() < keep) return choice;
  const other = uniformBelow(k - 1);
  return other < choice ? other : other + 1;
}
"""

JS = (
    KRR_JS
    + r"""
function remembered(memoryKey) {
  try {
    return JSON.parse(window.sessionStorage.getItem(memoryKey) || "null");
  } catch (error) {
    return null;
  }
}

// One randomized report per question and browser: once drawn it is kept (localStorage: it
// is only what the server is sent anyway, never the choice) and every retry sends it again.
function drawnReport(memoryKey, k) {
  try {
    const report = JSON.parse(window.localStorage.getItem(memoryKey + ":report") || "null");
    return Number.isInteger(report) && report >= 0 && report < k ? report : null;
  } catch (error) {
    return null;
  }
}

function keepReport(memoryKey, sent) {
  try {
    window.localStorage.setItem(memoryKey + ":report", JSON.stringify(sent));
  } catch (error) { /* no storage: a retry after a reload would draw again */ }
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let root = parentElement.querySelector(".pp-choice");
  if (!root) {
    root = document.createElement("div");
    root.className = "pp-choice";
    parentElement.appendChild(root);
  }
  root.replaceChildren();
  if (data.sent === null || data.sent === undefined) {
    const drawn = drawnReport(data.memory, data.options.length);
    if (drawn !== null) {  // a tap that was not stored: the same report, never a new draw
      const line = document.createElement("p");
      line.textContent = `Your phone has drawn its answer (it sends ${data.letters[drawn]}), `
        + "but it is not stored yet. Sending it again reveals nothing more: "
        + "it is the same report.";
      const again = document.createElement("button");
      again.type = "button";
      again.textContent = "Send my answer again";
      again.addEventListener("click", () => {
        again.disabled = true;
        setTriggerValue("sent", drawn);
      });
      root.append(line, again);
      return;
    }
    const buttons = data.options.map((label, choice) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;  // plain text: the lecturer's words are never markup
      button.addEventListener("click", () => {
        buttons.forEach((b) => { b.disabled = true; });
        const sent = krr(choice, data.options.length, data.keep);
        keepReport(data.memory, sent);
        try {
          window.sessionStorage.setItem(data.memory, JSON.stringify({ chose: choice, sent }));
        } catch (error) { /* no storage: the phone just cannot remind its student */ }
        setTriggerValue("sent", sent);
      });
      root.appendChild(button);
      return button;
    });
    return;
  }
  const mine = remembered(data.memory);
  if (mine && mine.sent === data.sent) {
    const line = document.createElement("p");
    line.textContent = `Only this phone knows: you chose ${data.letters[mine.chose]}, `
      + `and it sent ${data.letters[data.sent]}.`;
    root.appendChild(line);
  }
}
"""
)

CSS = """
.pp-choice { display: flex; flex-direction: column; gap: 0.5rem; font-family: inherit; }
.pp-choice button {
  font: inherit; font-size: 1rem; text-align: center; min-height: 2.75rem;
  padding: 0.4rem 0.75rem; border-radius: 0.5rem; cursor: pointer;
  color: #262730; background: #ffffff; border: 1px solid #8e909a;
}
.pp-choice button:hover { border-color: #b3261e; color: #b3261e; }
.pp-choice button:focus-visible { outline: 3px solid #1a56db; outline-offset: 2px; }
.pp-choice button:disabled { color: #595b66; background: #f0f2f6; cursor: wait; }
.pp-choice p { margin: 0; color: #262730; }
"""


@st.cache_resource(show_spinner=False)
def _component() -> Callable:
    return st.components.v2.component("pp_private_choice", js=JS, css=CSS)


def ask(
    key: str,
    labels: Sequence[str],
    epsilon: float,
    memory: str,
    on_sent: Callable[[], None],
    *,
    letters: Sequence[str],
    attempt: int = 0,
) -> None:
    """The options as buttons; a tap randomizes in the browser and sends only the result,
    then `on_sent` runs (read the result with `sent_value(key, k)`). The browser keeps that
    one report per question (`memory`): when it was not stored (a busy database, a reload
    before the answer was in), the phone offers "Send my answer again" with the same
    report, never a new draw (two independent reports would spend 2ε). `attempt` counts the
    taps that failed, so that the button comes back each time one does."""
    keep = dp.grr_probabilities(epsilon, len(labels))[0]
    _component()(
        key=key,
        data={
            "options": list(labels),
            "letters": list(letters),
            "keep": float(keep),
            "memory": memory,
            "sent": None,
            "attempt": int(attempt),
        },
        on_sent_change=on_sent,
    )


def receipt(key: str, letters: Sequence[str], memory: str, sent: int) -> None:
    """After the answer is in: the phone, from its own memory, reminds its student what
    they chose (nothing is sent)."""
    _component()(
        key=key,
        data={"letters": list(letters), "memory": memory, "sent": int(sent), "options": []},
        on_sent_change=lambda: None,
    )


def sent_value(key: str, k: int) -> int | None:
    """The option index the browser sent through component `key`, or None when there is
    none or it is not an option (a forged frame is ignored, never trusted)."""
    state = st.session_state.get(key)
    value = None if state is None else state.get(EVENT)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < k:
        return None
    return value
