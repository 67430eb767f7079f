"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui import snippets

# the repeated survey, also the binary RR lesson's (so it lives in ui/snippets.py)
REPEATED_SURVEYS = snippets.REPEATED_RR_SURVEYS
