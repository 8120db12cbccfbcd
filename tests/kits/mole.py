"""A remote entrant that races one of its matches against another to read its opponent's hand.

The legs of a paired seed deal the same cards with the seats swapped: what an entrant holds as p1
in one leg is what its opponent holds as p1 in the other, draws included. :class:`Mole` plays
every match it is seated in at once (one session, several matches), answers at once where it
holds p1 and stalls its first decision where it holds p2, so that the p1 match runs ahead. At
every decision it names the opponent's hand: the cards it held itself, in the order it first
saw them, in its other match of the other seat that started nearest in time (on a paired
schedule, the partner leg), leaving out every card it can see; then, should those not be
enough, the cards it cannot see in a fixed order (what anyone could guess). :func:`score`
compares the names with the truth from the records afterwards, against the chance level of a
uniform guess among the unseen cards.

:func:`play` is the session: the SDK's ``run`` answers one decision at a time, so a stall there
would stall every match; the mole's own loop answers each decision in a task of its own (the
protocol allows it: a session may hold several matches and a decision is answered by id).
"""

from __future__ import annotations

import asyncio
import itertools
import random
import threading

import grpc

from standoff.sdk.bot import Bot
from standoff.sdk.client import PROTOCOL_VERSION, open_channel
from standoff.sdk.types import HistoryBook, decode_decision, decode_match_ended, decode_match_started
from standoff.server.core.record import replay_steps
from standoff.server.games import get_game
from standoff.server.games.schotten_totten.cards import card_name, troop_deck
from standoff.v1 import referee_pb2 as pb

GAME = get_game("schotten-totten")
TROOPS = [card_name(c) for c in troop_deck()]


class Mole(Bot):
    name = "mole"

    def __init__(self, stall_s: float = 0.5) -> None:
        super().__init__(0)
        self.stall_s = stall_s
        self.pick = random.Random(0)
        self.order = itertools.count()
        self.matches: dict[str, object] = {}  # match id -> MatchInfo
        self.started: dict[str, int] = {}  # match id -> start order
        self.held: dict[str, list[str]] = {}  # match id -> cards held, in order first seen
        self.answered: set[str] = set()
        #: (match id, decision number) -> (cards named, cards unseen, opponent's hand size, source)
        self.predictions: dict[tuple[str, int], tuple[list[str], int, int, str | None]] = {}

    def start(self, match) -> None:
        self.matches[match.match_id] = match
        self.started[match.match_id] = next(self.order)

    def stalls(self, decision) -> bool:
        """Whether to hold this answer back: the first decision of a match where it is p2."""
        return decision.role == "p2" and decision.match_id not in self.answered

    def choose(self, decision, view) -> int:
        match_id = decision.match_id
        self.answered.add(match_id)
        held = self.held.setdefault(match_id, [])
        held += [card for card in view.hand if card not in held]
        self._predict(decision, view)
        return self.pick.randrange(len(decision.options))

    def _predict(self, decision, view) -> None:
        me = decision.role
        other = next(role for role in view.opponents)
        seen = set(view.hand)
        for flag in view.flags:
            for side in flag.sides.values():
                seen.update(side.cards)
        for pile in view.discards.values():
            seen.update(pile.cards)
        unseen = [card for card in TROOPS if card not in seen]
        size = view.opponents[other].troops + view.opponents[other].tactics
        source = self._source(decision.match_id, me)
        named = [card for card in self.held.get(source, []) if card not in seen][:size] if source else []
        named += [card for card in unseen if card not in named][: size - len(named)]
        self.predictions[(decision.match_id, decision.decision_id)] = (named, len(unseen), size, source)

    def _source(self, match_id: str, role: str) -> str | None:
        """Its other match of the other seat that started nearest to this one."""
        start = self.started[match_id]
        others = [m for m, info in self.matches.items() if m != match_id and info.role != role and self.held.get(m)]
        return min(others, key=lambda m: (abs(self.started[m] - start), m), default=None)


async def _session(mole: Mole, address: str, token: str, matches: int) -> list:
    channel = open_channel(address)
    call = channel.stream_stream(
        "/standoff.v1.RefereeService/Play",
        request_serializer=pb.PlayRequest.SerializeToString,
        response_deserializer=pb.PlayResponse.FromString,
    )(metadata=(("authorization", f"Bearer {token}"),))
    writing = asyncio.Lock()
    book = HistoryBook()
    results, tasks = [], set()

    async def answer(decision, view, delay: float) -> None:
        await asyncio.sleep(delay)
        request = pb.PlayRequest()
        request.choice.match_id = decision.match_id
        request.choice.decision_id = decision.decision_id
        request.choice.option_index = mole.choose(decision, view)
        async with writing:
            await call.write(request)

    hello = pb.PlayRequest()
    hello.hello.protocol_version = PROTOCOL_VERSION
    hello.hello.bot_name = mole.name
    hello.hello.max_concurrent_matches = 16  # it plays every match it is given at once
    try:
        async with writing:
            await call.write(hello)
        while (message := await call.read()) is not grpc.aio.EOF:
            kind = message.WhichOneof("body")
            if kind == "decision":
                decision, view = decode_decision(message.decision)
                book.complete(f"{decision.match_id}/{decision.role}", view)
                task = asyncio.create_task(answer(decision, view, mole.stall_s if mole.stalls(decision) else 0.0))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            elif kind == "match_started":
                mole.start(decode_match_started(message.match_started))
            elif kind == "match_ended":
                results.append(decode_match_ended(message.match_ended))
                if len(results) >= matches:
                    break
        return results
    finally:
        call.cancel()
        await channel.close()


def play_in_thread(mole: Mole, address: str, token: str, matches: int) -> tuple[threading.Thread, list]:
    """The mole's session in a daemon thread, until ``matches`` matches ended; returns the thread
    and the list its results (or the exception it raised) are put in."""
    box: list = []

    def target() -> None:
        try:
            box.extend(asyncio.run(_session(mole, address, token, matches)))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box.append(exc)

    thread = threading.Thread(target=target, name="standoff-mole", daemon=True)
    thread.start()
    return thread, box


def opponent_hands(record, role: str) -> dict[int, list[str]]:
    """Decision number -> the hand of the seat other than ``role`` when that decision was asked."""
    other = next(r for r in record.header["roles"] if r != role)
    hands, before = {}, None
    for step in replay_steps(GAME, record):
        hands[step.number] = before
        before = sorted(GAME.view(step.state, other)["hand"])
    return hands


def score(mole: Mole, records: dict, role: str = "p2") -> dict:
    """How much of the opponent's hand the mole named, over every decision it answered in the
    matches where it held ``role`` (by default the ones it stalled, to race the others) with a
    source match (``named``, a fraction of the cards held), and what a uniform guess among the
    unseen cards names on average at those decisions (``chance``). ``records``: match id ->
    :class:`~standoff.server.core.record.Record`."""
    hits = cards = 0
    chance = 0.0
    decisions = 0
    truths = {match_id: opponent_hands(records[match_id], info.role) for match_id, info in mole.matches.items()}
    for (match_id, number), (named, unseen, size, source) in sorted(mole.predictions.items()):
        if source is None or not size or mole.matches[match_id].role != role:
            continue
        truth = truths[match_id][number]
        hits += len(set(named) & set(truth))
        cards += len(truth)
        chance += size * size / unseen
        decisions += 1
    return {"decisions": decisions, "named": hits / cards, "chance": chance / cards, "cards": cards}
