"""The code behind the charts of this lesson. Its sampling chart is the coin-flip lesson's
repeated survey with any p and q, so it shows the same snippet (see ui/snippets.py)."""

from lessons.coin_flip.snippets import REPEATED_SURVEYS

__all__ = ["REPEATED_SURVEYS"]
