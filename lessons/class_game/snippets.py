"""The code behind the game's verdict: the room's rates and the ε they prove (Clopper–Pearson,
as the membership lesson's audit; see ui/snippets.py)."""

from ui.snippets import Snippet

PROOF = Snippet(
    "game_proof",
    "The ε the room has proven, from its guesses",
    """
    import math

    import pandas as pd

    import dp

    epsilon = $epsilon  # what the mechanism promises
    # rounds with the volunteer's record, and how many the room found; rounds without, and
    # how many it wrongly called "with"
    true_positives, positives = $tp, $positives
    false_positives, negatives = $fp, $negatives
    # the projector recomputes the bound after each of the game's rounds: each look at
    # 1 − 5%/rounds, so that all of them hold together with 95% confidence (union bound)
    rounds = $rounds
    proven = dp.epsilon_lower_bound(
        true_positives, positives, false_positives, negatives, confidence=1 - 0.05 / rounds
    )
    best = 1 / (1 + math.exp(-epsilon))  # the best possible guesser's share right
    frame = pd.DataFrame({
        "proven ε (95%)": [proven], "promised ε": [epsilon], "best share right": [best],
    })
    """,
    {"epsilon": 5.0, "tp": 5, "positives": 5, "fp": 0, "negatives": 5, "rounds": 10},
)
