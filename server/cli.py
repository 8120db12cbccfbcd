"""The ``standoff`` command line.

Every user error (unknown game, bot, ruleset or option, unreadable record) is one clear line on
stderr and exit status 2; nothing is half-written. The commands about run folders and submitted
bots are in :mod:`.cli_runs`, what the commands share in :mod:`.cli_common`. The layers above add
theirs (``bot run``: :mod:`standoff.sdk.cli`; tournaments, ladders, ratings and reports:
:mod:`standoff.tournaments.cli`, where the whole ``standoff`` command is assembled).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

import os
from pathlib import Path

# The engine is imported by the commands that use it, after the check of the compiled engine
# (main): `standoff accelerate`, which rebuilds or removes a stale one, must run without it.
from .accelerate import AccelerateError, check_fresh
from .accelerate import main as cmd_accelerate
from .cli_common import DEFAULT_ADDRESS, DEFAULT_DATA_DIR, UsageError, parse_options
from .cli_common import plugin_registry as _registry
from .cli_common import submissions_folder as _submissions_folder
from .cli_common import token_registry as _tokens
from .cli_runs import cmd_retire, cmd_submissions, cmd_submit, cmd_verify
from .import_guard import StaleEngineError

#: The exit status of a command whose bot failed in its own code (``standoff bot run``: the bot
#: raised; ``standoff play``: a bot's fault ended or changed the match): its fault, not ours.
BOT_FAILED = 3


def make_bot(registry, name: str, game: str, seed: int):
    from .plugins import PluginError

    try:
        return registry.make_bot(name, seed, game)
    except PluginError as exc:
        raise UsageError(str(exc.args[0] if exc.args else exc)) from None


def _game(registry, name: str):
    from .plugins import PluginError

    try:
        return registry.game(name)
    except PluginError as exc:
        raise UsageError(str(exc.args[0] if exc.args else exc)) from None


def _start_position(game, args: argparse.Namespace):
    """``--position FILE`` as ``(rules, position dict)``: the file read, checked and written back
    whole (the record's header carries every field); one line on any mistake."""
    from .position_files import PositionError, from_position, read_position, source_label, to_position

    if args.ruleset is not None or args.option:
        raise UsageError("--position carries its own ruleset and options: drop --ruleset/--option")
    where = _position_source(args.position)
    try:
        state = from_position(game, read_position(args.position, game))
    except PositionError as exc:
        raise UsageError(f"{where}: {exc}") from None
    if game.decision(state) is None:
        raise UsageError(f"{where}: the match is over in this position: nothing to play")
    return state.rules, to_position(state, game)


def _position_source(position: str) -> str:
    """How messages name ``--position``'s argument: its path, or ``--position`` for a text given
    inline (not the text: it may be many lines). An empty one is a mistake, not the deal."""
    from .position_files import source_label

    if not position.strip():
        raise UsageError("--position: empty: give a position file or a position's text (docs/positions.md), "
                         "or leave --position out to play from the deal")
    return source_label(position, inline="--position")


def cmd_play(args: argparse.Namespace) -> int:
    """One match in this process, under a fault policy (``--policy``, forfeit by default), as
    on a server but untimed: a bot that raises is a ``crash`` fault, a bad index an
    ``illegal_choice``, its own loss under ``forfeit`` (the outcome line names the bot and its
    file:line; the traceback goes to stderr), and the exit status is :data:`BOT_FAILED`."""
    from .faults import policy_from_name
    from .local import bot_seed, new_seed, play_match
    from .records import RecordWriter

    registry = _registry()
    game = _game(registry, args.game)
    position = None
    if getattr(args, "position", None) is not None:
        rules, position = _start_position(game, args)
    else:
        rules = game.rules(args.ruleset, parse_options(args.option))
    roles = rules.roles
    if len(args.bot) != len(roles):
        raise UsageError(
            f"{game.name} ({rules.ruleset}) needs {len(roles)} bots, one per role "
            f"({', '.join(roles)}); got {len(args.bot)}"
        )
    try:
        policy = policy_from_name(args.policy)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.retries < 0:
        raise UsageError(f"--retries {args.retries}: expected a whole number >= 0")
    seed = args.seed if args.seed is not None else new_seed()
    for name in args.bot:
        spec = registry.bots.get(name)
        if spec is not None and not spec.trusted and not args.trust:
            raise UsageError(
                f"bot {name!r} is a third-party plugin ({spec.distribution}); `standoff play` runs bots "
                "in this process: pass --trust if you trust it, or play it on a server "
                "(`standoff serve` + `standoff match`), where it runs in a subprocess"
            )
    bots = {
        role: make_bot(registry, name, game.name, bot_seed(seed, role))
        for role, name in zip(roles, args.bot, strict=True)
    }
    names = dict(zip(roles, args.bot, strict=True))
    until = None
    if getattr(args, "until", None):
        from .positions import PositionError, from_position, stop_when

        try:
            start = from_position(game, position) if position is not None else None
            until = stop_when(start if start is not None else game.new_state(rules), args.until, game)
        except PositionError as exc:
            raise UsageError(str(exc).replace("until:", "--until:", 1)) from None
    writer = RecordWriter(args.record) if args.record else None
    try:
        result = play_match(
            game, rules, bots, seed, bot_names=names, on_line=writer.write if writer else None, position=position,
            until=until, policy=policy, retries=args.retries, timed=False,
        )
    finally:
        if writer is not None:
            writer.close()
    outcome = result.outcome
    matchup = " vs ".join(f"{role} {names[role]}" for role in roles)
    where = _position_source(args.position) if position is not None else ""
    print(f"{game.name} ({rules.ruleset}) seed {seed}: {matchup}"
          + ("" if position is None else ", from a position given inline" if where == "--position"
             else f", from the position in {where}"))
    if outcome.termination == "error":
        where = f"; record: {args.record}" if args.record else ""
        print(f"standoff: error: no result, the match ended by an error at decision "
              f"{result.record.footer.get('error_at')}: {outcome.reason}{where}", file=sys.stderr)
        return 1
    if outcome.termination == "stopped":
        number = len(result.record.moves) + 1
        print(f"stopped after the {args.until.replace('_', ' ')} (no result), before decision {number}")
        if args.record:
            print(f"its position: standoff replay {args.record} --position {number}")
    elif outcome.winner is None:
        print(f"draw by {outcome.termination}: {outcome.reason}")
    else:
        print(f"{outcome.winner} ({names[outcome.winner]}) wins by {outcome.termination}: {outcome.reason}")
    if result.faults:
        print("faults: " + ", ".join(f"{role} ({names[role]}) {kind} x{count}"
                                     for role, kinds in sorted(result.faults.items()) for kind, count in kinds.items()))
    print(f"{len(result.record.moves)} decisions")
    if args.record:
        print(f"record: {args.record}")
    return BOT_FAILED if result.faults else 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .core.record import ReplayError
    from .review import run_replay

    try:
        return run_replay(args)
    except ReplayError as exc:
        text = str(exc)
        where = "" if text.startswith(str(args.record)) else f"{args.record}: "
        # A key that is no option shows where the record stops making sense, which may be after
        # an earlier edit that was still legal: a run's digests pin the record down exactly.
        hint = " (if the record was edited, `standoff verify RUN_DIR` checks it against its run)" \
            if "is not an option" in text or "differs" in text else ""
        raise ReplayError(f"{where}{text}{hint}") from None
    except ValueError as exc:  # unreadable record, unknown game or role, bad --from, --as with --omniscient
        raise UsageError(str(exc)) from None


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio

    from .auth import RegistryError
    from .logs import configure_logging
    from .rpc import Limits, ServeError, TlsFiles, serve_forever

    configure_logging(json=True, level=args.log_level)
    if args.max_sessions_per_bot < 0 or args.rate_limit < 0 or args.rate_burst < 1:
        raise UsageError("--max-sessions-per-bot and --rate-limit take 0 (no limit) or more; --rate-burst 1 or more")
    limits = Limits(args.max_sessions_per_bot, args.rate_limit, args.rate_burst)
    if not args.drain_s >= 0:
        raise UsageError(f"--drain-s takes a number of seconds >= 0, got {args.drain_s}")
    if args.match_workers < 0:
        raise UsageError(f"--match-workers takes 0 (play matches in this process) or more, got {args.match_workers}")
    submissions = _submissions_folder(args)  # NAME@VERSION bots resolve through it
    hosts = None
    if args.match_workers:
        from .host_pool import ProcessHosts

        hosts = ProcessHosts(args.match_workers)
    tls = None
    if args.tls_cert or args.tls_key:
        if not (args.tls_cert and args.tls_key):
            raise UsageError("--tls-cert and --tls-key go together")
        tls = TlsFiles(Path(args.tls_cert), Path(args.tls_key), Path(args.tls_client_ca) if args.tls_client_ca else None)
    # A layer above's task beside the referee (`--http`: the web face), set by its serve_options:
    # made here (its address bound, or one line on a mistake), started by start_server.
    web = getattr(args, "beside", None)
    beside = web(args) if web is not None else None
    try:
        asyncio.run(
            serve_forever(
                args.address,
                tokens=_tokens(args),
                registry=_registry(),
                data_dir=Path(args.data_dir),
                tls=tls,
                insecure=args.insecure,
                grace_s=args.grace,
                limits=limits,
                drain_s=args.drain_s,
                verify=not args.no_verify,
                on_referee=lambda referee: setattr(referee, "submissions", submissions),
                hosts=hosts,
                sandbox=_sandbox(args),
                beside=beside,
            )
        )
    except (ServeError, RegistryError) as exc:  # e.g. the port is taken, the token file is broken
        raise UsageError(str(exc)) from None
    return 0


def _sandbox(args: argparse.Namespace):
    """The untrusted bots' sandbox as ``standoff serve``'s flags set it (:mod:`.sandbox`)."""
    from .sandbox import LIMIT_NAMES, Sandbox, SandboxLimits

    limits = SandboxLimits(**{name: getattr(args, f"sandbox_{name}") for name in LIMIT_NAMES})
    return Sandbox(enabled=not args.unsandboxed, limits=limits, uid_base=args.sandbox_uid_base)


def _sandbox_flags(parser: argparse.ArgumentParser) -> None:
    """``--unsandboxed`` and ``--sandbox-NAME N`` for each limit of the sandbox."""
    from .sandbox import DEFAULT_UID_BASE, LIMIT_NAMES, SandboxLimits

    parser.add_argument("--unsandboxed", action="store_true",
                        help="run untrusted plugin bots as plain subprocesses with this server's user, "
                             "environment, files and network (no bubblewrap sandbox): only bots you trust")
    defaults = SandboxLimits()
    helps = {"memory_mb": "address space per process, MiB", "cpu_s_per_match": "CPU seconds per process",
             "processes": "processes and threads (enforced when the server runs as root)",
             "open_files": "open files per process", "file_size_mb": "largest file it may write, MiB",
             "tmp_mb": "size of its private /tmp, MiB"}
    for name in LIMIT_NAMES:
        parser.add_argument(f"--sandbox-{name.replace('_', '-')}", dest=f"sandbox_{name}", type=positive,
                            default=getattr(defaults, name), metavar="N",
                            help=f"each sandboxed bot: {helps[name]} (default %(default)s)")
    parser.add_argument("--sandbox-uid-base", type=positive, default=DEFAULT_UID_BASE, metavar="UID",
                        help="as root, sandboxed bots run as UID, UID+1, ... (one per bot running at once; "
                             "default %(default)s)")


def cmd_token(args: argparse.Namespace) -> int:
    from .auth import RegistryError

    try:
        tokens = _tokens(args)
        if args.action in ("add", "revoke") and not args.name:
            raise UsageError(f"token {args.action} needs a bot NAME")
        if args.action == "add":
            token = tokens.add(args.name, admin=args.admin, replace=args.replace)
            print(token)
            print(f"token for {args.name!r} written (hashed) to {tokens.path}; it is shown only once",
                  file=sys.stderr)
        elif args.action == "revoke":
            tokens.revoke(args.name)
            print(f"revoked {args.name}")
        else:
            if tokens.path is not None and not tokens.path.exists():
                raise UsageError(f"no token registry at {tokens.path} (`standoff token add NAME` makes one; "
                                 "--data-dir/--tokens say where)")
            names = tokens.names()
            width = max((len(name) for name in names), default=0)
            for name in names:
                print(f"{name:<{width}}  {' '.join(tokens.flags(name))}".rstrip())
    except RegistryError as exc:
        raise UsageError(str(exc)) from None
    return 0


def _metadata(args: argparse.Namespace):
    token = args.token or os.environ.get("STANDOFF_TOKEN")
    if not token:
        raise UsageError("no token: give --token or set STANDOFF_TOKEN")
    return (("authorization", f"Bearer {token}"),)


def cmd_match(args: argparse.Namespace) -> int:
    import grpc

    from standoff.v1 import referee_pb2 as pb

    from .core.game import UNRATED_TERMINATIONS
    from .faults import policy_from_name

    try:
        policy = policy_from_name(args.policy)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.seed is not None and not 0 < args.seed < 2**63:
        raise UsageError(f"--seed {args.seed}: a seed is a whole number from 1 to {2**63 - 1} (leave it out: the server draws a secret one)")
    for flag, value, top in (("--retries", args.retries, 2**32), ("--bank-ms", args.bank_ms, 2**63),
                             ("--increment-ms", args.increment_ms, 2**63), ("--max-ms", args.max_ms, 2**63)):
        if not 0 <= value < top:
            raise UsageError(f"{flag} {value}: expected a whole number >= 0")
    if not 0 <= args.connect_timeout < 10**9:
        raise UsageError(f"--connect-timeout {args.connect_timeout}: expected seconds >= 0")
    start = ""
    if args.position is not None:  # checked here too, so that a mistake is one line before any connection
        from .position_files import PositionError, read_position

        where = _position_source(args.position)
        try:
            start = json.dumps(read_position(args.position, args.game))
        except PositionError as exc:
            raise UsageError(f"{where}: {exc}") from None
    request = pb.StartMatchRequest(
        game=args.game, ruleset=args.ruleset or "", options=parse_options(args.option), bots=args.bot,
        seed=args.seed or 0, fault_policy=policy, retries=args.retries, wait=True,
        connect_timeout_ms=int(args.connect_timeout * 1000), start_position=start,
    )
    request.time_control.bank_ms = args.bank_ms
    request.time_control.increment_ms = args.increment_ms
    request.time_control.max_per_decision_ms = args.max_ms
    with grpc.insecure_channel(args.address) as channel:
        call = channel.unary_unary(
            "/standoff.v1.RefereeService/StartMatch",
            request_serializer=pb.StartMatchRequest.SerializeToString,
            response_deserializer=pb.StartMatchResponse.FromString,
        )
        try:
            response = call(request, metadata=_metadata(args))
        except grpc.RpcError as exc:
            raise UsageError(f"{exc.code().name}: {exc.details()}") from None
    summary = response.summary
    result = summary.result
    seats = " vs ".join(f"{s.role} {s.bot}" for s in summary.seats)
    print(f"match {response.match_id} {summary.game} ({summary.ruleset}) seed {summary.seed}: {seats}")
    if result.winner:
        print(f"{result.winner} wins by {result.termination}: {result.reason}")
    elif result.termination in UNRATED_TERMINATIONS:
        print(f"no result ({result.termination}): {result.reason}")
    else:
        print(f"draw by {result.termination}: {result.reason}")
    for fault in result.faults:
        print(f"fault: {fault.role} {fault.kind} x{fault.count}")
    if result.termination == "error":
        print(f"standoff: error: match {response.match_id} ended by an engine or referee error (the server's log "
              "has the traceback)", file=sys.stderr)
        return 1
    return 0


def cmd_bots(args: argparse.Namespace) -> int:
    from .plugins import format_bots, load_registry

    print(format_bots(load_registry()))
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from .plugins import format_games, load_registry

    print(format_games(load_registry()))
    return 0


def cmd_proto(args: argparse.Namespace) -> int:
    from .protofiles import ProtoCopyError, copy_protos

    try:
        paths = copy_protos(args.out, overwrite=args.overwrite)
    except ProtoCopyError as exc:
        raise UsageError(str(exc)) from None
    for path in paths:
        print(path)
    return 0


def positive(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value}")
    return value


def data_options(p: argparse.ArgumentParser) -> None:
    """The data folder and token registry options (serve, token, tournament, ladder)."""
    p.add_argument("--data-dir", default=DEFAULT_DATA_DIR, help="records and the token registry")
    p.add_argument("--tokens", default=None, help="token registry file (default DATA_DIR/tokens.json)")


#: Adds commands to the ``standoff`` command's subparsers (a layer above the server's own).
AddCommands = Callable[[Any], None]
#: Adds options to ``standoff serve`` (a layer above's): it may set the default ``beside``, a
#: function of the parsed arguments returning the task ``start_server`` starts beside the referee
#: (or None), and raising :class:`UsageError` for a mistake.
AddOptions = Callable[[argparse.ArgumentParser], None]


def build_parser(*, run_commands: AddCommands | None = None, client_commands: AddCommands | None = None,
                 serve_options: AddOptions | None = None) -> argparse.ArgumentParser:
    """The parser of the server's commands, with the layers above's commands in their places:
    ``run_commands`` (the tournaments') after ``games``, ``client_commands`` (the SDK's ``bot
    run``) before ``accelerate``, ``serve_options`` (``--http``) after ``serve``'s own. The whole
    ``standoff`` command is :func:`standoff.tournaments.cli.build_parser`."""
    parser = argparse.ArgumentParser(prog="standoff", description="Standoff: a referee for card-game bots.")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play one match in-process and print its outcome")
    play.add_argument("game", help="a game name (`standoff games` lists them all)")
    play.add_argument("--bot", action="append", default=[], metavar="NAME", help="one per role, in role order")
    play.add_argument("--seed", type=int, default=None,
                      help="match seed: chance and the bots derive from it (default: a new one, printed, so that "
                           "--seed plays the same match again)")
    play.add_argument("--ruleset", default=None, help="the game's ruleset (default: its first; see README)")
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                      help="a rules option, e.g. tactics=off or end_turn=3 (repeat for more)")
    play.add_argument("--record", default=None, metavar="PATH", help="write the match record (JSONL)")
    play.add_argument("--position", default=None, metavar="FILE",
                      help="start from this position (JSON, or the game's text form; docs/positions.md)")
    play.add_argument("--until", default=None, choices=("action_round", "turn"),
                      help="stop (no result) once the current action round or turn (as the game has them) is over")
    play.add_argument("--trust", action="store_true", help="allow third-party plugin bots in this process")
    play.add_argument("--policy", default="forfeit",
                      help="fault policy for a bot that raises or answers a bad index: forfeit (its loss; the "
                           "default), random or retry (docs/protocol.md); exit status 3 if a bot faulted")
    play.add_argument("--retries", type=int, default=2, help="asks of one decision again under --policy retry")
    play.set_defaults(func=cmd_play)

    rep = sub.add_parser("replay", help="re-apply a record and show every decision (omniscient, or as one seat saw it)")
    rep.add_argument("record", metavar="RECORD")
    who = rep.add_mutually_exclusive_group()
    who.add_argument("--as", dest="as_role", metavar="ROLE", default=None,
                     help="show only what ROLE saw: its views, its prompts and options, others' choices as it saw them")
    who.add_argument("--omniscient", action="store_true", help="show every hand (the default)")
    rep.add_argument("--from", dest="start", type=int, default=1, metavar="N", help="start at decision N")
    rep.add_argument("--step", action="store_true",
                     help="step interactively on a terminal (Enter/n next, b back, j N jump, q quit)")
    rep.add_argument("--quiet", action="store_true",
                     help="no boards: the story alone (with --keys: one line per decision)")
    rep.add_argument("--keys", action="store_true",
                     help="every decision's key, its board and options, instead of the story (a game "
                          "without a story always prints these)")
    rep.add_argument("--position", type=int, default=None, metavar="N",
                     help="print the position (docs/positions.md) at decision N instead, as JSON")
    rep.add_argument("--notation", action="store_true",
                     help="with --position: the game's text form (docs/positions.md)")
    rep.set_defaults(func=cmd_replay)

    srv = sub.add_parser("serve", help="run the referee server (gRPC)")
    srv.add_argument("--address", default=DEFAULT_ADDRESS)
    data_options(srv)
    srv.add_argument("--tls-cert", default=None)
    srv.add_argument("--tls-key", default=None)
    srv.add_argument("--tls-client-ca", default=None, help="require client certificates signed by this CA")
    srv.add_argument("--insecure", action="store_true", help="allow plaintext on a non-loopback address")
    srv.add_argument("--grace", type=float, default=10.0, help="seconds a disconnected bot may take to come back")
    from .auth import DEFAULT_MAX_SESSIONS_PER_BOT, DEFAULT_RATE_BURST, DEFAULT_RATE_LIMIT

    srv.add_argument("--max-sessions-per-bot", type=int, default=DEFAULT_MAX_SESSIONS_PER_BOT, metavar="N",
                     help="Play streams one token may hold open at once; more are refused with RESOURCE_EXHAUSTED "
                          "(a newer hello supersedes and closes the older session, so reconnecting always works; "
                          f"0 = no limit; default {DEFAULT_MAX_SESSIONS_PER_BOT})")
    srv.add_argument("--rate-limit", type=float, default=DEFAULT_RATE_LIMIT, metavar="MSGS_PER_S",
                     help="messages per second per token (token bucket); a session going faster is ended with "
                          f"RESOURCE_EXHAUSTED (0 = no limit; default {DEFAULT_RATE_LIMIT:g})")
    srv.add_argument("--rate-burst", type=int, default=DEFAULT_RATE_BURST, metavar="N",
                     help=f"messages a token may send at once above --rate-limit (default {DEFAULT_RATE_BURST})")
    srv.add_argument("--drain-s", type=float, default=30.0, metavar="SECONDS",
                     help="on SIGTERM/SIGINT, how long running matches may take to finish before they end as "
                          "`shutdown` (default 30; a second signal ends them at once)")
    srv.add_argument("--no-verify", action="store_true",
                     help="serve even if DATA_DIR/matches.jsonl or a record it names was changed")
    srv.add_argument("--match-workers", type=int, default=0, metavar="N",
                     help="play matches in N worker processes (engine, views, records, built-in bots), this "
                          "process only holding the bot sessions: a split referee (docs/protocol.md); "
                          "default 0: every match in this process")
    _sandbox_flags(srv)
    srv.add_argument("--submissions", default=None, metavar="DIR",
                     help="the registry NAME@VERSION bots are found in (default DATA_DIR/submissions)")
    srv.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    if serve_options is not None:
        serve_options(srv)
    srv.set_defaults(func=cmd_serve)

    tok = sub.add_parser("token", help="manage bot tokens (only hashes are stored)")
    tok.add_argument("action", choices=["add", "revoke", "list"])
    tok.add_argument("name", nargs="?", default="")
    tok.add_argument("--admin", action="store_true", help="may start matches")
    tok.add_argument("--replace", action="store_true",
                     help="add: issue a new token for a bot that has one (the old one stops working, "
                          "and a server ends its open sessions)")
    data_options(tok)
    tok.set_defaults(func=cmd_token)

    mat = sub.add_parser("match", help="run one match on a referee server and print its outcome")
    mat.add_argument("--address", default=DEFAULT_ADDRESS)
    mat.add_argument("--token", default=None, help="an admin token (default $STANDOFF_TOKEN)")
    mat.add_argument("--game", required=True)
    mat.add_argument("--bot", action="append", default=[], metavar="NAME", help="plugin bot or remote:NAME, per role")
    mat.add_argument("--ruleset", default=None)
    mat.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    mat.add_argument("--seed", type=int, default=None)
    mat.add_argument("--policy", default="forfeit", help="fault policy: forfeit, random or retry")
    mat.add_argument("--retries", type=int, default=2)
    mat.add_argument("--bank-ms", type=int, default=0)
    mat.add_argument("--increment-ms", type=int, default=0)
    mat.add_argument("--max-ms", type=int, default=0, help="per-decision limit (default 30 s)")
    mat.add_argument("--connect-timeout", type=float, default=30.0)
    mat.add_argument("--position", default=None, metavar="FILE",
                     help="start from this position (admin; JSON or the game's text form; docs/positions.md)")
    mat.set_defaults(func=cmd_match)

    bts = sub.add_parser("bots", help="list installed bots (built-in and plugins)")
    bts.set_defaults(func=cmd_bots)

    gms = sub.add_parser("games", help="list installed games (built-in and plugins)")
    gms.set_defaults(func=cmd_games)

    if run_commands is not None:
        run_commands(sub)

    ver = sub.add_parser("verify", help="check a run folder's results (or a server's data folder) against the "
                                        "hash chain and by replaying every record")
    ver.add_argument("folder", help="a tournament run folder (results.jsonl) or a server's --data-dir (matches.jsonl)")
    ver.add_argument("--no-replay", action="store_true", help="check the chain and digests only, replay nothing")
    ver.set_defaults(func=cmd_verify)

    pro = sub.add_parser("proto", help="copy the wire contract (.proto files) out, for stubs in any language")
    pro.add_argument("--out", required=True, metavar="DIR")
    pro.add_argument("--overwrite", action="store_true", help="replace different files already there")
    pro.set_defaults(func=cmd_proto)

    def registry_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--submissions", default=None, metavar="DIR",
                       help="the submissions registry (default DATA_DIR/submissions)")
        p.add_argument("--data-dir", default=DEFAULT_DATA_DIR, help="the server's data folder")

    smt = sub.add_parser("submit", help="build a submitted bot (wheel, sdist or project folder) into a venv of its "
                                        "own, check it in the sandbox and register it as NAME@VERSION")
    smt.add_argument("path", metavar="PATH", help="a wheel (.whl), an sdist (.tar.gz, .zip) or a project folder")
    smt.add_argument("--name", required=True, help="the author's name for it: entrants are NAME@1, NAME@2...")
    smt.add_argument("--bot", default=None, help="the bot to register, if the package has several")
    smt.add_argument("--find-links", action="append", default=[], metavar="DIR_OR_URL",
                     help="pip: look for the package's dependencies there too (repeat for more)")
    smt.add_argument("--no-index", action="store_true", help="pip: no package index, only --find-links")
    smt.add_argument("--binary-only", action="store_true",
                     help="accept wheels only, for the package and its dependencies: no build code runs")
    smt.add_argument("--unsandboxed", action="store_true",
                     help="check the bot in a plain subprocess (where bubblewrap is missing; it runs as you)")
    registry_option(smt)
    smt.set_defaults(func=cmd_submit)

    sbs = sub.add_parser("submissions", help="list the submitted bots (active ones; --all: retired too)")
    sbs.add_argument("--all", action="store_true", help="retired submissions too")
    registry_option(sbs)
    sbs.set_defaults(func=cmd_submissions)

    ret = sub.add_parser("retire", help="retire a submitted bot: never scheduled again, its results kept")
    ret.add_argument("entrant", metavar="NAME@VERSION")
    registry_option(ret)
    ret.set_defaults(func=cmd_retire)

    if client_commands is not None:
        client_commands(sub)

    acc = sub.add_parser("accelerate", help="compile the engine with Cython (optional: pip install -e '.[accel]'); "
                                            "records stay byte-identical")
    what = acc.add_mutually_exclusive_group()
    what.add_argument("--status", action="store_true", help="list the engine modules: compiled, stale or pure")
    what.add_argument("--remove", action="store_true", help="delete the compiled modules (back to pure Python)")
    acc.set_defaults(func=cmd_accelerate)
    return parser


def main(argv: Sequence[str] | None = None, *, run_commands: AddCommands | None = None,
         client_commands: AddCommands | None = None, serve_options: AddOptions | None = None) -> int:
    """Run one command of the parser :func:`build_parser` makes with these layers' commands:
    a user's mistake is one line and exit status 2, never a traceback."""
    from .logs import configure_logging

    parser = build_parser(run_commands=run_commands, client_commands=client_commands, serve_options=serve_options)
    args = parser.parse_args(argv)
    # Diagnostics go to stderr, warnings and errors only (`serve` logs more, as JSON lines); a host
    # that configured logging already (an embedding program, the test suite) keeps its own.
    import structlog

    if not structlog.is_configured():
        configure_logging(json=False, level="warning")
    user_errors: tuple[type[Exception], ...] = (UsageError, AccelerateError, StaleEngineError)
    try:
        user_errors += _engine_errors(args)
        return args.func(args)
    except user_errors as exc:
        print(f"standoff: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `standoff replay x | head`
        return 0
    except KeyboardInterrupt:  # Ctrl-C: what was written is complete (records are line by line)
        print("standoff: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a path that is a directory, missing, not writable...
        print(f"standoff: error: {_os_error(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a bug of ours: one line, the traceback on request
        if os.environ.get("STANDOFF_DEBUG"):
            raise
        print(f"standoff: internal error: {type(exc).__name__}: {exc} (set STANDOFF_DEBUG=1 for the "
              "traceback, and please report it)", file=sys.stderr)
        return 1


def _engine_errors(args: argparse.Namespace) -> tuple[type[Exception], ...]:
    """The engine's user errors, for every command but ``accelerate`` (which imports no engine),
    once the compiled engine is checked: a module older than its source would play the old rules,
    so nothing runs until it is rebuilt or removed. :class:`AccelerateError` (one line, exit 2)
    names every stale module, before the import guard would refuse the first one imported; with
    no compiled module the check costs one folder walk."""
    if args.func is cmd_accelerate:
        return ()
    check_fresh()
    from .core.game import RulesError
    from .core.record import ReplayError
    from .local import BadChoice

    return (RulesError, ReplayError, BadChoice)


def _os_error(exc: OSError) -> str:
    """An OSError as one line: what went wrong, and the path."""
    what = exc.strerror or str(exc)
    path = exc.filename if exc.filename is not None else ""
    return f"{path}: {what}" if path else what


if __name__ == "__main__":  # the server's commands (the whole command: standoff.tournaments.cli)
    sys.exit(main())
