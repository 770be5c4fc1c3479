"""Reading a doc, no code run and nothing judged: Markdown (markdown-it) and reStructuredText (docutils) as the
checks read them, a function's section, a topic passage's API references, pydoc dumps, parameter entries, and the
examples with what they state (doctest sessions, marker comments, output blocks). ``markdown.fences`` is the one
fence reader docbot has: docs/api's merge and the PR comment use it too."""
