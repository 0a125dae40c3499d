"""The formats stage: Target to text (TVM and canonical styles) and to JSON Schema."""
