"""Benchmarks: run from the repository root as `python -m bench.<name>` (README, "How it is built")."""
