"""The self-correcting loop for one function (docs/design.md#loop): state, prompts, nodes, router,
graph, runner, scoring and cleanup."""
