"""The truth-check benchmark: `python -m bench.truth.run`."""
