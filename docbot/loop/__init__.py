"""The self-correcting loop for one function: state, prompts, nodes, router, graph (SPEC §3)."""
