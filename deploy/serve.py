"""`python deploy/serve.py [streamlit run options]`: the course's server.

It is Streamlit's own command line, `streamlit run deploy/asgi.py [options]`, from the
repository's folder (where .streamlit/config.toml and secrets are found): deploy/asgi.py is
the course's `st.App`, which puts a budget on every message a browser sends before Streamlit
does any work (deploy/guard.py) and imports every lesson's code before the first visitor
(lessons/preload.py; without it the first student after a restart waited 2.6-3.1 s on Home,
against 1.2-1.6 s for the next, bench/bench_first_visit.py).

`make run`, `make dev` and every replica of `make room` start the app this way, and so does
the Docker image. Streamlit Community Cloud runs app.py itself: there the first visitor after
a restart does the preload, and only ui/pace.py's budget on page runs applies.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ASGI = ROOT / "deploy" / "asgi.py"


def one_thread_per_call() -> None:
    """Every session shares the process's cores, so numpy's linear algebra gets one thread a
    call (OpenBLAS's default is one per core, each call). With one per core, a tab that made
    the reconstruction page compute afresh on every run (a new seed each time) took 1.5 of
    this machine's 2 cores and ran 29 times in 16 s; with one, 1.0 core and 39 runs, and a
    bystander's slider move waited 44 ms (p50) and 75 ms (max) instead of 49 and 163, with
    six such tabs 196 and 367 instead of 323 and 537 (bench/bench_seed_flood.py). Set before
    numpy is imported; an operator's own OPENBLAS_NUM_THREADS is kept."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: list[str] | None = None) -> int:
    """`streamlit run deploy/asgi.py` with `argv` (the options after the script)."""
    one_thread_per_call()
    options = list(sys.argv[1:] if argv is None else argv)
    os.chdir(ROOT)  # the project's .streamlit/ folder is the working directory's
    if str(ROOT) not in sys.path:  # started by path: the course's packages are in ROOT
        sys.path.insert(0, str(ROOT))
    from streamlit.web import cli

    return cli.main(args=["run", str(ASGI), *options], prog_name="streamlit")


if __name__ == "__main__":
    sys.exit(main())
