"""Real match records to copy: the templates :mod:`gen_history` rewrites into a long history.

Every template is a record the project's own code wrote, played once at generation start:

* natural endings: :func:`standoff.server.local.play_match` (the referee's match driver with
  in-process seats) between cheap built-in bots, several seeds and pairings per game;
* draws: Schotten Totten with ``decision_cap = "100"`` (the rules' safety net: a draw) and short
  Twilight Struggle games (``end_turn = "1"``) whose final scoring is level;
* a forfeit: a bot that overruns its time (the driver's timeout, then the fault policy);
* ``not_played`` and ``shutdown``: the match driver ended as the referee ends it when a remote
  seat never connects or the server stops mid-match;
* a ladder's matches: a tiny real ladder (:func:`standoff.tournaments.runner.run_tournament`) in
  a temporary folder, whose records and results lines are both templates.

A :class:`Template` keeps the lines between header and outcome twice: as written (the bytes a
copy carries) and as :func:`standoff.server.ledger.record_digest` encodes them (timing fields
out, keys sorted), so that a copy's digest costs one SHA-256 over bytes ready-made instead of a
JSON parse of every line (tests/test_gen_history.py checks it equals ``record_digest``).
"""

from __future__ import annotations

import hashlib
import json
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from standoff.server.answers import ask_in_process
from standoff.server.core.record import dump_line
from standoff.server.faults import FORFEIT, TimeControl
from standoff.server.ledger import TIMING_FIELDS
from standoff.server.local import bot_seed, code_version, play_match
from standoff.server.match import MatchDriver
from standoff.server.records import RecordWriter
from standoff.server.seats import InProcessSeat

ST, TS = "schotten-totten", "twilight-struggle"
#: The cheap built-in bots the templates are played with (names are rewritten per copy).
PLAYERS = {ST: ("greedy", "probability", "random"), TS: ("ts-heuristic", "random")}
#: Natural endings longer than this are played but not kept: Twilight Struggle games that go
#: the ten turns write 45-85 KB, and a history of them would take 50 GB a million matches.
#: With the rest a history's mean record is about 15 KB (played ones 3-25 KB; a ``not_played``
#: record, a header and its outcome, 0.5 KB).
MAX_TEMPLATE_BYTES = 32 * 1024


def canonical(obj: dict[str, Any]) -> bytes:
    """One record line as :func:`standoff.server.ledger.record_digest` hashes it."""
    kept = {key: value for key, value in obj.items() if key not in TIMING_FIELDS}
    return json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


@dataclass(frozen=True)
class Template:
    """One real record, split for copying. ``kind``: natural, draw, forfeit, not_played,
    shutdown. ``names``: role -> the bot it was played with (a forfeit's reason names it)."""

    game: str
    kind: str
    header: dict[str, Any]
    footer: dict[str, Any]
    middle: bytes  # the decision lines as written, newlines included
    middle_canon: bytes  # the same lines as record_digest encodes them
    names: dict[str, str]
    result: dict[str, Any] = field(default_factory=dict)  # a ladder template's results line

    @classmethod
    def from_file(cls, path: Path, kind: str, result: dict[str, Any] | None = None) -> Template:
        """From a record file the project wrote (read back as record_digest reads it)."""
        lines = [line for line in path.read_text(encoding="utf-8").splitlines(keepends=True) if line.strip()]
        objects = [json.loads(line) for line in lines]
        header, footer = objects[0], objects[-1]
        assert header["type"] == "header" and footer["type"] == "outcome", path
        return cls(
            game=header["game"], kind=kind, header=header, footer=footer,
            middle="".join(lines[1:-1]).encode(), middle_canon=b"".join(canonical(o) for o in objects[1:-1]),
            names=dict(header["roles"]), result=dict(result or {}),
        )

    def copy(self, match_id: str, seed: int, roles: dict[str, str], reason: str | None = None
             ) -> tuple[bytes, str, dict[str, Any]]:
        """The record of a copy with these ``match_id``, ``seed`` and seats: ``(file bytes,
        record digest, outcome line)``. The outcome's reason names the new bots where it named
        the template's (``reason`` replaces it whole)."""
        header = dict(self.header)
        header["match_id"], header["seed"], header["roles"] = match_id, seed, roles
        footer = self.footer
        if reason is not None or self.kind == "forfeit":
            footer = dict(footer)
            footer["reason"] = reason if reason is not None else self.renamed(footer["reason"], roles)
        digest = hashlib.sha256(canonical(header))
        digest.update(self.middle_canon)
        digest.update(canonical(footer))
        text = (dump_line(header) + "\n").encode() + self.middle + (dump_line(footer) + "\n").encode()
        return text, digest.hexdigest(), footer

    def renamed(self, text: str, roles: dict[str, str]) -> str:
        for role, old in self.names.items():
            text = text.replace(f"{role} ({old})", f"{role} ({roles[role]})")
        return text


# -- playing the server's templates ----------------------------------------------------------------


class _Stalling:
    """A built-in bot that stops answering in time from its ``after``-th decision on (a remote
    bot gone quiet): the driver times it out and the fault policy decides."""

    def __init__(self, bot: Any, after: int, stall_s: float) -> None:
        self._bot, self._after, self._stall_s, self._asked = bot, after, stall_s, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)

    def choose(self, decision: Any, view: Any) -> Any:
        self._asked += 1
        if self._asked >= self._after:
            time.sleep(self._stall_s)  # interrupted by the driver's alarm (DecisionTimeout)
        return self._bot.choose(decision, view)


def _played(registry: Any, game_name: str, names: dict[str, str], seed: int, folder: Path, kind: str,
            options: dict[str, str] | None = None, stall: tuple[str, int] | None = None) -> Template:
    """A match played to its end as the referee plays it (fault policy forfeit, timed)."""
    game = registry.game(game_name)
    rules = game.rules(None, options or {})
    bots = {role: registry.make_bot(name, bot_seed(seed, role, 0), game_name) for role, name in names.items()}
    tc = TimeControl()
    if stall is not None:
        role, after = stall
        bots[role] = _Stalling(bots[role], after, 0.5)
        tc = TimeControl(max_per_decision_ms=50)
    path = folder / f"{kind}-{game_name}-{seed}.jsonl"
    with RecordWriter(path) as writer:
        play_match(game, rules, bots, seed, bot_names=names, match_id=path.stem, on_line=writer.write,
                   time_control=tc, policy=FORFEIT)
    return Template.from_file(path, kind)


def _ended_by_referee(registry: Any, game_name: str, names: dict[str, str], seed: int, folder: Path,
                      kind: str, decisions: int) -> Template:
    """A match the referee ends without result: ``not_played`` (nothing played) or
    ``shutdown`` after ``decisions`` decisions, driven as :mod:`standoff.server.referee` does."""
    game = registry.game(game_name)
    rules = game.rules(None, {})
    path = folder / f"{kind}-{game_name}-{seed}.jsonl"
    with RecordWriter(path) as writer:
        driver = MatchDriver(game, rules, seed, names, match_id=path.stem, time_control=TimeControl(), policy=FORFEIT,
                             on_line=writer.write, code_version=code_version())
        if kind == "not_played":
            driver.end_without_result("not_played", f"never connected: {', '.join(names.values())}")
        else:
            seats = {role: InProcessSeat(registry.make_bot(name, bot_seed(seed, role, 0), game_name), game, path.stem)
                     for role, name in names.items()}
            for role in rules.roles:
                seats[role].start(driver.started_message(role))
            while decisions > 0 and (ask := driver.next_ask()) is not None:
                driver.settle(ask, ask_in_process(seats[ask.role], driver.state, ask, _call, str))
                decisions -= 1
            driver.end_by_shutdown()
        driver.finish()
    return Template.from_file(path, kind)


def _call(answer: Any, prepared: Any, ask: Any) -> Any:
    """A seat asked in this thread, without an alarm (as ``play_match`` asks an untimed one)."""
    return answer(prepared)


def server_templates(registry: Any, folder: Path, seed: int = 1, per_game: int = 8) -> dict[str, list[Template]]:
    """The server's templates, per game: ``per_game`` natural endings and one or more of every
    other kind. A few seconds."""
    rng = random.Random(seed)
    found: dict[str, list[Template]] = {ST: [], TS: []}
    for name, players in PLAYERS.items():
        game = registry.game(name)
        roles = game.rules(None, {}).roles
        for _ in range(per_game * 4):
            names = dict(zip(roles, (rng.choice(players), rng.choice(players)), strict=True))
            template = _played(registry, name, names, rng.getrandbits(62) + 1, folder, "natural")
            if len(template.middle) <= MAX_TEMPLATE_BYTES:
                found[name].append(template)
            if len(found[name]) == per_game:
                break
        pair = dict(zip(roles, players[:2], strict=True))
        found[name].append(_played(registry, name, pair, rng.getrandbits(62) + 1, folder, "forfeit",
                                   stall=(roles[1], 5)))
        remote = {role: f"remote:{who}" for role, who in zip(roles, ("alice", "bob"), strict=True)}
        found[name].append(_ended_by_referee(registry, name, remote, rng.getrandbits(62) + 1, folder, "not_played", 0))
        found[name].append(_ended_by_referee(registry, name, pair, rng.getrandbits(62) + 1, folder, "shutdown", 40))
    found[ST].append(_played(registry, ST, {"p1": "greedy", "p2": "random"}, rng.getrandbits(62) + 1, folder, "draw",
                             options={"decision_cap": "100"}))
    for attempt in range(60):  # level final scorings: about one short game in fifteen
        template = _played(registry, TS, {"ussr": "ts-heuristic", "us": "ts-heuristic"}, 1000 + attempt, folder,
                           "draw", options={"end_turn": "1"})
        if template.footer.get("winner") is None:
            found[TS].append(template)
            break
    return found


# -- the ladder's templates -------------------------------------------------------------------------


def ladder_templates(config: Any, registry: Any, rounds: int = 3) -> list[Template]:
    """Records and results lines of a tiny real ladder of ``config`` (played in a temporary
    folder): every match of ``rounds`` rounds."""
    from dataclasses import replace

    from standoff.tournaments.report import read_results
    from standoff.tournaments.runner import run_tournament

    with tempfile.TemporaryDirectory(prefix="gen-history-ladder-") as tmp:
        tiny = replace(config, output_dir=tmp, master_seed=config.master_seed or 1)
        summary = run_tournament(tiny, registry=registry, ladder=True, rounds=rounds)
        if not summary.complete:
            raise RuntimeError("the template ladder did not complete")
        folder = summary.run_dir
        lines = [json.loads(line) for line in (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()]
        assert len(lines) == len(read_results(folder / "results.jsonl"))
        templates = []
        for line in lines:
            line.pop("prev")
            (name,) = line["records"]
            templates.append(Template.from_file(folder / "records" / name, "natural", result=line))
        return templates
