"""Building blocks of card events, shared by every period: most push a frame whose step asks the
decisions; a few change the state at once (forced discards, control, a card's pending disposal).

Frames (all data):

* ``("ev_place", actor, left, allowed, max_per, placed, optional)``: ``actor`` adds 1 influence
  at a time to countries of ``allowed`` (at most ``max_per`` each; ``placed`` lists those so far);
  ``optional`` adds ``done`` (an "up to" event).
* ``("ev_remove", actor, target, left, allowed, max_per, removed, optional)``: ``actor`` removes
  ``target``'s influence one at a time.
* ``("ev_remove_each", actor, target, picks, per, allowed, chosen)``: ``actor`` picks ``picks``
  different countries of ``allowed`` holding ``target`` influence and removes ``per`` (or all there
  is, if less) from each (East European Unrest in the Late War).
* ``("ev_place_one", actor, amount, allowed)``: ``actor`` puts ``amount`` influence into one
  country of ``allowed`` (Special Relationship with NATO, Junta, South African Unrest).
* ``("ev_choice", actor, name, keys, data)``: ``actor`` picks one of ``keys`` (``choice:<key>``);
  ``CHOICES[name](state, actor, key, data)`` carries it out.
* ``("event_country", actor, name, countries, data)``: ``actor`` picks one of ``countries``
  (``country:<id>`` keys, decision step ``name``); ``CHOICES[name](state, actor, country, data)``
  carries it out (Truman Doctrine, Independent Reds, Warsaw Pact Formed's removals...).
* ``("war", actor, target, modifier, at_least, vp)``: a war card's die (chance); ``modifier`` is
  subtracted from it (the card's own and hooks.WAR_MODIFIERS').
* ``("ev_ops", actor, value[, hooks_done])``: operations granted by an event (influence,
  realignment or coup), not reduced by Red Scare/Purge (FAQ); ``hooks_done`` counts the
  hooks.EVENT_OPS_HOOKS already run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ....core.flow import log
from ....core.game import CHANCE, Option, make_decision
from .. import board as B
from .. import card_data as CD
from .. import hooks as H
from .. import map_data as M
from .. import ops as O
from ..common import DIE_OPTIONS, DONE, TSStep, country_options, remove_from_hand, role
from ..state import NOBODY, SIDE_NAMES, TSState, other

N = len(M.COUNTRIES)
CHOICES: dict[str, Callable[[TSState, int, Any, Any], None]] = {}


def choice(name: str):
    """Register the callback of ``ev_choice`` frames called ``name``."""

    def register(fn):
        CHOICES[name] = fn
        return fn

    return register


def card_id(card: int) -> str:
    return CD.CARD_BY_NUMBER[card].id


def card_number(card_id: str) -> int:
    return CD.CARD_BY_ID[card_id].number


def is_scoring(card: int) -> bool:
    return CD.CARD_BY_NUMBER[card].scoring


def china_claimed(state: TSState, actor: int) -> bool:
    """Chinese Civil War variant: until the USSR claims The China Card, Red Scare/Purge (for
    the USSR), Formosan Resolution and Cultural Revolution cannot be events (map.md §13)."""
    return not (state.rules.chinese_civil_war and state.china == NOBODY)


def countries(*names: str) -> tuple[int, ...]:
    return tuple(sorted(M.INDEX[n] for n in names))


def region(name: str) -> tuple[int, ...]:
    """Countries of a region or sub-region (Europe and Asia include their sub-regions)."""
    if name in M.REGION_COUNTRIES:
        return M.REGION_COUNTRIES[name]
    return M.SUBREGION_COUNTRIES[name]


def place(state: TSState, actor: int, count: int, allowed: Iterable[int], *, max_per: int = 99,
          optional: bool = False) -> None:
    state.stack.append(("ev_place", actor, count, tuple(sorted(set(allowed))), max_per, (), optional))


def remove(state: TSState, actor: int, target: int, count: int, allowed: Iterable[int], *,
           max_per: int = 99, optional: bool = False) -> None:
    state.stack.append(("ev_remove", actor, target, count, tuple(sorted(set(allowed))), max_per, (), optional))


def remove_each(state: TSState, actor: int, target: int, picks: int, per: int, allowed: Iterable[int]) -> None:
    state.stack.append(("ev_remove_each", actor, target, picks, per, tuple(allowed), ()))


def place_one(state: TSState, actor: int, amount: int, allowed: Iterable[int]) -> None:
    state.stack.append(("ev_place_one", actor, amount, tuple(allowed)))


def ask(state: TSState, actor: int, name: str, keys: Iterable[str], data: Any = None) -> None:
    state.stack.append(("ev_choice", actor, name, tuple(keys), data))


def ask_country(state: TSState, actor: int, name: str, countries: Iterable[int], data: Any = None) -> None:
    """``actor`` picks one of ``countries`` (nothing happens if there is none)."""
    state.stack.append(("event_country", actor, name, tuple(sorted(set(countries))), data))


def war(state: TSState, actor: int, target: int, modifier: int, *, card: int, at_least: int = 4, vp: int = 2,
        milops: int = 2) -> None:
    """War card ``card``: ``actor`` gets ``milops`` at once; a die minus ``modifier`` (the card's
    own, plus what lasting effects add: hooks.WAR_MODIFIERS) ≥ ``at_least`` wins ``vp`` and swaps
    the enemy's influence in ``target`` for the actor's."""
    state.milops[actor] = min(5, state.milops[actor] + milops)
    for extra in H.WAR_MODIFIERS:
        modifier += extra(state, actor, card, target)
    state.stack.append(("war", actor, target, modifier, at_least, vp))


def grant_ops(state: TSState, actor: int, value: int) -> None:
    state.stack.append(("ev_ops", actor, value))


def ops_uses(state: TSState, side: int) -> list[str]:
    """What ``side`` may do with Operations an event gives it: influence, and realignment or a
    coup where it has a target (never the space race)."""
    uses = ["influence"]
    realign, coup = O.operation_uses(state, side)
    if realign:
        uses.append("realign")
    if coup:
        uses.append("coup")
    return uses


def discard_from_hand(state: TSState, side: int, card: int) -> None:
    """A forced discard: the card leaves ``side``'s hand for the discard pile; its event never
    happens (cards.md §5.3); lasting effects tied to the card follow it (hooks.DISCARD_HOOKS:
    an owed Missile Envy goes with its obligation)."""
    remove_from_hand(state, side, card)
    state.discard = state.discard + (card,)
    for hook in H.DISCARD_HOOKS:
        hook(state, side, card)


def drop_disposal(state: TSState, card: int) -> bool:
    """Take ``card``'s pending ``dispose`` frame off the stack (the card goes elsewhere than the
    discard pile); False if there is none."""
    stack = state.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0] == "dispose" and stack[i][1] == card:
            del stack[i]
            return True
    return False


def enemy_controlled_neighbours(state: TSState, actor: int, country: int) -> int:
    """Neighbours of ``country`` controlled by ``actor``'s enemy; a bordering enemy superpower
    space counts as one (rule 2.1.5)."""
    enemy = other(actor)
    count = sum(1 for n in M.NEIGHBOURS[country] if B.controls(state, enemy, n))
    if M.COUNTRIES[country].id in M.SUPERPOWER_NEIGHBOURS[SIDE_NAMES[enemy]]:
        count += 1
    return count


def set_to_control(state: TSState, side: int, country: int) -> None:
    """Add influence until ``side`` controls ``country`` (no more than needed)."""
    needed = state.inf[other(side)][country] + B.STABILITY[country]
    state.inf[side][country] = max(state.inf[side][country], needed)


# -- steps -----------------------------------------------------------------------------------------


class EvPlace(TSStep):
    name = "ev_place"

    def run(self, game, state, frame):
        _, actor, left, allowed, max_per, placed, optional = frame
        if left <= 0:
            options = []
        elif len(placed) < max_per:  # no country can have reached the limit yet
            options = list(allowed)
        else:
            options = [c for c in allowed if placed.count(c) < max_per]
        if not options:
            state.stack.pop()
            return None
        opts = country_options(options) + ((DONE,) if optional else ())
        return make_decision(role(state, actor), "event_place", f"add influence ({left} left)", opts)

    def choose(self, game, state, frame, option):
        _, actor, left, allowed, max_per, placed, optional = frame
        if option.value is None:
            state.stack.pop()
            return
        state.inf[actor][option.value] += 1
        state.stack[-1] = ("ev_place", actor, left - 1, allowed, max_per, placed + (option.value,), optional)


class EvRemove(TSStep):
    name = "ev_remove"

    def run(self, game, state, frame):
        _, actor, target, left, allowed, max_per, removed, optional = frame
        options = (
            [c for c in allowed if state.inf[target][c] > 0 and removed.count(c) < max_per] if left > 0 else []
        )
        if not options:
            state.stack.pop()
            return None
        opts = country_options(options) + ((DONE,) if optional else ())
        return make_decision(role(state, actor), "event_remove",
                             f"remove {SIDE_NAMES[target]} influence ({left} left)", opts)

    def choose(self, game, state, frame, option):
        _, actor, target, left, allowed, max_per, removed, optional = frame
        if option.value is None:
            state.stack.pop()
            return
        state.inf[target][option.value] -= 1
        state.stack[-1] = ("ev_remove", actor, target, left - 1, allowed, max_per, removed + (option.value,), optional)


class EvRemoveEach(TSStep):
    name = "ev_remove_each"

    def run(self, game, state, frame):
        _, actor, target, picks, per, allowed, chosen = frame
        options = [c for c in allowed if c not in chosen and state.inf[target][c] > 0] if picks > 0 else []
        if not options:
            state.stack.pop()
            return None
        return make_decision(role(state, actor), "event_remove",
                             f"remove {per} {SIDE_NAMES[target]} influence ({picks} countries left)",
                             country_options(options))

    def choose(self, game, state, frame, option):
        _, actor, target, picks, per, allowed, chosen = frame
        c = option.value
        state.inf[target][c] -= min(per, state.inf[target][c])
        state.stack[-1] = ("ev_remove_each", actor, target, picks - 1, per, allowed, chosen + (c,))


class EvPlaceOne(TSStep):
    name = "ev_place_one"

    def run(self, game, state, frame):
        _, actor, amount, allowed = frame
        return make_decision(role(state, actor), "event_place", f"add {amount} influence to one country",
                             country_options(allowed))

    def choose(self, game, state, frame, option):
        _, actor, amount, allowed = frame
        state.stack.pop()
        state.inf[actor][option.value] += amount


class EvChoice(TSStep):
    name = "ev_choice"

    def run(self, game, state, frame):
        _, actor, name, keys, data = frame
        if not keys:
            state.stack.pop()
            return None
        options = tuple([Option(f"choice:{k}", k.replace("_", " "), k) for k in keys])
        return make_decision(role(state, actor), name, f"choose: {name.replace('_', ' ')}", options)

    def choose(self, game, state, frame, option):
        _, actor, name, keys, data = frame
        state.stack.pop()
        CHOICES[name](state, actor, option.value, data)


class EventCountry(TSStep):
    """``actor`` picks one country for an event; a registered ``@choice`` callback acts on it."""

    name = "event_country"

    def run(self, game, state, frame):
        _, actor, name, countries, data = frame
        if not countries:
            state.stack.pop()
            return None
        return make_decision(role(state, actor), name, f"choose a country: {name.replace('_', ' ')}",
                             country_options(countries))

    def choose(self, game, state, frame, option):
        _, actor, name, countries, data = frame
        state.stack.pop()
        CHOICES[name](state, actor, option.value, data)


class OpposedRoll(TSStep):
    """Two dice, one per side: frame ``(name, actor, first)``; ``first`` is 0 until the actor's
    die is rolled, then holds it while the opponent rolls. Subclasses define
    ``resolve(state, actor, mine, theirs)``, called with both dice, the frame still on top."""

    #: the event, as the die prompt names it; the two rollers as the prompt calls them
    label = ""
    rollers = ("player", "opponent")

    def run(self, game, state, frame):
        _, actor, first = frame
        who = self.rollers[1] if first else self.rollers[0]
        roller = other(actor) if first else actor
        return make_decision(CHANCE, "die", f"die of {role(state, roller)}: {self.label} ({who})", DIE_OPTIONS)

    def choose(self, game, state, frame, option):
        _, actor, first = frame
        if not first:
            state.stack[-1] = (self.name, actor, option.value)
            return
        self.resolve(state, actor, first, option.value)


class War(TSStep):
    name = "war"

    def run(self, game, state, frame):
        _, actor, target, modifier, at_least, vp = frame
        return make_decision(CHANCE, "die", f"die of {role(state, actor)}: war in {M.COUNTRIES[target].id} "
                             f"(wins on {at_least}+ after -{modifier})", DIE_OPTIONS)

    def choose(self, game, state, frame, option):
        _, actor, target, modifier, at_least, vp = frame
        state.stack.pop()
        result = option.value - modifier
        won = result >= at_least
        log(state, role(state, actor), "war_result", f"country:{M.COUNTRIES[target].id}:{'won' if won else 'lost'}")
        if won:
            enemy = other(actor)
            state.inf[actor][target] += state.inf[enemy][target]
            state.inf[enemy][target] = 0
            B.add_vp(state, actor, vp)


class EvOps(TSStep):
    """Operations granted by an event: choose their use. Frame ``("ev_ops", actor, value[,
    hooks_done])``: hooks.EVENT_OPS_HOOKS run first, each once (the frame counts them, as
    ``action_round`` does), even when one pushed frames of its own."""

    name = "ev_ops"

    def run(self, game, state, frame):
        actor, value = frame[1], frame[2]
        done = frame[3] if len(frame) > 3 else 0
        hooks = H.EVENT_OPS_HOOKS
        while done < len(hooks):
            hook = hooks[done]
            done += 1
            state.stack[-1] = ("ev_ops", actor, value, done)
            if hook(state, actor):
                return None
        options = tuple([Option(f"use:{u}", u, u) for u in ops_uses(state, actor)])
        return make_decision(role(state, actor), "event_ops", f"use {value} Operations", options)

    def choose(self, game, state, frame, option):
        actor, value = frame[1], frame[2]
        state.stack.pop()
        O.push_operations(state, actor, 0, option.value, value=value)


STEPS = (EvPlace(), EvRemove(), EvRemoveEach(), EvPlaceOne(), EvChoice(), EventCountry(), War(), EvOps())
