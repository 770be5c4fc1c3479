"""Truth checks: a doc held against the code, in code, never asked of a model (docs/design.md#truth-checks).

Four rooms, along the data path (each ``__init__`` says what it holds):

- ``findings.py``: the one ``Finding`` type and the one table of checks, where a finding's severity is decided
  (``lower`` is the only way a rule changes it);
- ``read/``: a doc turned into what the checks read: Markdown and RST, sections, passages and their API
  references, pydoc dumps, examples and the claims their comments make, and the one fence reader;
- ``checks/``: claims held to the code: parameters, raises and their reach, returns, text rules, examples run in
  the sandbox and their environment, the doc model's exact checks, and how a reader weighs what they found;
- ``project/``: a whole project: its package and API index, every doc verified, the drift gate, suggested
  fixes, and the reports with their text and exit codes.

Nothing is imported here, so that a caller of one check loads only that check's room.
"""
