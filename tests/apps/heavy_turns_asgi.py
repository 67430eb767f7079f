"""tests/apps/heavy_turns.py served as the course's server serves app.py (deploy/asgi.py):
an `st.App` whose lifespan installs deploy/give_way.py's yield point."""

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402


@asynccontextmanager
async def lifespan(_app: st.App) -> AsyncIterator[None]:
    from deploy import give_way

    give_way.install()
    yield


app = st.App(ROOT / "tests" / "apps" / "heavy_turns.py", lifespan=lifespan)
