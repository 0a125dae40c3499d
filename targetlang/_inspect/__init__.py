"""The inspection stage: lint, explain and diff, the readers of the lowering's trace."""
