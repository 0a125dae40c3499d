#!/bin/sh
python tune.py --target "llvm -mcpu=skylake-avx512"
tvmc compile --target "llvm -mcpu=skylake-avx512" resnet50.onnx
