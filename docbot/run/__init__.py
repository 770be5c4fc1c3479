"""Step 4: ``docbot run`` as a use case: plan -> cheap decisions -> loop -> write (docs/design.md#plan).

``pipeline`` is the run itself; ``jobs`` documents several functions at once; ``shards`` splits a run
over CI matrix jobs and merges their reports; ``cache`` is the result cache; ``single_file`` is the
seed-compatible one-file job.
"""
