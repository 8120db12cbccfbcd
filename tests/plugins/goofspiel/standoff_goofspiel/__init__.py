"""Goofspiel for the standoff referee: a game plugin (rules, view message, text boards) and a bot.

The package's modules: :mod:`.rules` (pure rules code: the engine contract, no I/O),
:mod:`.codec` (the view as this plugin's own protobuf message, ``goofspiel.proto``),
:mod:`.boards` (text boards for replays and reports), :mod:`.bot` (``goofspiel-greedy``) and
:mod:`.plugin` (the entry point: registers the game and the bot).
"""
