"""The latest move, recorded on the state for the board ("Last: …" and an outline around the districts it touched):
who made it, the channel's own line for it, and where. Only public: the line is one of the move's events, which the
channel hears anyway (a gift or a trade says how many cards, never which)."""

from __future__ import annotations

import re

from engine.base import CANCEL, Event
from engine.blocbybloc.city import cell_name
from engine.blocbybloc.common import named
from engine.blocbybloc.model import BlocState, Last
from engine.blocbybloc.moves import Move, describe, parse
from engine.blocbybloc.pending import pending_of
from engine.blocbybloc.view import LastView

PRELUDE = ("reaction", "kitchen", "dice", "form", "lapse")
"""Events a move's own line may follow (the roll that closed a run of attacks, the next turn's dice): not its line."""

_NOT_DRAWN = re.compile("[^\x00-\u25ff]")  # emoji and symbols from U+2600 on (the variation selector U+FE0F too)

MAIN = {"end": "ops"}  # a move whose line is of one kind, whatever comes before it (untaken Workshop draws)


def mover_faction(state: BlocState, seat: int, move: Move) -> int:
    """The faction that makes ``move`` for ``seat``, read before it is carried out."""
    if move.kind in ("give", "offer"):
        return move.frm if move.frm >= 0 else state.faction_now()
    if move.kind == "decline" or (move.kind == "accept" and move.n):
        return next((o.to for o in state.offers if o.id == move.n), state.faction_now())
    if state.pending:
        return (pending_of(state, seat) or state.pending[0]).faction
    return state.faction_now()


def record(state: BlocState, f: int, move: Move, cells: list[int], turn: str, events: list[Event],
           run: int = -1, declined: bool = False) -> None:
    """Record ``move``, made by faction ``f`` in the turn ``turn``, as the latest move: its line is the first of
    its events that ``f`` says (not a roll it set off first), or else the roll it set off or answered (in the
    district ``run`` of the attacks it closed, if any), or else the move in words. A one-holder question
    ``declined`` (Lookouts, Communiqué: cards.md decision 21) is never told: the line is then what followed it in
    public, for nobody's faction, or else the last move stays."""
    seat = state.controller[f]
    name = named(f)
    want = MAIN.get(move.kind)
    own = [e for e in events if e.seat == seat]
    main = [e for e in own if e.kind not in PRELUDE and (want is None or e.kind == want)
            and (e.kind == CANCEL or name in e.text or e.kind == "manifestation")]
    if main:
        text = main[0].text
    elif own and own[0].kind == "reaction":  # the move waits on the roll it set off, or answered it
        text = own[0].text
        cells = [run] if run >= 0 else cells
    elif declined:
        public = [e for e in events if e.seat is None]
        if public:
            state.last = Last(-1, plain(public[0].text), sorted(set(cells)), move.kind, turn)
        return
    else:
        text = f"{spoken(move)}."
    if name not in text:
        text = f"{name}: {text}"
    state.last = Last(f, plain(text), sorted(set(cells)), move.kind, turn)


def plain(text: str) -> str:
    """A line as the picture writes it: arrows in words, no notation marks, no emoji (its font has none)."""
    text = text.replace(" → ", " to ").replace("`", "")
    if text.isascii():  # (most lines: nothing to drop)
        return text.strip()
    return _NOT_DRAWN.sub("", text).strip()


def spoken(move: Move) -> str:
    """A move's menu label as a clause (``Keep this reaction roll`` → ``keep this reaction roll``)."""
    label = describe(move, cell_name(move.cell) if move.cell >= 0 else "")
    return label[:1].lower() + label[1:]


def touched(state: BlocState, seat: int, f: int, move: Move) -> list[int]:
    """The districts ``move`` (faction ``f``'s) touches, read before it is carried out: its district and
    destination, both ends of each connection it barricades or crosses, the occupation whose ability it uses, the
    district a pending answer is about (and for a Lookouts answer, the move that waited on the roll)."""
    exchange = move.kind in ("give", "offer", "decline") or (move.kind == "accept" and move.n)
    if exchange:  # (its ``to`` is a faction)
        return []
    if not state.pending:
        return cells_of(state, f, move)
    cells = cells_of(state, f, move)
    if not cells and move.kind not in ("order", "discard"):
        p = pending_of(state, seat) or state.pending[0]
        if p.cell >= 0:
            cells.append(p.cell)
        if p.kind == "lookout" and p.action:
            cells += cells_of(state, f, parse(p.action))
    return cells


def cells_of(state: BlocState, f: int, move: Move) -> list[int]:
    """The districts a move of faction ``f``'s own turn touches (see :func:`touched`)."""
    cells = [c for c in (move.cell, move.to) if c >= 0]
    if move.conn or move.extra:  # (most moves name no connection: the lookup is made only when one may)
        by_id = state.city.by_id
        for conn in (move.conn, *move.extra):
            found = by_id.get(conn)
            if found is not None:
                cells += (found.a, found.b)
    if move.kind in ("hall", "hacker", "workshop"):
        cells += [c for c in (state.occupation_cell(f, move.kind),) if c >= 0]
    return cells


def view_of(state: BlocState) -> LastView | None:
    """The latest move as the view gives it (districts by name), or None before the first one."""
    last = state.last
    if last is None:
        return None
    return {"faction": last.faction, "text": last.text, "cells": [cell_name(c) for c in last.cells]}
