"""A session waiting its turn gives way when its run is superseded (ui/datasets.py, "One
heavy computation at a time").

A run waiting for the heavy turn, or for another session's computation, makes no `st.*` call,
so Streamlit cannot end it there: a tab closed meanwhile, or a student who pressed a seed's
"+" again, still computed the result nobody would see (the reconstruction attack's ~0.6 s of
the room's CPU) once its turn came, and only then met the newer request. `superseded` is the
yield point Streamlit's own calls have (ScriptRunner._maybe_handle_execution_control_request,
Streamlit 1.67): it takes the session's pending request, if any, and ends the run the way
Streamlit does, with a rerun for the newer request or a stop for a closed tab.

It reads Streamlit's internals, so it lives here with the server (the app's code uses the
documented API only) and Streamlit is pinned; tests/test_give_way.py runs it in a real
server. Installed by deploy/asgi.py; Community Cloud, running app.py itself, waits instead.
"""

from __future__ import annotations

import threading

from streamlit.runtime.scriptrunner_utils.exceptions import RerunException, StopException
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from ui import datasets

SCRIPT_THREAD = "ScriptRunner.scriptThread"  # the thread a session's script runs in


def superseded() -> None:
    """End this session's run if Streamlit has a newer request for it (raise as a `st.*`
    call would); return otherwise, and always outside a session's script thread."""
    if threading.current_thread().name != SCRIPT_THREAD:
        return  # a background thread, a parallel fragment's worker: not a run to end
    ctx = get_script_run_ctx(suppress_warning=True)
    requests = getattr(ctx, "script_requests", None)
    if requests is None:
        return
    request = requests.on_scriptrunner_yield()
    if request is None:
        return
    if request.type == ScriptRequestType.RERUN:
        raise RerunException(request.rerun_data)
    raise StopException()


def install() -> None:
    """Make every wait in ui/datasets.py a yield point of this server's sessions."""
    datasets.set_yield_point(superseded)
