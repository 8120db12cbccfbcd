"""The modules of this game that the optional engine build
compiles (relative to the package): the
ones whose compiled form measurably pays. Read by the build as a file of
its own (the engine is not imported before it is built)."""

MODULES = (
    "board",
    "cards",
    "determinize",
    "formations",
    "game",
    "playout",
    "rules",
    "state",
    "steps",
    "tactics",
    "turn",
)
