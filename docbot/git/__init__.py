"""Git, the one edge docbot reads a checkout through (docs/design.md#scanner).

``runner`` starts every git process docbot runs; ``repo`` asks it what the checkout holds (revisions,
tracked, staged and changed paths, file text); ``blobs`` reads many blobs through one process;
``diff`` reads ``git diff`` output into changed line ranges. No module outside this folder starts git.
"""
