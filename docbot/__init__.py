"""docbot: API documentation for Python code, written by a loop of local models and checked against the code."""

__version__ = "0.1.0"
