"""Publishing to GitHub: the comment and summary text (report), the REST client (client), the
commit-mode push (commit), and the Action's publishing step that ties them together (publish)."""
