import tvm
from tvm.target import arm_cpu
board = arm_cpu("rasp4b")
print(board.kind.name, board.model, board.mcpu)
