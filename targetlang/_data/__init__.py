"""Generated schema data (one JSON file per dialect); see scripts/generate_schema.py."""
