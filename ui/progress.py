"""Your progress, kept on your device: never on the server.

A student's record (which lessons they opened, whether they moved each lesson's main control,
which check-yourself questions they checked and got right, the homework they tick as passing)
lives in their browser's own storage (`localStorage`, key STORAGE_KEY) and nowhere else: not
in the class database, a cookie, a link or a log. The server never sees it, because nothing
ever sends it: one script, installed once per browser page by app.py (`script`, in the
element of ui/browser.py's own scripts: documented `st.html` with JavaScript), watches what
the student does in the page (a keypress or a drag on the main control's slider; the verdict
a "Check" button shows) and writes the record itself. It never calls back into Python, sets
no widget value and sends no message: the frames a browser sends are the same whatever its
record holds (tests/ui/test_browser_progress.py records them).

The server knows what any Streamlit app knows during a visit (which slider moved, which
option was checked: that is how the page redraws) and forgets it with the session; it is
never told what the student did on another day or device.

What counts (the progress page says so): a lesson is *worked through* on this device when
its main control was moved and every check-yourself question on its page was checked, right
or wrong. Homework is the student's own tick: the notebook's `check()` runs on their
machine and the autograder is the proof; the tick only reminds them.

Where it shows: a one-line status above each lesson (`here`), never in presenter mode (the
projector shows the room a lesson, not the lecturer's record), and the "Your progress" page
(`page`): every lesson's state, what to do next, and export, import and wipe."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

import streamlit as st

STORAGE_KEY = "pp-progress-v1"
QUESTION_PREFIX = "pp-q-"  # a check-yourself question's container key: pp-q-<quiz key>-<index>
MAX_FILE_BYTES = 65_536  # an imported record larger than this is refused unread
MAX_QUESTIONS = 40  # per lesson: more checked questions than this in a record are dropped
HERE_CLASS = "pp-progress-here"
PAGE_CLASS = "pp-progress-page"
PROGRESS_URL = "progress"  # the "Your progress" page (lessons/catalogue.py: PROGRESS)
SAFE_NAME = re.compile(r"[a-z0-9_]{1,60}")
SAFE_URL = re.compile(r"[a-z0-9-]{1,60}")


def question_key(quiz_key: str, index: int) -> str:
    """The container key of check-yourself question `index` of quiz `quiz_key` (ui/quiz.py):
    its CSS class st-key-pp-q-<quiz_key>-<index> is how the script finds its verdict."""
    if not isinstance(quiz_key, str) or not SAFE_NAME.fullmatch(quiz_key):
        raise ValueError(f"quiz_key must be lower-case letters, digits and '_', not {quiz_key!r}")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < MAX_QUESTIONS:
        raise ValueError(f"index must be an int in [0, {MAX_QUESTIONS}), not {index!r}")
    return f"{QUESTION_PREFIX}{quiz_key}-{index}"


# What "worked through" means, written once: the progress script and the progress check-in's
# phone (ui/private_progress.py) both read a lesson's entry of the record with it. `e` is the
# entry as stored (anything: a hand-edited storage is read defensively), `hasControl` whether
# the lesson has a main control.
WORKED_JS = r"""
function workedThrough(e, hasControl) {
  if (!e || typeof e !== "object") return false;
  const answers = e.answers && typeof e.answers === "object" ? Object.keys(e.answers).length : 0;
  const asked = Number.isInteger(e.asked) ? e.asked : 0;
  return e.opened === true && (e.moved === true || !hasControl) && answers >= asked;
}
"""

# The script. Everything it draws is made with createElement and textContent: an imported
# file's contents are data, never markup. It runs once per browser page (a second install,
# on the next run, only redraws).
_SCRIPT = r"""(() => {
  if (window.__ppProgress) { window.__ppProgress.draw(); return; }
  %(worked)s
  const KEY = %(key)s, CATALOGUE = %(catalogue)s, PROGRESS_URL = %(progress_url)s;
  const MAX_BYTES = %(max_bytes)s, MAX_QUESTIONS = %(max_questions)s;
  const PREFIX = %(prefix)s, HERE = %(here)s, PAGE = %(page)s;
  const BY_URL = new Map(CATALOGUE.map((l) => [l.url, l]));
  const BY_FOLDER = new Map(CATALOGUE.map((l) => [l.folder, l]));
  // A question's name, the whole of it (written without anchors: no caret in this file).
  const QUESTION = { test: (name) => /[a-z0-9_]{1,60}-\d{1,2}/.exec(name)?.[0] === name };
  const last = (path) => path.split("/").filter(Boolean).pop() || "";
  const empty = () => ({ version: 1, lessons: {} });

  // Any parsed JSON to a record: unknown lessons, wrong types and extra fields dropped.
  const clean = (raw) => {
    const record = empty();
    if (!raw || typeof raw !== "object" || raw.version !== 1) return null;
    if (!raw.lessons || typeof raw.lessons !== "object") return null;
    for (const [folder, entry] of Object.entries(raw.lessons)) {
      if (!BY_FOLDER.has(folder) || !entry || typeof entry !== "object") continue;
      const answers = {};
      if (entry.answers && typeof entry.answers === "object") {
        for (const [name, right] of Object.entries(entry.answers)) {
          if (Object.keys(answers).length >= MAX_QUESTIONS) break;
          if (QUESTION.test(name) && typeof right === "boolean") answers[name] = right;
        }
      }
      const asked = Number.isInteger(entry.asked) && entry.asked >= 0 ? entry.asked : 0;
      record.lessons[folder] = {
        opened: entry.opened === true, moved: entry.moved === true,
        homework: entry.homework === true, asked: Math.min(asked, MAX_QUESTIONS), answers,
      };
    }
    return record;
  };
  const load = () => {
    try { return clean(JSON.parse(localStorage.getItem(KEY) || "null")) || empty(); }
    catch (error) { return empty(); }
  };
  let record = load();
  const save = () => {
    try { localStorage.setItem(KEY, JSON.stringify(record)); } catch (error) { /* no storage */ }
    draw();
  };
  const entry = (folder) => (record.lessons[folder] ||= {
    opened: false, moved: false, homework: false, asked: 0, answers: {},
  });

  // One lesson's state, and the words for it.
  const tally = (lesson) => {
    const e = record.lessons[lesson.folder];
    const answers = e ? Object.values(e.answers) : [];
    const checked = answers.length, right = answers.filter((a) => a).length;
    const asked = e ? Math.max(e.asked, checked) : 0;
    const moved = !!e && (e.moved || !lesson.control);
    const done = workedThrough(e, !!lesson.control);
    return { e, checked, right, asked, moved, done,
      state: done ? "Worked through" : e && e.opened ? "Started" : "Not started" };
  };
  const questionsText = (t) => t.asked
    ? `${t.checked} of ${t.asked} questions checked${t.checked ? ` (${t.right} right)` : ""}`
    : "no questions seen yet";

  // A link to another page, opened from the app's own menu (the same session, no reload).
  const link = (url, text) => {
    const a = document.createElement("a");
    a.href = url;
    a.textContent = text;
    a.addEventListener("click", (event) => {
      const item = [...document.querySelectorAll('[data-testid="stSidebar"] a[href]')]
        .find((m) => last(new URL(m.href).pathname) === url);
      if (item) { event.preventDefault(); item.click(); }
    });
    return a;
  };
  const el = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };

  const drawHere = (box) => {
    const lesson = BY_FOLDER.get(box.dataset.lesson);
    if (!lesson) return;
    const t = tally(lesson);
    const parts = [];
    if (lesson.control) parts.push(t.moved ? "main control moved" : `move “${lesson.control}”`);
    parts.push(questionsText(t));
    const line = el("p");
    line.append(el("strong", t.done ? "✓ Worked through on this device" : "On this device"),
      `: ${parts.join(", ")}. `, link(PROGRESS_URL, "Your progress"));
    box.replaceChildren(line);
  };

  let status = "", confirming = false, focusOn = null;
  const drawPage = (box) => {
    const rows = CATALOGUE.map((lesson) => [lesson, tally(lesson)]);
    const done = rows.filter(([, t]) => t.done).length;
    const checked = rows.reduce((n, [, t]) => n + t.checked, 0);
    const right = rows.reduce((n, [, t]) => n + t.right, 0);
    const parts = [el("h2", "Where you are")];
    parts.push(el("p", `Worked through: ${done} of ${rows.length} lessons. Questions checked: `
      + `${checked} (${right} right). Homework ticked: `
      + `${rows.filter(([, t]) => t.e && t.e.homework).length}.`));
    const next = rows.find(([, t]) => !t.done);
    const nextLine = el("p");
    if (next) {
      const [lesson, t] = next;
      nextLine.append(el("strong", "Next: "), link(lesson.url, lesson.title),
        t.e && t.e.opened ? ` (started: ${lesson.control && !t.moved
          ? `move “${lesson.control}”, ` : ""}${questionsText(t)})` : "");
    } else {
      nextLine.textContent = "You have worked through every lesson on this device.";
    }
    parts.push(nextLine);

    const scroll = el("div", undefined, "pp-progress-scroll");
    scroll.tabIndex = 0;
    scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-label", "Every lesson's progress, scrolls");
    const table = el("table");
    table.append(el("caption", "Every lesson, in teaching order"));
    const head = el("tr");
    for (const name of ["Lesson", "State", "Questions", "Homework passes"]) {
      const th = el("th", name);
      th.scope = "col";
      head.append(th);
    }
    table.append(el("thead"));
    table.tHead.append(head);
    const body = el("tbody");
    for (const [lesson, t] of rows) {
      const tr = el("tr");
      const th = el("th");
      th.scope = "row";
      th.append(link(lesson.url, lesson.title));
      const tick = el("input");
      tick.type = "checkbox";
      tick.checked = !!(t.e && t.e.homework);
      tick.setAttribute("aria-label", `Homework checks pass: ${lesson.title}`);
      tick.addEventListener("change", () => {
        entry(lesson.folder).homework = tick.checked;
        status = `${lesson.title}: homework ${tick.checked ? "ticked" : "unticked"}.`;
        save();
      });
      const cell = el("td");
      cell.append(tick);
      tr.append(th, el("td", t.state), el("td", t.asked || t.checked
        ? `${t.checked} of ${t.asked} (${t.right} right)` : "–"), cell);
      body.append(tr);
    }
    table.append(body);
    scroll.append(table);
    parts.push(scroll);

    parts.push(el("h2", "Keep it, move it, wipe it"));
    const buttons = el("div", undefined, "pp-progress-buttons");
    const exportButton = el("button", "Export my progress (a file)");
    exportButton.type = "button";
    exportButton.addEventListener("click", () => {
      const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
      const a = el("a");
      a.href = URL.createObjectURL(blob);
      a.download = "privacy-playground-progress.json";
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
      status = "Exported: the file holds this page's record, nothing else.";
      draw();
    });
    const importLabel = el("label", "Import a progress file", "pp-progress-import");
    const file = el("input");
    file.type = "file";
    file.accept = ".json,application/json";
    importLabel.append(file);
    file.addEventListener("change", async () => {
      const chosen = file.files && file.files[0];
      if (!chosen) return;
      let imported = null;
      if (chosen.size <= MAX_BYTES) {
        try { imported = clean(JSON.parse(await chosen.text())); }
        catch (error) { imported = null; }
      }
      if (!imported) {
        status = chosen.size > MAX_BYTES
          ? `That file is larger than ${MAX_BYTES / 1024} KB: nothing was imported.`
          : "That file is not a progress record from this course: nothing was imported.";
        draw();
        return;
      }
      let lessons = 0;
      for (const [folder, theirs] of Object.entries(imported.lessons)) {
        const mine = entry(folder);
        lessons += 1;
        mine.opened ||= theirs.opened;
        mine.moved ||= theirs.moved;
        mine.homework ||= theirs.homework;
        mine.asked = Math.max(mine.asked, theirs.asked);
        for (const [name, right] of Object.entries(theirs.answers)) {
          if (!(name in mine.answers) && Object.keys(mine.answers).length < MAX_QUESTIONS) {
            mine.answers[name] = right;
          }
        }
      }
      status = `Imported ${lessons} lesson${lessons === 1 ? "" : "s"}, added to this device's.`;
      save();
    });
    buttons.append(exportButton, importLabel);
    if (!confirming) {
      const wipe = el("button", "Wipe my progress on this device…");
      wipe.type = "button";
      wipe.addEventListener("click", () => {
        confirming = true;
        status = "Wipe this device's record of the course? Choose below.";
        focusOn = "Keep it";  // the keyboard lands on the safe choice
        draw();
      });
      buttons.append(wipe);
    } else {
      const sure = el("button", "Yes, wipe it (it cannot be undone)");
      sure.type = "button";
      sure.addEventListener("click", () => {
        record = empty();
        try { localStorage.removeItem(KEY); } catch (error) { /* no storage */ }
        confirming = false;
        status = "Wiped: this device keeps no progress now.";
        focusOn = "Wipe my progress on this device…";
        draw();
      });
      const keep = el("button", "Keep it");
      keep.type = "button";
      keep.addEventListener("click", () => {
        confirming = false;
        status = "Kept.";
        focusOn = "Wipe my progress on this device…";
        draw();
      });
      buttons.append(sure, keep);
    }
    parts.push(buttons);
    const said = el("p", status, "pp-progress-status");
    said.setAttribute("role", "status");
    parts.push(said);
    const name = (node) => node.textContent || node.getAttribute("aria-label") || node.type;
    const active = document.activeElement;
    const focused = focusOn || (active && box.contains(active) ? name(active) : null);
    focusOn = null;
    box.replaceChildren(...parts);
    if (focused) {  // a redraw keeps the keyboard where it was (or where a choice sends it)
      const again = [...box.querySelectorAll("button, input")].find((n) => name(n) === focused);
      (again || box.querySelector("button"))?.focus();
    }
  };

  // Each box is redrawn only when what it shows changed: a redraw replaces its links and
  // buttons, which would take the keyboard's focus away from a student on one of them.
  const draw = () => {
    for (const box of document.querySelectorAll(`.${HERE}[data-lesson]`)) {
      const shown = JSON.stringify(record.lessons[box.dataset.lesson] || null);
      if (box.dataset.shown !== shown) { drawHere(box); box.dataset.shown = shown; }
    }
    for (const box of document.querySelectorAll(`.${PAGE}`)) {
      const shown = JSON.stringify([record, status, confirming, focusOn]);
      if (box.dataset.shown !== shown) { drawPage(box); box.dataset.shown = shown; }
    }
  };

  // The lesson on show, from the address; what its page shows now: how many questions it
  // asks and the verdict each checked one shows.
  const current = () => BY_URL.get(last(location.pathname));
  const scan = () => {
    record = load();  // what another tab (or an import there) wrote since
    const lesson = current();
    if (!lesson) { draw(); return; }
    const e = entry(lesson.folder);
    const before = JSON.stringify(e);
    e.opened = true;
    const boxes = document.querySelectorAll(`[data-testid="stMain"] [class*="st-key-${PREFIX}"]`);
    const names = new Set();
    for (const box of boxes) {
      const match = [...box.classList].find((c) => c.startsWith(`st-key-${PREFIX}`));
      const name = match && match.slice(`st-key-${PREFIX}`.length);
      if (!name || !QUESTION.test(name)) continue;
      names.add(name);
      if (box.querySelector('[data-testid="stAlertContentSuccess"]')) e.answers[name] = true;
      else if (box.querySelector('[data-testid="stAlertContentError"]')) e.answers[name] = false;
    }
    e.asked = Math.min(MAX_QUESTIONS, Math.max(e.asked, names.size));
    if (JSON.stringify(e) !== before) save(); else draw();
  };
  // A page just opened, or a question just checked: look a few times while its run lands.
  let looking = null;
  const look = () => {
    clearInterval(looking);
    let times = 0;
    scan();
    looking = setInterval(() => { scan(); if (++times >= 12) clearInterval(looking); }, 500);
  };

  // The main control, moved by the student (a key or a drag that changed its value).
  let pressed = null;
  const mainSlider = (target) => {
    const lesson = current();
    const slider = target instanceof Element && target.closest('[data-testid="stSlider"]');
    if (!lesson || !lesson.control || !slider) return null;
    // white space read as one space: the page keeps a sign and its neighbours together
    // with no-break spaces (ui/browser.py), the catalogue writes ordinary ones
    const plain = (words) => words.replace(/\s+/g, " ");
    return plain(slider.textContent).includes(plain(lesson.control)) ? [lesson, slider] : null;
  };
  // A slider's thumbs (range inputs in Streamlit 1.67): their values.
  const value = (slider) => [...slider.querySelectorAll('input[type="range"], [role="slider"]')]
    .map((thumb) => `${thumb.value ?? ""}|${thumb.getAttribute("aria-valuetext") ?? ""}`).join(";");
  const start = (event) => {
    const found = mainSlider(event.target);
    pressed = found ? [...found, value(found[1])] : null;
  };
  const end = () => {
    if (!pressed) return;
    const [lesson, slider, before] = pressed;
    pressed = null;
    setTimeout(() => {
      if (value(slider) !== before && !entry(lesson.folder).moved) {
        entry(lesson.folder).moved = true;
        save();
      }
    }, 150);
  };
  document.addEventListener("keydown", start, true);
  document.addEventListener("pointerdown", start, true);
  document.addEventListener("keyup", end, true);
  document.addEventListener("pointerup", end, true);
  document.addEventListener("click", (event) => {
    const inside = event.target instanceof Element
      && event.target.closest(`[class*="st-key-${PREFIX}"]`);
    if (inside) look();
  }, true);
  let path = location.pathname;
  for (const method of ["pushState", "replaceState"]) {
    const original = history[method];
    history[method] = function (...args) {
      const result = original.apply(this, args);
      if (location.pathname !== path) { path = location.pathname; look(); }
      return result;
    };
  }
  window.addEventListener("popstate", () => { path = location.pathname; look(); });
  // Another tab of this browser changed the record.
  window.addEventListener("storage", (event) => {
    if (event.key === KEY || event.key === null) { record = load(); draw(); }
  });
  // A status line or the page's table drawn by a later run (a rerun redraws its box).
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (node.nodeType === 1 && (node.matches(`.${HERE}, .${PAGE}`)
            || node.querySelector(`.${HERE}, .${PAGE}`))) { draw(); return; }
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
  window.__ppProgress = { draw, scan };
  look();
})();"""


def script(lessons: Iterable[tuple[str, str, str, str]]) -> str:
    """The progress script for the catalogue's lessons: (folder, url path, title, main
    control label or "") each, in teaching order. app.py installs it on every run (the
    browser runs it once and keeps it; later runs only redraw)."""
    catalogue = []
    for folder, url, title, control in lessons:
        if not SAFE_NAME.fullmatch(folder) or not SAFE_URL.fullmatch(url):
            raise ValueError(f"a lesson's folder and url must be plain names: {folder!r} {url!r}")
        catalogue.append({"folder": folder, "url": url, "title": title, "control": control})

    def js(value) -> str:  # a JSON value inside the script, without a single "<" (below)
        return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")

    source = _SCRIPT % {
        "key": js(STORAGE_KEY),
        "catalogue": js(catalogue),
        "progress_url": js(PROGRESS_URL),
        "max_bytes": MAX_FILE_BYTES,
        "max_questions": MAX_QUESTIONS,
        "prefix": js(QUESTION_PREFIX),
        "here": js(HERE_CLASS),
        "page": js(PAGE_CLASS),
        "worked": WORKED_JS,
    }
    # Streamlit's sanitizer (DOMPurify) drops a whole <script> whose text holds "<" before a
    # letter or "/" (it reads like markup): the script would silently never run.
    if re.search(r"<[/\w]", source):
        raise ValueError("the progress script must not hold '<' before a letter or '/'")
    return source


def here(folder: str) -> None:
    """The one-line status of lesson `folder` on this device, drawn by the script (app.py,
    above the lesson; never while presenting)."""
    if not SAFE_NAME.fullmatch(folder):
        raise ValueError(f"folder must be a lesson's folder name, not {folder!r}")
    st.html(f'<div class="{HERE_CLASS}" data-lesson="{folder}" role="status" data-pp-text></div>')


def page() -> None:
    """Where the script draws the progress page: every lesson's state, export, import, wipe."""
    st.html(f'<div class="{PAGE_CLASS}" data-pp-text></div>')
