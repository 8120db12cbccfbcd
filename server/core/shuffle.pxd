# Cython's augmenting declarations for shuffle.py (read only by `standoff accelerate`; see
# server/accelerate.py). The loop's counters are C integers; the drawn index stays a Python int
# (getrandbits returns one), and the pile is exactly a list, as both games' re-deals pass it.
import cython


@cython.locals(i=cython.Py_ssize_t, n=cython.Py_ssize_t, k=cython.int, bits=tuple)
cpdef shuffle(rng, list cards)
