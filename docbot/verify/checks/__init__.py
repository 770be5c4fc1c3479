"""Claims held to the code: each module takes a doc's text (or a doc model) and the code's facts and returns
``Finding``s (docbot.verify.findings). ``page.check_doc`` runs every check of one function's Markdown;
``model.check_model`` the doc model's exact checks; ``source_doc`` a whole doc against one source file;
``examples`` runs a doc's examples in the sandbox and compares; ``reader`` weighs a finding as a reader of a
person's doc meets it."""
