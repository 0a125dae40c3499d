from lib import _target_of, board
print(board().attrs["mtriple"], _target_of("llvm -mcpu=skylake").attrs["mcpu"])
