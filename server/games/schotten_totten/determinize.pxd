# Cython's augmenting declarations for determinize.py (read only by `standoff accelerate`; see
# server/accelerate.py). Role counters are C integers; cards stay Python ints; the state is the
# STState extension type (state.pxd), its fields read as struct members.
import cython

from .state cimport STState


@cython.locals(n=cython.Py_ssize_t, other=cython.Py_ssize_t, troops=cython.bint, known=set, pool=list,
               hand=list, new_tops=list, new=STState)
cpdef STState redeal(STState state, Py_ssize_t role, rng)
