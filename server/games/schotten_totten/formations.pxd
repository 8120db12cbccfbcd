# Cython's augmenting declarations for formations.py (read only by `standoff accelerate`; see
# server/accelerate.py). The .py stays the source of truth and runs unchanged without them.
# Only small counters are C ints (at most 4 cards, values 1-10, 6 colours): they cannot
# overflow. The 60-bit troop masks stay Python ints (their bit_count() would box a C int).
# cpdef makes calls between these functions, inside this module, C calls.
import cython

@cython.locals(leaders=cython.int, companion=cython.int, shield=cython.int, troops=cython.int,
               troop_sum=cython.int, morale=cython.int, morale_sum=cython.int, c=cython.int,
               values=cython.int, colours=cython.int, best_sum=cython.int, total=cython.int,
               need=cython.int, v0=cython.int, top=cython.int, col=cython.int, mono=cython.bint)
cpdef _best(cards, int size, mask, int k, fog, int floor)

cpdef strength(cards, fog)

@cython.locals(total=cython.int, values=cython.int, colours=cython.int, c=cython.int, v0=cython.int,
               n=cython.int, mono=cython.bint)
cpdef _troop_strength(key)

@cython.locals(k=cython.int)
cpdef refute(mine, mine_completed_at, theirs, theirs_completed_at, int size, unseen, fog)

@cython.locals(k=cython.int)
cpdef refute_cached(mine, mine_completed_at, theirs, theirs_completed_at, int size, unseen, fog)
