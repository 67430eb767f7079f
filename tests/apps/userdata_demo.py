"""A small host page for ui/userdata.py, for its AppTest and browser tests (the lessons
wire the picker in themselves)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from ui import userdata  # noqa: E402

st.title("Your own data")
userdata.dataset_picker()
userdata.show_dataset_in_use()
column = userdata.pick_categorical_column("demo_column", default="Occupation")
condition = userdata.pick_condition("demo_condition", default="Occupation = Sales")
name, frame = userdata.active_dataset()
st.metric("Rows", f"{len(frame):,}")
if condition is not None:
    st.metric("Rows answering yes", f"{int(condition.mask(frame).sum()):,}")
if column is not None:
    counts = userdata.category_counts(frame, column)
    st.dataframe(counts.rename_axis("category").reset_index(name="count"), hide_index=True)
