# Cython's augmenting declarations for game.py (read only by `standoff accelerate`; see
# server/accelerate.py). make_decision is cpdef, so the engines that cimport it (the Battle Line
# steps: turn.pxd, tactics.pxd) call it as a C function.

cpdef make_decision(role, step, prompt, options)
