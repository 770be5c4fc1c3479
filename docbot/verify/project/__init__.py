"""``docbot verify`` on a whole project and its drift gate: the package and its API index, every doc read and
checked (``docs``), what a diff made false (``drift``), suggested fixes (``suggest``), and ``report``: the text,
``--json`` and exit code of each verify report."""
