#!/bin/sh
TARGET="cuda -arch=sm_80"
python tune.py --target "$TARGET" --target-host 'llvm -mcpu=skylake'
X=$(python build.py --target "llvm -mcpu=a")
