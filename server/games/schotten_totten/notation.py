"""The one-line notation of Schotten Totten / Battle Line positions (like chess's FEN): it says
exactly what a position dict says (``parse(write(p))`` loads to the same state) and is accepted
wherever a position file is (the game's :class:`~standoff.server.core.position.Notation`).

Ten fields separated by spaces (docs/positions.md has the full grammar)::

    battle_line r5.3r6.5r7.9:b1.4/:/:/:/:/:/:/:/:#c1 r2r3AL|g4g5 *|* | p1 6 12 0 end_turn,draw,claim,play

1. the ruleset, with the options that differ from its defaults in brackets
   (``battle_line[claim_timing=start_of_turn]``);
2. the nine flags, ``/`` between them: each role's side (``:`` between roles), cards in arrival
   order, each optionally with ``.N``, the decision number at which it arrived; then optional
   marks after ``#``: ``cR`` claimed by role R, ``fR`` Fog and ``mR`` Mud played by role R
   (roles numbered from 1);
3. the hands, ``|`` between roles;
4. the decks (troops ``|`` tactics): ``*`` the cards found nowhere else (their order is
   unknown), optionally preceded by the Scout tops, top first, each with the number of the role
   that knows it (``r5'1g2'2>*``); a number instead of ``*`` is checked against the count;
5. the discards, ``|`` between roles;
6. the role to move; 7. the turn; 8. the decisions so far; 9. passes in succession;
10. the pending steps, bottom first, ``,`` between them, arguments after ``=`` separated by
    ``:`` (``end_turn,draw,claim,place=r5``; ``mud_discard=3:p1``);
11. optionally ``known=`` per role the cards it knows in another hand (``known=|r5``).

Cards: a colour letter (``r o y g b p``: red, orange, yellow, green, blue, purple) and the value
(``r10``), or a tactics card's two capitals: ``AL DA CC SB FO MU SC RE DE TR`` (Alexander, Darius,
Companion Cavalry, Shield Bearers, Fog, Mud, Scout, Redeploy, Deserter, Traitor). An empty list
is written as nothing (``r5|`` : the second role has none).

Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...core.position import PositionError, fail
from . import cards as STC
from . import position as st
from .rules import RULESETS
from .rules import make_rules as st_rules


_TACTICS_CODES = {
    "alexander": "AL", "darius": "DA", "companion-cavalry": "CC", "shield-bearers": "SB", "fog": "FO",
    "mud": "MU", "scout": "SC", "redeploy": "RE", "deserter": "DE", "traitor": "TR",
}
_CODE_TACTICS = {code: name for name, code in _TACTICS_CODES.items()}
_COLOUR_CODES = {name: name[0] for name in STC.COLOURS}
_CODE_COLOUR = {code: name for name, code in _COLOUR_CODES.items()}
_CARD = re.compile(r"([roygbp](?:10|[1-9])|[A-Z]{2})(?:\.(\d+))?(?:'(\d+))?")


def card_code(name: str) -> str:
    """``red-10`` → ``r10``, ``alexander`` → ``AL``."""
    if name in _TACTICS_CODES:
        return _TACTICS_CODES[name]
    colour, _, value = name.rpartition("-")
    return _COLOUR_CODES[colour] + value


def card_of_code(code: str, where: str) -> str:
    if code in _CODE_TACTICS:
        return _CODE_TACTICS[code]
    if code[0] in _CODE_COLOUR and code[1:].isdigit():
        return f"{_CODE_COLOUR[code[0]]}-{code[1:]}"
    raise fail(where, f"unknown card {code!r} (r5, b10, AL...)")


def _cards(text: str, where: str) -> list[tuple[str, int | None, int | None]]:
    """``r5.3AL`` → [(card name, arrival or None, knower or None)...]"""
    out = []
    at = 0
    while at < len(text):
        match = _CARD.match(text, at)
        if match is None:
            raise fail(where, f"cannot read a card at {text[at:]!r} (cards are written like r5, b10, AL)")
        name = card_of_code(match.group(1), where)
        out.append((name, int(match.group(2)) if match.group(2) else None,
                    int(match.group(3)) if match.group(3) else None))
        at = match.end()
    return out


def _per_role_lists(text: str, roles: tuple[str, ...], where: str) -> dict[str, list[str]]:
    parts = text.split("|") if text not in ("", "-") else [""]
    if len(parts) > len(roles):
        raise fail(where, f"{len(parts)} parts for {len(roles)} roles")
    parts += [""] * (len(roles) - len(parts))
    return {roles[i]: [c for c, _, _ in _cards(p, f"{where}.{roles[i]}")] for i, p in enumerate(parts)}


def _rules_token(data: Mapping[str, Any]) -> str:
    ruleset = data.get("ruleset") or "battle_line"
    defaults = st_rules(ruleset).options
    options = {k: str(v) for k, v in (data.get("options") or {}).items() if defaults.get(k) != str(v)}
    return ruleset + (f"[{','.join(f'{k}={v}' for k, v in sorted(options.items()))}]" if options else "")


def write(data: Mapping[str, Any]) -> str:
    """The one-line notation of a Schotten Totten position dict (as :func:`st.to_position`
    writes it)."""
    rules = st_rules(data.get("ruleset"), {k: str(v) for k, v in (data.get("options") or {}).items()})
    roles = rules.roles
    number = {r: str(i + 1) for i, r in enumerate(roles)}
    flags = []
    for flag in data["flags"]:
        sides = []
        for r in roles:
            cards = flag["sides"].get(r, [])
            times = flag.get("placed", {}).get(r) or [None] * len(cards)
            sides.append("".join(card_code(c) + (f".{t}" if t else "") for c, t in zip(cards, times, strict=True)))
        marks = ""
        for key, mark in (("claimed_by", "c"), ("fog", "f"), ("mud", "m")):
            if flag.get(key):
                marks += mark + number[flag[key]]
        flags.append(":".join(sides) + (f"#{marks}" if marks else ""))
    hands = "|".join("".join(card_code(c) for c in data["hands"].get(r, [])) for r in roles)
    decks = []
    for name in ("troops", "tactics"):
        tops = data.get("deck_tops", {}).get(name, [])
        prefix = "".join(f"{card_code(t['card'])}'{number[t['known_by']]}" for t in tops)
        decks.append((prefix + ">" if prefix else "") + "*")
    discards = "|".join("".join(card_code(c) for c in data.get("discards", {}).get(r, [])) for r in roles)
    stack = ",".join(_st_frame(frame) for frame in data["stack"])
    fields = [
        _rules_token(data), "/".join(flags), hands, "|".join(decks), discards, data["to_move"],
        str(data["turn"]), str(data["number"]), str(data["passes"]), stack,
    ]
    known = data.get("known", {})
    if any(known.get(r) for r in roles):
        fields.append("known=" + "|".join("".join(card_code(c) for c in known.get(r, [])) for r in roles))
    return " ".join(fields)


def _st_frame(frame: Mapping[str, Any]) -> str:
    args = []
    for key, value in frame.items():
        if key == "step":
            continue
        args.append(card_code(value) if key == "card" else str(value))
    return frame["step"] + (f"={':'.join(args)}" if args else "")


def parse(text: str) -> dict[str, Any]:
    """A Schotten Totten position dict from its one-line notation."""
    fields = text.split()
    if len(fields) not in (10, 11):
        raise PositionError(f"notation: {len(fields)} fields, expected 10 or 11 (ruleset flags hands decks "
                            "discards to_move turn number passes stack [known=])")
    token = fields[0]
    ruleset, _, options_text = token.partition("[")
    options: dict[str, str] = {}
    if options_text:
        if not options_text.endswith("]"):
            raise fail("notation.ruleset", f"unclosed options in {token!r}")
        for item in filter(None, options_text[:-1].split(",")):
            key, eq, value = item.partition("=")
            if not eq:
                raise fail("notation.ruleset", f"option {item!r} is not key=value")
            options[key] = value
    try:
        rules = st_rules(ruleset, options)
    except ValueError as exc:
        raise fail("notation.ruleset", str(exc)) from None
    roles = rules.roles
    flags_text = fields[1].split("/")
    if len(flags_text) != 9:
        raise fail("notation.flags", f"{len(flags_text)} flags, expected 9 separated by /")
    flags = []
    for f, token in enumerate(flags_text):
        where = f"notation.flags[{f + 1}]"
        body, _, marks = token.partition("#")
        sides = body.split(":") if body else [""]
        if len(sides) > len(roles):
            raise fail(where, f"{len(sides)} sides for {len(roles)} roles")
        sides += [""] * (len(roles) - len(sides))
        entry: dict[str, Any] = {"flag": f + 1, "sides": {}, "placed": {}}
        for r, side in enumerate(sides):
            cards = _cards(side, f"{where}.{roles[r]}")
            entry["sides"][roles[r]] = [c for c, _, _ in cards]
            entry["placed"][roles[r]] = [t or 0 for _, t, _ in cards]
        for mark in re.findall(r"[a-z]\d+|.", marks):
            key = {"c": "claimed_by", "f": "fog", "m": "mud"}.get(mark[0])
            if key is None or not mark[1:].isdigit() or not 1 <= int(mark[1:]) <= len(roles):
                raise fail(where, f"unknown mark {mark!r} (cR claimed, fR Fog, mR Mud; R a role number)")
            entry[key] = roles[int(mark[1:]) - 1]
        flags.append(entry)
    data: dict[str, Any] = {
        "game": st.GAME, "ruleset": rules.ruleset, "options": options, "flags": flags,
        "hands": _per_role_lists(fields[2], roles, "notation.hands"),
        "discards": _per_role_lists(fields[4], roles, "notation.discards"),
    }
    decks = fields[3].split("|")
    if len(decks) != 2:
        raise fail("notation.decks", "troops|tactics expected")
    tops: dict[str, list[dict[str, str]]] = {}
    counts: dict[str, int] = {}
    for name, token in zip(("troops", "tactics"), decks, strict=True):
        prefix, _, rest = token.rpartition(">")
        entries = []
        for card, _, knower in _cards(prefix, f"notation.decks.{name}"):
            if knower is None or not 1 <= knower <= len(roles):
                raise fail(f"notation.decks.{name}", f"Scout top {card} needs the number of the role that knows it ('1)")
            entries.append({"card": card, "known_by": roles[knower - 1]})
        tops[name] = entries
        if rest != "*":
            if not rest.isdigit():
                raise fail(f"notation.decks.{name}", f"expected * or a count, got {rest!r}")
            counts[name] = int(rest)
    data["deck_tops"] = tops
    data["to_move"] = fields[5]
    for key, value in (("turn", fields[6]), ("number", fields[7]), ("passes", fields[8])):
        if not value.isdigit():
            raise fail(f"notation.{key}", f"expected a whole number, got {value!r}")
        data[key] = int(value)
    specs = st.frame_specs(roles)
    stack = []
    for i, token in enumerate(filter(None, fields[9].split(","))):
        step, _, args = token.partition("=")
        spec = specs.get(step)
        if spec is None:
            raise fail(f"notation.stack[{i}]", f"unknown step {step!r}")
        values = args.split(":") if args else []
        if len(values) != len(spec):
            raise fail(f"notation.stack[{i}]", f"step {step} takes {len(spec)} argument(s), got {len(values)}")
        frame: dict[str, Any] = {"step": step}
        for (field, kind, _), value in zip(spec, values, strict=True):
            if field == "card":
                frame[field] = card_of_code(value, f"notation.stack[{i}].card")
            elif kind.schema == {"type": "integer"} or field in ("flag", "from_flag"):
                frame[field] = int(value) if value.isdigit() else value
            else:
                frame[field] = value
        stack.append(frame)
    data["stack"] = stack
    if len(fields) == 11:
        if not fields[10].startswith("known="):
            raise fail("notation.known", "the 11th field is known=...")
        data["known"] = _per_role_lists(fields[10][6:], roles, "notation.known")
    if counts:
        state = st.from_position(data)
        for d, name in enumerate(("troops", "tactics")):
            if name in counts and counts[name] != state.deck_size(d):
                raise fail(f"notation.decks.{name}", f"count {counts[name]} but {state.deck_size(d)} cards are left for it")
    return data


def recognizes(text: str) -> bool:
    """Whether ``text`` is in this notation: its first field names one of the game's rulesets."""
    words = text.split(None, 1)
    return bool(words) and words[0].partition("[")[0] in RULESETS
