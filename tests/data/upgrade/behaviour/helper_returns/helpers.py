def board_target(board):
    if board == "pi":
        return "llvm -mtriple=aarch64-linux-gnu -mattr=+neon"
    return "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake"
