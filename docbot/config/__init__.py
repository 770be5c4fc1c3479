"""Settings: one frozen object, loaded once and passed down (docs/design.md#fronts).

``choices`` holds the closed sets of values (importable without pydantic, for the hook's no-op path);
``settings`` the frozen ``Settings``; ``sources`` merges defaults < ``[tool.docbot]`` < config.json <
environment < flags, with the layer that set each key; ``show`` is ``docbot config --show``.
"""
