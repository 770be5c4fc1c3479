"""The fronts: the ``docbot`` and ``reflexion`` commands, the pre-commit hook and the GitHub Action.

Each parses its input, calls a use case, prints, and maps errors to exit codes (``common.guarded``).
A front imports no other front except ``common`` and ``console``; nothing outside this package
imports a front.
"""
