"""The course's menu in the sidebar.

st.navigation's own sidebar menu draws each section as a `<div>` inside the `<ul>` of its
items, and the items as `<li>`s outside any list: a screen reader cannot count or walk them,
and axe reports WCAG 1.3.1 (its `list` and `listitem` rules, 24 nodes on every page). The
app keeps st.navigation for routing, with its menu hidden, and draws this one: each section's
name, then one st.page_link per page (a real link, reached with Tab, the current page
marked). Streamlit's own "Skip to main content" link stays the first stop of the Tab key."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from ui import text


def sidebar_menu(sections: Mapping[str, Sequence[st.Page]]) -> None:
    """Each section's name, then a link to each of its pages, in order, in the sidebar."""
    with st.sidebar:
        for section, pages in sections.items():
            st.markdown(f"**{text.plain(section)}**")
            for page in pages:
                st.page_link(page, label=page.title, icon=page.icon)
