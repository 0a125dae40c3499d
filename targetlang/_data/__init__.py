"""Generated data tables; each release's facts are one file, releases/tvm-0.N.json (see
scripts/README.md for the script that writes each file)."""
