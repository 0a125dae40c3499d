#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: one fuzzer binary per fuzz/fuzz_<target>.py, with
# the language's dictionary and the committed seed corpus of the raw-bytes targets.
pip3 install . 'hypothesis>=6.100'
for fuzzer in fuzz/fuzz_*.py; do
  name=$(basename "$fuzzer" .py)
  if [ "$name" = fuzz_differential ]; then
    continue  # needs a live TVM 0.21, which the fuzzing infrastructure does not have
  fi
  compile_python_fuzzer "$fuzzer" --paths "$SRC/targetlang" --collect-data targetlang
  cp fuzz/targetlang.dict "$OUT/$name.dict"
  printf '[libfuzzer]\nmax_len = 16384\n' > "$OUT/$name.options"  # as python -m fuzz runs it
  seeds="fuzz/seeds/${name#fuzz_}"
  if [ -d "$seeds" ]; then
    (cd "$seeds" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
  fi
done
