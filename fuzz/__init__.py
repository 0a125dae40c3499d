"""targetlang's fuzzing: coverage-guided on libFuzzer (atheris), or plain Hypothesis.

    python -m fuzz --minutes 10 --jobs 2      # from the repository root
    python fuzz/run.py --seconds 60 --seed 7 --campaign parse_bytes
    python fuzz/fuzz_parse_bytes.py -runs=100000 fuzz/corpus/parse_bytes fuzz/seeds/parse_bytes
"""
