# Cython's augmenting declarations for board.py (read only by `standoff accelerate`; see
# server/accelerate.py). The state is the TSState extension type (state.pxd), so its fields are
# read as struct members; the helpers are cpdef, so the steps call them as C functions.
import cython

from .state cimport TSState, other


@cython.locals(mine=cython.long, stability=cython.long)
cpdef bint controls(TSState state, Py_ssize_t side, Py_ssize_t country) except -1

cpdef controller(TSState state, country)

cpdef win(TSState state, side, termination, reason)

cpdef add_vp(TSState state, side, amount, check=*)

@cython.locals(frame=tuple)
cpdef bint in_event(TSState state) except -1

cpdef check_vp(TSState state)

cpdef set_defcon(TSState state, value)

cpdef degrade_defcon(TSState state, by=*)

@cython.locals(ignored=set, countries=list, extra=dict, counts=list, total=cython.Py_ssize_t,
               bgs=cython.Py_ssize_t, bonus=cython.Py_ssize_t, all_bgs=cython.Py_ssize_t, c=cython.Py_ssize_t,
               mine=set, result=list)
cpdef tuple score_region(TSState state, region)
