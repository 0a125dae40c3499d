import tvm
import helpers
for board in ("pi", "pc"):
    t = tvm.target.Target(helpers.board_target(board))
    print(board, t.attrs["mtriple"], list(t.attrs.get("mattr", [])))
