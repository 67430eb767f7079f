"""A page with one heavy cached function, for tests/test_give_way.py: `?x=N&s=SECONDS` computes
work(N), spending SECONDS of its thread's CPU, and the file named by PP_HEAVY_LOG gets a line
when a run asks for it ("asked N") and when its computation starts ("start N")."""

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from ui import datasets  # noqa: E402

LOG = Path(os.environ["PP_HEAVY_LOG"])
datasets.NOTICE_S = 0.5  # the waiting notice comes soon (the tests wait ~3 s)


def note(line: str) -> None:
    with LOG.open("a") as log:
        log.write(line + "\n")


@datasets.cached()
def work(x: int, seconds: float) -> int:
    note(f"start {x}")
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass
    return x


x = int(st.query_params.get("x", "0"))
seconds = float(st.query_params.get("s", "0.1"))
note(f"asked {x}")
st.metric("Result", work(x, seconds))
