"""Step 9: ``docs/api``, the files docbot owns (docs/design.md#docs-files).

``render`` turns a doc model and facts into a section; ``pages`` parses, hashes and merges the
sections of one page (markers); ``disk`` reads and writes the pages, guarded, and says what a person
is told; ``index`` renders ``docs/api/index.md``.

``docbot pages`` (no model): ``api_model`` reads a package's public API with griffe, ``reference`` renders
a page per public module path, ``inventory`` writes ``objects.inv`` and ``publish`` puts them on disk.
"""
