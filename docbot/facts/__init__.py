"""Step 2: what the code says about one function, read with ``ast``: what a doc must not get wrong.

``function`` holds the ``Facts`` (signature, parameters, defaults, returns); ``raises`` reads every
raise site with its type, literal message and the condition around it.
"""
