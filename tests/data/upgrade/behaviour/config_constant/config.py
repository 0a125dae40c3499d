# the project's one place for its target, imported by the tuning script
TARGET = "llvm -mcpu=cascadelake -num-cores=4"
