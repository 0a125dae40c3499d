"""The lowering stage: text, tags and JSON to Target (hooks, release readers, trace, registry)."""
