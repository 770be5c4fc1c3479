"""docbot: API documentation for Python code, written by a loop of local models and checked against the code.

docbot's public interface is its command line (``docbot``, ``reflexion``, the pre-commit hooks and the
GitHub Action), its configuration and its ``--json`` reports, all described in README.md; its modules are
not an import API, so ``__all__`` names only the version (``docbot verify``'s coverage counts what it names).
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
