"""Step 8: the OS boundary around a doc's examples (docs/design.md#sandbox).

``runner`` runs a doc's steps in one sandboxed child and collects a result per step; ``boundary``
builds the bubblewrap command (or says why there is none); ``supervise`` feeds and reads the child
within caps; ``child`` and ``compare`` run INSIDE the sandbox, stdlib only, loaded through stand-in
packages (``runner._BOOTSTRAP``), never by docbot itself; ``step`` is what one example step asks.
"""
