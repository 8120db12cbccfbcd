"""The modules of this game that the optional engine build
compiles (relative to the package): the
ones where its engine and views spend their time (profiled); the map and card tables gain
nothing worth their compile time. The event modules hold the lasting effects' hooks (hooks.py),
asked at nearly every decision: compiled, a rollout is faster (benchmarks/bench_forward_model.py);
the card texts come along with them. Read by the build as a file of its
own (the engine is not imported before it is built)."""

MODULES = (
    "board",
    "common",
    "determinize",
    "effects",
    "events.early_war",
    "events.late_war",
    "events.mid_war_36_59",
    "events.mid_war_60_108",
    "events.primitives",
    "events.registry",
    "events.scoring",
    "game",
    "ops",
    "playout",
    "state",
    "turn",
)
