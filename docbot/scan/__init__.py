"""Step 1: git + source -> targets, the public functions a diff or a tree holds (docs/design.md#scanner).

``repo`` builds a scan from what ``docbot.git`` says; ``targets`` decides which functions a diff
touched; ``ast_finder`` (fast) and ``cst_finder`` (lossless) find functions in a module;
``publicity`` applies module-level publicity (``__all__``, private modules); ``cache`` remembers each
file's functions by its git blob id.
"""
