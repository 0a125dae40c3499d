"""targetlang's fuzz runner: timed Hypothesis campaigns with a committed regression corpus.

    python -m fuzz --minutes 10            # from the repository root
    python fuzz/run.py --seconds 60 --seed 7 --campaign robustness
"""
