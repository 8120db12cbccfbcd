# Cython's augmenting declarations for board.py (read only by `standoff accelerate`; see
# server/accelerate.py). Flag, role and size counters are C ints (9 flags, 2-3 roles); card
# masks and decision numbers stay Python ints.
import cython

@cython.locals(n=cython.Py_ssize_t, f=cython.Py_ssize_t, base=cython.Py_ssize_t, mud_f=cython.int,
               fog_f=cython.int, size=cython.int, other=cython.Py_ssize_t)
cpdef claimable_flags(state, Py_ssize_t role)

@cython.locals(f=cython.Py_ssize_t)
cpdef open_flag_options(state, Py_ssize_t role)
