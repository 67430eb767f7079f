"""The course's server as an ASGI app: Streamlit's documented `st.App` over app.py, with the
per-connection message budget (deploy/guard.py) in front of Streamlit's websocket, a budget on
the files a tab uploads (deploy/uploads.py) in front of its upload route, and in its
lifespan, before the first visitor, the per-process preload (lessons/preload.py) and the yield
point that ends a superseded run waiting its turn (deploy/give_way.py).

deploy/serve.py starts it (`make run`, `make dev`, every replica of `make room`, the Docker
image) as `streamlit run deploy/asgi.py [options]`: Streamlit's command line finds `app`
below and serves it with uvicorn, with the same options and .streamlit/config.toml.
Streamlit Community Cloud runs app.py itself, without this module.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # uvicorn imports this module with deploy/ on the path
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402
from starlette.middleware import Middleware  # noqa: E402

from deploy.guard import FloodGuard  # noqa: E402
from deploy.uploads import UploadGuard  # noqa: E402


@asynccontextmanager
async def lifespan(_app: st.App) -> AsyncIterator[None]:
    """Before the server takes its first connection: import and freeze every lesson's code
    (the first student after a restart would otherwise wait for it on Home); a run waiting for
    the heavy turn ends when its tab closed or asked for a newer run (deploy/give_way.py)."""
    import lessons.preload  # noqa: F401
    from deploy import give_way

    give_way.install()

    yield


app = st.App(
    ROOT / "app.py",
    middleware=[Middleware(FloodGuard), Middleware(UploadGuard)],
    lifespan=lifespan,
)
