"""Classroom features at the top of every page: the seed lock (a seed and a re-roll) and presenter
mode. (Shareable links and their guard: ui/links.py; downloads: ui/downloads.py.)

The seed is in the URL as `?seed=`, presenter mode as `?present=true`.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import streamlit as st

from ui import controls, links

PRESENTER_CSS = Path(__file__).with_name("presenter.css")

SEED_KEY = "seed"
PRESENT_KEY = "present"
REROLL_KEY = "seed_reroll"
SEED_MAX = 999_999  # six digits: easy to read off a projector or to print on a handout


# --- The panel ----------------------------------------------------------------------------------


def next_seed(current: int) -> int:
    """The seed "Re-roll" moves to from `current`: drawn from a generator seeded with
    `current`, so the same presses give the same seeds on every machine; never `current`."""
    drawn = int(np.random.default_rng(current).integers(0, SEED_MAX + 1))
    return drawn if drawn != current else (drawn + 1) % (SEED_MAX + 1)


def _reroll() -> None:
    st.session_state[SEED_KEY] = next_seed(controls.seed())


RESET_KEY = "classroom_reset"


def reset_lesson() -> None:
    """The "Reset this lesson" button (a callback, before the next run): every control bound
    to the link in the last run (its key is the parameter, ui/links.py) goes back to its
    default, which takes its parameter out of the link; presenter mode is kept."""
    for key, default in links.last_bound().items():
        if key != PRESENT_KEY:
            # Streamlit drops a bound parameter whose widget holds its default (a bound
            # parameter cannot be deleted directly)
            st.session_state[key] = default


PANEL_LABEL = "Classroom: presenter mode, seed, link"
PANEL_KEY = "pp-classroom"  # its CSS class, st-key-pp-classroom (ui/style.css places it)


def panel() -> None:
    """The classroom controls, in a small fold at the top of every page (app.py calls this
    before the page): presenter mode, the random seed and its re-roll, the link to this
    view, and "Reset this lesson". At the top, a lecturer finds them without scrolling; in
    the sidebar they sat below the 25-link menu, at y = 1,637 px, and
    presenter mode collapses the sidebar. The fold's content is always sent, so every
    control stays bound to the link while it is closed.

    The seed lives in `st.session_state["seed"]` (read it with `ui.controls.seed()`, the one
    reader) and in the URL as `?seed=`; presenter mode is `?present=true`."""
    with st.expander(PANEL_LABEL, type="compact", icon=":material/co_present:", key=PANEL_KEY):
        present = controls.toggle(
            "Presenter mode",
            key=PRESENT_KEY,
            help="Larger text, numbers and charts for a projector; hides the toolbar. "
            "Add ?present=true to a link to open it this way.",
        )
        controls.number_input(
            "Random seed",
            min_value=0,
            max_value=SEED_MAX,
            value=controls.DEFAULT_SEED,
            step=1,
            key=SEED_KEY,
            help="Every chart draws its randomness from this seed, so the same seed shows "
            "the same charts on every screen (a projector matches a printed handout). "
            "It is part of the page's link. A fixed seed is for teaching only: a real "
            "release needs unpredictable randomness and never a seed — whoever knows the "
            "seed can redraw the noise and subtract it.",
        )
        st.button(
            "Re-roll",
            key=REROLL_KEY,
            on_click=_reroll,
            icon=":material/casino:",
            help="Draw a new seed: every chart redraws its random samples.",
        )
        copy_link_button()
        st.button(
            "Reset this lesson",
            key=RESET_KEY,
            on_click=reset_lesson,
            icon=":material/restart_alt:",
            help="Every control of this page back to its default, and out of the page's "
            "link (the seed too); presenter mode stays as it is.",
        )
    if present:
        st.html(PRESENTER_CSS)


COPY_LABEL = "Copy link to this view"
COPIED_LABEL = "Link copied"
# The page's address already holds every control's value (bind="query-params") and the seed;
# the button copies it as the browser shows it now, so a fragment's latest move is in it.
# The clipboard API needs a secure context (https or localhost); on a classroom network over
# plain http the older copy command is used instead. One listener for the whole page (set
# once per browser page) serves every copy of the button: a button the page draws anew (a
# run that redraws the panel) works from the moment it is shown, before its own script ran
# (a click there did nothing: the likely cause of two lost clicks in full test runs on a
# busy machine, not reproduced alone).
_COPY_LINK_HTML = """
<button class="pp-copy-link" type="button"
  title="Copy this page's address: its seed and every slider's setting">{copy}</button>
<script>
if (!window.__ppCopyLink) {{
  window.__ppCopyLink = true;
  document.addEventListener("click", async (event) => {{
    const button = event.target instanceof Element && event.target.closest("button.pp-copy-link");
    if (!button) return;
    const link = window.location.href;
    // The clipboard API, given a second: a write it neither makes nor refuses by then falls
    // back to the copy command, as a refusal does (busy test runs twice showed no label for
    // 15 s after a click; why is not known).
    const written = await new Promise((done) => {{
      setTimeout(() => done(false), 1000);
      try {{
        navigator.clipboard.writeText(link).then(() => done(true), () => done(false));
      }} catch (error) {{
        done(false);
      }}
    }});
    if (!written) {{
      const area = document.createElement("textarea");
      area.value = link;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }}
    button.textContent = {copied};
    setTimeout(() => {{ button.textContent = {copy_js}; }}, 2000);
  }});
}}
document.querySelectorAll("button.pp-copy-link").forEach((button) => {{
  button.dataset.ready = "1";
}});
</script>
"""


def copy_link_button() -> None:
    """A button beside the seed that copies the link to this exact view (documented
    st.html with unsafe_allow_javascript; the address is read in the browser)."""
    st.html(
        _COPY_LINK_HTML.format(
            copy=COPY_LABEL,
            copied=json.dumps(f"✓ {COPIED_LABEL}"),
            copy_js=json.dumps(COPY_LABEL),
        ),
        unsafe_allow_javascript=True,
    )


def presenting_at_start() -> bool:
    """Whether this run starts in presenter mode, before the toggle is drawn: the toggle's
    value from the last run, or on a first visit `?present=true` in the link."""
    if PRESENT_KEY in st.session_state:
        return bool(st.session_state[PRESENT_KEY])
    return st.query_params.get(PRESENT_KEY, "").lower() == "true"


def presenting() -> bool:
    """Whether presenter mode is on (for a page that wants to adapt, e.g. hide an aside)."""
    return bool(st.session_state.get(PRESENT_KEY, False))
