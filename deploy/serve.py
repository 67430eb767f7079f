"""`python deploy/serve.py [streamlit run options]`: the course's server, with its per-process
work done before the first visitor arrives.

A server process imports pandas, Altair, scipy and every lesson's code, then freezes them out
of the cycle collector (lessons/preload.py). With a bare `streamlit run app.py` that happens in
the first session's first run, so the first student after a restart waited for it on Home:
2.6-3.1 s to the page, against 1.2-1.6 s for the next student (bench/bench_first_visit.py's
way of measuring, 1280x800, quiet 2-core box). This launcher imports lessons.preload first,
then hands over to Streamlit's own command line, exactly as the `streamlit` command does
(`streamlit.web.cli:main` is that command's entry point): app.py's `import lessons.preload`
then finds the work done.

`make run` and every replica of `make room` start the app this way. Streamlit Community Cloud
runs app.py itself, so there the first visitor after a restart still does the work.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"


def main(argv: list[str] | None = None) -> int:
    """Preload, then `streamlit run app.py` with `argv` (the options after the script)."""
    options = list(sys.argv[1:] if argv is None else argv)
    if str(ROOT) not in sys.path:  # started by path: the course's packages are in ROOT
        sys.path.insert(0, str(ROOT))
    from streamlit.web import cli

    import lessons.preload  # noqa: F401  (imports and freezes the lessons' code, once)

    return cli.main(args=["run", str(APP), *options], prog_name="streamlit")


if __name__ == "__main__":
    sys.exit(main())
