"""The TVM 0.21 golden corpus (``tests/data/tvm-0.21/``), recorded by ``scripts/record_goldens.py``:
one module per family of inputs (``inputs_*``), the corpus built from them, the oracle run,
the provenance file."""
