"""A bot that tries every channel of the service to learn its opponent's hand.

At its first decision of a match, :class:`Cheater` gathers candidate match seeds from everything a
connected bot can reach, then replays the deal with each candidate (the engine and the referee's
own chance stream are installed on its machine too) and keeps a candidate only if it reproduces
the cheater's own hand. Channels tried:

* ``match_id``: the seed the server used to derive from it (``derive_seed("server-match", id)``);
* ``ListMatches``: the ``seed`` of every match listed (its own, running; its paired leg);
* ``GetMatchRecord``: the header ``seed`` of its own match and of every match listed (a finished
  paired leg shares its seed);
* its own bot seed (``MatchStarted.seed``): inverted by search, as a match seed in
  ``0..SEED_SEARCH`` and as a tournament ``master_seed`` in ``0..SEED_SEARCH`` (with the
  schedule's public seed derivation);
* ``GetStandings``: read too (it carries no seed).

It then predicts the opponent's dealt hand: the candidate's, or a fixed guess among the cards it
cannot see. :func:`score` compares predictions with the truth from the records afterwards.
"""

from __future__ import annotations

import json

import grpc

from standoff.sdk.bot import Bot
from standoff.server.core.game import CHANCE, sample_chance
from standoff.server.core.seeds import derive_seed
from standoff.server.games import get_game
from standoff.server.local import bot_seed, chance_rng
from standoff.v1 import referee_pb2 as pb

SEED_SEARCH = 2000


def dealt_hands(game, rules, seed: int) -> dict[str, list[str]] | None:
    """Every role's hand at the first decision of a player, if chance draws from ``seed``."""
    state = game.new_state(rules)
    stream = chance_rng(seed)
    while (decision := game.decision(state)) is not None:
        if decision.role != CHANCE:
            return {role: sorted(game.view(state, role)["hand"]) for role in rules.roles}
        game.apply(state, decision.options[sample_chance(stream, decision)])
    return None


class Cheater(Bot):
    name = "cheater"

    def __init__(self, address: str, token: str, schedule: dict | None = None) -> None:
        super().__init__(0)
        self.address, self.token = address, token
        # Tournament knowledge a bot author has (the config format is public): entrants' names
        # and the number of games, to guess master seeds. None outside tournaments.
        self.schedule = schedule
        self.predictions: dict[str, dict] = {}  # match id -> what it predicted and how
        self.matches: dict = {}
        self.channels_seen: dict[str, int] = {}

    def _call(self, method: str, request, response_type):
        with grpc.insecure_channel(self.address) as channel:
            rpc = channel.unary_unary(
                f"/standoff.v1.RefereeService/{method}",
                request_serializer=type(request).SerializeToString,
                response_deserializer=response_type.FromString,
            )
            return rpc(request, metadata=(("authorization", f"Bearer {self.token}"),), timeout=10)

    def start(self, match) -> None:
        super().start(match)
        self.matches[match.match_id] = match  # matches may run at the same time on one session

    def _candidates(self, match) -> dict[int, list[str]]:
        """Candidate seeds, each with every channel that gave it."""
        found: dict[int, list[str]] = {}

        def add(seed: int, channel: str) -> None:
            found.setdefault(int(seed), []).append(channel)

        add(derive_seed("server-match", match.match_id), "match_id")
        listed = self._call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse).matches
        for summary in listed:
            if summary.seed:
                add(summary.seed, "ListMatches")
                self.channels_seen["ListMatches seed"] = self.channels_seen.get("ListMatches seed", 0) + 1
        for match_id in sorted({match.match_id, *(s.match_id for s in listed)}):
            try:
                text = self._call("GetMatchRecord", pb.GetMatchRecordRequest(match_id=match_id),
                                  pb.GetMatchRecordResponse).record_jsonl
            except grpc.RpcError:
                continue
            seed = json.loads(text.splitlines()[0]).get("seed")
            if seed:
                add(seed, "GetMatchRecord")
                self.channels_seen["records"] = self.channels_seen.get("records", 0) + 1
        self._call("GetStandings", pb.GetStandingsRequest(), pb.GetStandingsResponse)
        for x in range(SEED_SEARCH):
            if bot_seed(x, match.role) == match.seed:
                add(x, "bot seed (match seed search)")
        if self.schedule is not None:
            names = sorted(self.schedule["entrants"])
            for master in range(SEED_SEARCH):
                for n in range(1, self.schedule["games"] + 1):
                    seed = derive_seed(master, "match", 1, *names, n)
                    if bot_seed(seed, match.role) == match.seed:
                        add(seed, "bot seed (master seed search)")
        return found

    def choose(self, decision, view) -> int:
        match = self.matches[decision.match_id]
        if match.match_id not in self.predictions:
            game = get_game(match.game)
            rules = game.rules(match.ruleset, match.options)
            mine = sorted(view.hand)
            other = next(r for r in rules.roles if r != match.role)
            candidates = self._candidates(match)
            guess = {"channel": None, "hand": None, "seeds_seen": set(candidates), "working": []}
            for seed, channels in candidates.items():
                hands = dealt_hands(game, rules, seed)
                if hands is not None and hands[match.role] == mine:
                    guess["working"] += channels  # every channel that gave the deal away
                    if guess["channel"] is None:
                        guess.update(channel=channels[0], hand=hands[other])
            if guess["hand"] is None:
                # No channel worked: guess like anyone would, from the cards it cannot see.
                deck = sorted(set(_every_card(game, rules)) - set(mine))
                guess["hand"] = deck[: len(mine)]
            self.predictions[match.match_id] = {"role": match.role, "other": other, **guess}
        return self.rng.randrange(len(decision.options))


def _every_card(game, rules) -> list[str]:
    """Every card a dealt hand may hold: troops (Schotten Totten), Early War cards (Twilight
    Struggle)."""
    if game.name == "schotten-totten":
        from standoff.server.games.schotten_totten.cards import card_name, troop_deck

        return [card_name(c) for c in troop_deck()]
    from standoff.server.games.twilight_struggle.card_data import CARDS

    return [card.id for card in CARDS if card.period == CARDS[0].period]


def score(cheater: Cheater, records: dict[str, str]) -> dict:
    """How well the cheater predicted: per match, cards of the opponent's dealt hand it named
    (``records``: match id -> record JSONL). Chance level is hand size × hand size / unseen cards."""
    from standoff.server.core.record import parse_record

    hits, reproduced, matches, own_seed_seen = [], 0, 0, 0
    for match_id, prediction in cheater.predictions.items():
        record = parse_record(records[match_id].splitlines())
        header = record.header
        game = get_game(header["game"])
        rules = game.rules(header["ruleset"], header["options"])
        truth = dealt_hands(game, rules, int(header["seed"]))[prediction["other"]]
        hits.append(len(set(truth) & set(prediction["hand"])))
        reproduced += prediction["channel"] is not None
        own_seed_seen += int(header["seed"]) in prediction["seeds_seen"]
        matches += 1
    return {"matches": matches, "reproduced": reproduced, "own_seed_seen": own_seed_seen, "hits": hits,
            "mean_hits": sum(hits) / max(1, len(hits))}
