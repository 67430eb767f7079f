"""Once per server process, on the first run: import every lesson's code, then hide those
long-lived objects from Python's cycle collector.

Why. Streamlit runs a full `gc.collect(2)` after every script run (`runner.postScriptGC`,
on by default; it keeps memory in check between runs, which the 690 MB Community Cloud box
needs). A full collection walks every object the collector tracks, and after pandas,
Altair, scipy and the lessons are imported that is ~170,000 objects: 65–75 ms on the 2-core
test box, holding the GIL, so the server sends none of the rerun's messages meanwhile.
Measured on Laplace before this module (bench/bench_browser.py): keypress to updated chart
308 ms median, of which the collection after the script was ~70 ms.

How. `gc.freeze()` (the gc module's documented API) moves every object tracked at that
moment into a permanent generation that later collections skip. It runs once, right after
the imports, before any session has stored anything: what it freezes is modules, classes,
functions and constants, which live as long as the process. A frozen object that is later
dropped is still freed by reference counting; only a reference cycle among frozen objects
would outlive its use, and module-level objects do not form new garbage cycles at run time.
The collection after each run then walks only what the sessions made (about 1 ms). The
first session's first run is under way when this module is imported, so its few objects
are frozen too: a one-off of well under a megabyte, kept until the process ends.

A room of students. The freeze keeps the collection small for one session, but
what every open session holds (its session state, widgets, cached messages) is tracked,
so the full collection after each run grows with the room: with 200 students connected it
walked their objects after every one of their runs, 93 ms of CPU per first render and 117
ms per slider rerun, against 39 and 16 ms with 10 (bench/bench_room.py). So the
collection after every run is off (`runner.postScriptGC = false`, .streamlit/config.toml,
a documented option) and this module runs one full collection every COLLECT_EVERY_S
seconds instead, in a daemon thread: what a closed session leaves in reference cycles is
still freed within seconds (reference counting frees the rest at once), and the room pays
one collection per interval instead of one per tap. Python's own generational collector
still runs as always.

Two things wait for the lesson that needs them, and their objects stay visible to the
collector (a few ms a run once loaded): scikit-learn, which only "Privatized data for ML"
uses (0.4 s, ~37 MB; imported on its first fit), and the class survey's and quiz's modules
(the store, database drivers and QR encoder: ~12 MB, 100 modules; imported when a class
opens one of them).
Without that, a server whose classes never use them would carry them (the 200-seed memory
sweep of bench/bench_seeds.py went from 296 to 307 MB, over its 300 MB target).
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import threading

from lessons.catalogue import all_pages

# The modules a lesson's page imports, other than its page script (which Streamlit executes).
LESSON_MODULES: tuple[str, ...] = ("model", "views", "charts", "snippets")
# Lessons whose modules are left to their first visit (see above): the class activities.
LEFT_TO_FIRST_VISIT: frozenset[str] = frozenset(
    lesson.folder for lesson in all_pages() if lesson.activity
)
# Seconds between the full collections of the collector thread (see above).
COLLECT_EVERY_S = 5.0
COLLECTOR_THREAD = "privacy-playground-gc"


def import_lessons_and_freeze() -> None:
    """Import every lesson's modules, collect what the imports left as garbage (so it is
    not frozen), then freeze everything that is left."""
    for lesson in all_pages():
        if lesson.folder in LEFT_TO_FIRST_VISIT:
            continue
        for module in LESSON_MODULES:
            name = f"lessons.{lesson.folder}.{module}"
            if importlib.util.find_spec(name) is not None:
                importlib.import_module(name)
    gc.collect()
    gc.freeze()


def collect_periodically(interval_s: float = COLLECT_EVERY_S) -> None:
    """Forever: a full collection every `interval_s` seconds. (It waits on an Event, not
    time.sleep, so a test that replaces time.sleep does not see this thread's waits.)"""
    never = threading.Event()
    while not never.wait(interval_s):
        gc.collect()


def start_collector() -> threading.Thread:
    """Start the collector thread (a daemon: it never holds the process open)."""
    thread = threading.Thread(target=collect_periodically, name=COLLECTOR_THREAD, daemon=True)
    thread.start()
    return thread


import_lessons_and_freeze()  # a module's body runs once per process
start_collector()
