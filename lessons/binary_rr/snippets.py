"""The code behind the charts of this lesson. Its sampling chart is the coin-flip lesson's
repeated survey with any p and q, so it shows the same snippet (ui/snippets.py)."""

from ui import snippets

REPEATED_SURVEYS = snippets.REPEATED_RR_SURVEYS
