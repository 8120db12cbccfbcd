"""Goofspiel positions: a whole state as data (``to_position`` / ``from_position``), and a one-line
text form (``write`` / ``parse``), given to the registry as the game's ``PositionFormat`` and
``Notation`` (plugin.py). A position is a state, not the match that led to it: it has no history.

The position object::

    {"game": "goofspiel", "ruleset": "standard", "options": {"cards": "5"}, "number": 7,
     "prize": 3, "prizes_left": [1, 4], "hands": {"p1": [2, 5], "p2": [1, 2, 5]},
     "bids": {"p1": 4, "p2": null}, "scores": {"p1": 5, "p2": 2},
     "rounds": [{"prize": 5, "bids": {"p1": 3, "p2": 4}}, {"prize": 2, "bids": {"p1": 1, "p2": 3}}]}

``scores`` and the winners of ``rounds`` follow from the rounds (checked when given). The text
form says the same in ``key=value`` words (rounds as ``prize:bid-bid``)::

    goofspiel cards=5 number=7 prize=3 left=1,4 p1=2,5 p2=1,2,5 bids=4,- rounds=5:3-4,2:1-3

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standoff.sdk.positions import PositionError

from .rules import NAME, Goofspiel, GoofspielState, make_rules


def to_position(state: GoofspielState) -> dict[str, Any]:
    """The whole of ``state`` as a position (every field written, JSON-ready)."""
    roles = state.rules.roles
    return {
        "game": NAME,
        "ruleset": state.rules.ruleset,
        "options": dict(state.rules.options),
        "number": state.number,
        "prize": state.prize,
        "prizes_left": list(state.prizes_left),
        "hands": {role: list(state.hands[i]) for i, role in enumerate(roles)},
        "bids": {role: state.bids[i] for i, role in enumerate(roles)},
        "scores": {role: state.scores[i] for i, role in enumerate(roles)},
        "rounds": [{"prize": prize, "bids": dict(zip(roles, bids, strict=True))} for prize, bids, _ in state.rounds],
    }


def _card(value: Any, n: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
        raise PositionError(f"{where}: expected a card from 1 to {n}, got {value!r}")
    return value


def _cards(value: Any, n: int, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise PositionError(f"{where}: expected a list of cards, got {value!r}")
    return tuple(_card(v, n, f"{where}[{i}]") for i, v in enumerate(value))


def _per_role(data: Mapping[str, Any], key: str, roles: tuple[str, ...]) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict) or sorted(value) != sorted(roles):
        raise PositionError(f"{key}: expected an object with one entry per role ({', '.join(roles)})")
    return value


def _whole(cards: list[int], n: int, where: str) -> None:
    """``cards`` are 1..n, each once."""
    if sorted(cards) != list(range(1, n + 1)):
        raise PositionError(f"{where}: the cards 1 to {n} are not each in exactly one place ({sorted(cards)})")


def from_position(data: Mapping[str, Any]) -> GoofspielState:
    """The state ``data`` describes; raises :class:`PositionError` naming the field at fault."""
    if not isinstance(data, Mapping):
        raise PositionError("a position is an object")
    if data.get("game", NAME) != NAME:
        raise PositionError(f"game: expected {NAME!r}, got {data.get('game')!r}")
    try:
        rules = make_rules(data.get("ruleset"), {k: str(v) for k, v in (data.get("options") or {}).items()})
    except ValueError as exc:
        raise PositionError(f"options: {exc}") from None
    n, roles = rules.cards, rules.roles
    state = GoofspielState(rules)
    number = data.get("number", 0)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise PositionError(f"number: expected a whole number, got {number!r}")
    state.number = number
    state.prize = None if data.get("prize") is None else _card(data["prize"], n, "prize")
    state.prizes_left = _cards(data.get("prizes_left", []), n, "prizes_left")
    hands, bids = _per_role(data, "hands", roles), _per_role(data, "bids", roles)
    state.hands = [_cards(hands[r], n, f"hands.{r}") for r in roles]
    state.bids = [None if bids[r] is None else _card(bids[r], n, f"bids.{r}") for r in roles]
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        raise PositionError("rounds: expected a list")
    played: list[tuple[int, tuple[int, ...], int | None]] = []
    scores = [0 for _ in roles]
    for i, entry in enumerate(rounds):
        if not isinstance(entry, dict):
            raise PositionError(f"rounds[{i}]: expected {{\"prize\": ..., \"bids\": ...}}")
        prize = _card(entry.get("prize"), n, f"rounds[{i}].prize")
        both = _per_role(entry, "bids", roles)
        spent = tuple(_card(both[r], n, f"rounds[{i}].bids.{r}") for r in roles)
        best = max(spent)
        winner = spent.index(best) if spent.count(best) == 1 else None
        if winner is not None:
            scores[winner] += prize
        played.append((prize, spent, winner))
    state.rounds, state.scores = tuple(played), scores
    if "scores" in data and dict(_per_role(data, "scores", roles)) != dict(zip(roles, scores, strict=True)):
        raise PositionError(f"scores: the rounds give {dict(zip(roles, scores, strict=True))}")
    _check(state)
    if state.prize is None and not state.prizes_left:
        state.outcome = Goofspiel._final(state)
    return state


def _check(state: GoofspielState) -> None:
    n, roles = state.rules.cards, state.rules.roles
    up = [state.prize] if state.prize is not None else []
    _whole(list(state.prizes_left) + up + [prize for prize, _, _ in state.rounds], n, "prizes")
    for i, role in enumerate(roles):
        pending = [state.bids[i]] if state.bids[i] is not None else []
        _whole(list(state.hands[i]) + pending + [bids[i] for _, bids, _ in state.rounds], n, f"hands.{role}")
    if state.prize is None and any(b is not None for b in state.bids):
        raise PositionError("bids: no prize is up, so nobody has bid")
    if state.bids[0] is None and state.bids[1] is not None:
        raise PositionError(f"bids.{roles[1]}: {roles[0]} bids first")
    if None not in state.bids:
        raise PositionError("bids: both bids are in, so the round is over: write it in rounds")


# -- the text form ---------------------------------------------------------------------------------


def _list(cards: Any) -> str:
    return ",".join(str(c) for c in cards) or "-"


def write(data: Mapping[str, Any]) -> str:
    """The one-line text form of a position dict (as :func:`to_position` writes it)."""
    roles = list(data["hands"])
    words = [NAME, f"cards={data['options'].get('cards', len(data['hands'][roles[0]]))}", f"number={data['number']}",
             f"prize={data['prize'] if data['prize'] is not None else '-'}", f"left={_list(data['prizes_left'])}"]
    words += [f"{role}={_list(data['hands'][role])}" for role in roles]
    words.append("bids=" + ",".join("-" if data["bids"][r] is None else str(data["bids"][r]) for r in roles))
    words.append("rounds=" + (",".join(f"{r['prize']}:" + "-".join(str(r["bids"][x]) for x in roles)
                                       for r in data["rounds"]) or "-"))
    return " ".join(words)


def recognizes(text: str) -> bool:
    return text.split(None, 1)[:1] == [NAME]


def _numbers(text: str, where: str) -> list[int]:
    if text == "-":
        return []
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise PositionError(f"notation.{where}: expected numbers separated by commas, got {text!r}") from None


def parse(text: str) -> dict[str, Any]:
    """A position dict from the one-line text form."""
    words = text.split()
    if not recognizes(text):
        raise PositionError(f"notation: a {NAME} position starts with {NAME!r}")
    fields = dict(word.partition("=")[::2] for word in words[1:])
    roles = ("p1", "p2")
    missing = [k for k in ("cards", "number", "prize", "left", *roles, "bids", "rounds") if k not in fields]
    if missing:
        raise PositionError(f"notation: missing {', '.join(missing)}= (cards number prize left p1 p2 bids rounds)")
    bids = fields["bids"].split(",")
    if len(bids) != len(roles):
        raise PositionError(f"notation.bids: one per role, got {fields['bids']!r}")
    rounds = []
    for token in [] if fields["rounds"] == "-" else fields["rounds"].split(","):
        prize, _, spent = token.partition(":")
        values = _numbers(prize, "rounds") + _numbers(spent.replace("-", ","), "rounds")
        if len(values) != 1 + len(roles):
            raise PositionError(f"notation.rounds: expected prize:bid-bid, got {token!r}")
        rounds.append({"prize": values[0], "bids": dict(zip(roles, values[1:], strict=True))})
    return {
        "game": NAME, "options": {"cards": fields["cards"]},
        "number": _numbers(fields["number"], "number")[0] if fields["number"].isdigit() else fields["number"],
        "prize": None if fields["prize"] == "-" else _numbers(fields["prize"], "prize")[0],
        "prizes_left": _numbers(fields["left"], "left"),
        "hands": {r: _numbers(fields[r], r) for r in roles},
        "bids": {r: None if b == "-" else _numbers(b, "bids")[0] for r, b in zip(roles, bids, strict=True)},
        "rounds": rounds,
    }
