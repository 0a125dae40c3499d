#!/bin/sh
python tune.py --host "llvm -mtriple=aarch64-linux-gnu"
