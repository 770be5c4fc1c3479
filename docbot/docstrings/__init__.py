"""Step 10: the same doc model written into the source as docstrings (docs/design.md#docstrings).

``text`` renders a doc model in Google, NumPy or reST style (pure); ``writer`` inserts or replaces one
function's docstring with libcst; ``apply`` is the ``--write-docstrings`` step after a run.
"""
