"""Blockers!: place lettered, numbered and symbol tiles on a 9×9 board; few groups and few captures win.

Rules: ``shared/rulebooks/blockers.txt`` (the published rules) and ``shared/rules/blockers.md`` (our decisions,
which win), beside the repository. The view dict is specified in ``docs/dev/blockers-view.md``.

Timing and other details the texts leave open, decided here:

* **Turn order.** The first player is drawn with the seeded RNG; play then goes in seat order. A turn is one
  tile played (then one tile drawn of the same colour, if that pile has any left) or, only when no tile can
  go anywhere, ``pass``.
* **Legal moves.** A rack tile may go on any square it fits: empty, or holding a tile of *another colour than
  the tile played* whose removal leaves its group in one piece (a lone tile always qualifies). In the basic
  game that means any opponent's tile; in the advanced game it also means the player's own other colour.
  Captures are always allowed, so "you must capture when nothing fits an empty square" needs no special case.
* **Pass.** ``pass`` is the only legal move exactly when the player has no other. It draws nothing and counts
  as the player's turn (also as a final turn). If every player still in the game passes in succession,
  nothing can ever change again, so the game ends at once (otherwise it would never end).
* **End of the basic game** (rules page). Each player's *final turn* is their first turn after their own pile
  ran out (the draw after their 23rd play empties it). After it they sit out: their turn is skipped and they
  keep their 4 tiles, still private. A player who passed earlier is behind and takes their final turn later.
  The game ends when every player has taken their final turn (or when every player still in the game passes in
  one round). So every player plays exactly 24 tiles unless they were stuck.
* **Finishing a colour (advanced).** A colour is finished when its owner plays a tile of it and there is no
  tile of that colour left to draw ("if you have no more tiles of that colour left to draw, tip your rack and
  expose the four remaining tiles"). Its pile ran out at the draw after its 23rd play, so its 24th play
  finishes it with exactly 4 tiles on its rack. Those become public and can never be played; the rules.md
  wording "when a colour's pile is empty after a play" is read this way, since an empty pile after a play
  and draw still leaves 5 tiles.
* **A player who finished both colours (advanced)** takes no more turns; the opponent plays on alone until
  they finish too. Playing alternately without passes, this is never needed: both players finish after their
  48th play, and the game ends right after the second player's.
* **Scoring.** Groups are counted per colour (in the advanced game a yellow and a green group that touch are
  still two groups). The most-captured colour is the largest count among all captured colours, own colours
  included; 0 with no captures. Lower scores rank better, then fewer total captures; what is still tied shares
  the rank. Rack tiles are never revealed in the basic game, not even at the end.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.base import (
    Decision,
    Event,
    Game,
    IllegalMoveError,
    NotationError,
    OptionError,
    OptionSpec,
    Result,
    rank_by,
)
from engine.blockers.board import (
    ADVANCED_COLOURS,
    COLOURS,
    FACE_ORDER,
    FACES,
    FITS,
    LETTERS,
    NUMBERS,
    RACK,
    ROWS,
    SECTIONS,
    SIZE,
    SQUARES,
    WILD,
    can_capture_from,
    colour_of,
    face_of,
    fits,
    group_counts,
    parts_without,
    sort_faces,
    spoken,
    square_at,
    square_name,
    tile,
    where,
)
from engine.blockers.view import BlockersLast, BlockersPlayer, BlockersView, TileView
from engine.rng import Rng
from engine.state import copy_state

PLAY, OVER = "play", "over"
BASIC, ADVANCED = "basic", "advanced"


@dataclass(frozen=True, order=True)
class Move:
    """A tile played onto a square, or a pass. ``colour`` is only written in the advanced game."""

    face: str = ""  # "" for a pass
    square: int = -1
    colour: str = ""

    @property
    def is_pass(self) -> bool:
        return not self.face


PASS = Move()
# every move of a tile, made once (moves are immutable): by (colour as written, "" in the basic game; face), one for
# each square the face fits, in square order
_MOVES: dict[tuple[str, str], tuple[Move, ...]] = {
    (colour, face): tuple(Move(face=face, square=sq, colour=colour) for sq in FITS[face])
    for colour in ("", *COLOURS) for face in FACES}


def _tile_view(t: str) -> TileView:
    """``"blue:E"`` as the view shows it."""
    colour, _, face = t.partition(":")
    return {"colour": colour, "face": face}


@dataclass
class BlockersState:
    seats: int
    options: dict[str, Any] = field(metadata={"shared": True})  # never mutated
    rng: int
    board: list[str | None]  # 81 squares in reading order (1A, 2A, … 9I): None or "colour:face"
    racks: dict[str, list[str]]  # colour -> faces on its rack, in canonical face order
    piles: dict[str, list[str]]  # colour -> face-down faces, the top (next drawn) last
    captured: list[list[str]]  # [seat] -> captured tiles "colour:face", in the order taken
    turn: int
    finished: list[str] = field(default_factory=list)  # colours done (advanced: 24th play; basic: final turn taken)
    phase: str = PLAY
    passes: int = 0  # passes in succession since the last tile was played
    # the last move, for the view (replaced, never mutated)
    last: BlockersLast | None = field(default=None, metadata={"shared": True})
    ply: int = 0

    def clone(self) -> BlockersState:
        return copy_state(self)

    @property
    def advanced(self) -> bool:
        return self.options["mode"] == ADVANCED

    def colours(self, seat: int) -> tuple[str, ...]:
        """The colours a seat plays: one, or two in the advanced game."""
        if self.advanced:
            return ADVANCED_COLOURS[seat]
        return (COLOURS[seat],)

    def playable(self, seat: int) -> list[str]:
        return [c for c in self.colours(seat) if c not in self.finished]

    def active(self, seat: int) -> bool:
        return bool(self.playable(seat))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _copy_last(last: BlockersLast | None) -> BlockersLast | None:
    """A copy of the last move for a view (its tiles copied too), as ``copy.deepcopy`` makes, at a tenth of its cost."""
    if last is None:
        return None
    tile_view, taken = last["tile"], last["captured"]
    return {"seat": last["seat"], "move": last["move"], "square": last["square"],
            "tile": None if tile_view is None else {"colour": tile_view["colour"], "face": tile_view["face"]},
            "captured": None if taken is None else {"colour": taken["colour"], "face": taken["face"]},
            "pass": last["pass"]}


# --- notation -------------------------------------------------------------------------------------------------

_SQUARE = re.compile(r"^([1-9])([a-i])$")
_SQUARE_BACKWARDS = re.compile(r"^([a-z])(\d+)$")
_WILD_NAMES = {"wild", "blockers", "blockers!", "blocker"}
_FILLERS = {"on", "at", "to", "onto", "->", "→", "=>", ">"}
HELP = ("Moves are a tile then a square (column 1–9, then row A–I): `7 7E`, `C 5C`, `moon 5B`, `wild 9I`; "
        "in the advanced game say the colour too: `blue:7 7E`. Say `pass` only when nothing can be played.")


def _parse_face(word: str) -> str:
    if word in NUMBERS:
        return word
    if word.isdigit():
        raise NotationError(f"There is no tile `{word}`: the numbers go from 1 to 9.")
    if len(word) == 1 and word.isalpha():
        if word.upper() in LETTERS:
            return word.upper()
        raise NotationError(f"There is no tile `{word.upper()}`: the letters go from A to I.")
    if word in SECTIONS:
        return word
    if word in _WILD_NAMES:
        return WILD
    raise NotationError(f"`{word}` is not a tile. Tiles are 1–9, A–I, `wild`, or a symbol: {', '.join(SECTIONS)}.")


def _parse_square(word: str) -> int:
    m = _SQUARE.match(word)
    if m:
        return square_at(int(m.group(1)) - 1, ROWS.index(m.group(2).upper()))
    back = _SQUARE_BACKWARDS.match(word)
    if back and back.group(1) in "abcdefghi" and back.group(2) in NUMBERS:
        fixed = back.group(2) + back.group(1).upper()
        raise NotationError(f"Squares are written column then row: `{fixed}`, not `{word.upper()}`.")
    raise NotationError(f"`{word}` is not a square: write its column (1–9) then its row (A–I), e.g. `5C`.")


def parse_move(text: str) -> Move:
    t = " ".join(text.strip().lower().split())
    if t == "pass":
        return PASS
    t = re.sub(r"\s*:\s*", ":", t)
    t = t.replace("→", " → ").replace("->", " -> ")
    words = [w for w in t.split() if w not in _FILLERS]
    if not words:
        raise NotationError(f"Say which tile goes where. {HELP}")
    if len(words) == 1:
        word = words[0]
        if _SQUARE.match(word):
            raise NotationError(f"Say which tile goes on {word.upper()}, e.g. `7 {word.upper()}`.")
        raise NotationError(f"I don't understand `{text.strip()[:40]}`. {HELP}")
    if len(words) != 2:
        raise NotationError(f"I don't understand `{text.strip()[:40]}`. {HELP}")
    tile_word, square_word = words
    colour = ""
    if ":" in tile_word:
        colour, tile_word = tile_word.split(":", 1)
        if colour not in COLOURS:
            raise NotationError(f"There is no colour `{colour}`; the colours are {_and(COLOURS)}.")
    face = _parse_face(tile_word)
    return Move(face=face, square=_parse_square(square_word), colour=colour)


def format_move(move: Move) -> str:
    if move.is_pass:
        return "pass"
    prefix = f"{move.colour}:" if move.colour else ""
    return f"{prefix}{move.face} {square_name(move.square)}"


# --- the game -------------------------------------------------------------------------------------------------

class Blockers(Game[BlockersState, Move, BlockersView]):
    key = "blockers"
    name = "Blockers!"
    skippable = False  # no default move: timeout=skip has a bot play a late turn
    min_players = 2
    max_players = 5
    hidden_information = True
    options = (
        OptionSpec("mode", str, BASIC,
                   "basic: one colour each; advanced (two players only): two colours and two racks each.",
                   (BASIC, ADVANCED)),
    )

    def __init__(self) -> None:
        super().__init__()
        from engine.blockers.text import BlockersText  # (here: the words import the rules)

        self.text = BlockersText(self)

    # --- options and setup ---------------------------------------------------------------
    def resolve_options(self, given: Mapping[str, Any] | None = None, seats: int | None = None) -> dict[str, Any]:
        opts = super().resolve_options(given, seats)
        if seats is not None and seats > 2 and opts["mode"] == ADVANCED:
            raise OptionError("The advanced game is for two players only; with 3–5 players use `mode=basic`.")
        return opts

    def new_game(self, seats: int, options: Mapping[str, Any], seed: int) -> BlockersState:
        self.check_seats(seats)
        opts = self.resolve_options(options, seats)
        rng = Rng(seed)
        colours = [c for pair in ADVANCED_COLOURS for c in pair] if opts["mode"] == ADVANCED else COLOURS[:seats]
        racks: dict[str, list[str]] = {}
        piles: dict[str, list[str]] = {}
        for colour in sorted(colours, key=COLOURS.index):
            pile = list(FACES)
            rng.shuffle(pile)
            racks[colour] = sort_faces([pile.pop() for _ in range(RACK)])
            piles[colour] = pile
        first = rng.below(seats)
        return BlockersState(seats=seats, options=opts, rng=rng.state, board=[None] * SQUARES, racks=racks,
                             piles=piles, captured=[[] for _ in range(seats)], turn=first)

    # --- whose turn, what is legal ---------------------------------------------------------
    def decisions(self, state: BlockersState) -> tuple[Decision, ...]:
        if state.phase == OVER:
            return ()
        return (Decision(state.turn, "turn", "It's your turn.", private=True),)  # the choices show the rack

    def to_act(self, state: BlockersState) -> frozenset[int]:
        if state.phase == OVER:
            return frozenset()
        return frozenset((state.turn,))

    def _plays(self, state: BlockersState, seat: int) -> list[Move]:
        board = state.board
        takeable: dict[int, bool] = {}
        moves = []
        named = state.advanced
        for colour in state.playable(seat):
            own = colour + ":"  # (no colour's name begins another's)
            for face in state.racks[colour]:
                for sq, move in zip(FITS[face], _MOVES[colour if named else "", face], strict=True):
                    there = board[sq]
                    if there is not None:
                        if there.startswith(own):
                            continue
                        if sq not in takeable:
                            takeable[sq] = can_capture_from(board, sq)
                        if not takeable[sq]:
                            continue
                    moves.append(move)
        return moves

    def is_legal(self, state: BlockersState, seat: int, move: Move) -> bool:
        """``move in legal_moves(state, seat)``, answered from the rules for that one move: the list holds every
        rack tile on every square it fits, and each capture in it is a group check."""
        if seat not in self.to_act(state):
            return False
        if not move.face:
            return move == PASS and not self._plays(state, seat)
        named = state.advanced
        board = state.board
        for colour in state.playable(seat):
            if move.colour != (colour if named else "") or move.face not in state.racks[colour]:
                continue
            squares = FITS.get(move.face, ())
            if move.square not in squares:
                continue
            sq = squares[squares.index(move.square)]  # (the square as _plays writes it)
            there = board[sq]
            if there is None or (colour_of(there) != colour and can_capture_from(board, sq)):
                return True
        return False

    def sample_move(self, state: BlockersState, seat: int, rng: Rng) -> Move:
        """Uniform over the legal moves without listing them: draw a (rack tile, square it fits) pair uniformly and
        keep it if it is legal (an empty square, or a capture that is allowed); after a few misses, draw from the
        full list. Both stages are uniform over the legal moves, so the whole is too."""
        board = state.board
        candidates = [(colour, face) for colour in state.playable(seat) for face in state.racks[colour]]
        total = sum(len(FITS[face]) for _, face in candidates)
        for _ in range(64 if total else 0):
            k, i = rng.below(total), 0
            while k >= len(FITS[candidates[i][1]]):
                k -= len(FITS[candidates[i][1]])
                i += 1
            colour, face = candidates[i]
            square = FITS[face][k]
            there = board[square]
            if there is None or (not there.startswith(colour + ":") and can_capture_from(board, square)):
                return Move(face=face, square=square, colour=colour if state.advanced else "")
        return super().sample_move(state, seat, rng)

    def legal_moves(self, state: BlockersState, seat: int) -> list[Move]:
        """Each playable rack tile (colour order, then face order) on each square it may go to (square order);
        just ``pass`` when there is none."""
        if seat not in self.to_act(state):
            return []
        return self._plays(state, seat) or [PASS]

    # --- applying --------------------------------------------------------------------------
    def normalise_move(self, state: BlockersState, seat: int, move: Move) -> Move:
        """Fill in or check the colour of a typed move: optional in the basic game, guessed when unambiguous in
        the advanced game."""
        if move.is_pass:
            return move
        mine = state.colours(seat)
        if move.colour and move.colour not in mine:
            raise IllegalMoveError(f"{move.colour.capitalize()} is not your colour: you play {_and(mine)}.")
        if not state.advanced:
            return Move(face=move.face, square=move.square)
        if move.colour:
            return move
        holders = [c for c in state.playable(seat) if move.face in state.racks[c]]
        if len(holders) > 1:
            legal = self._plays(state, seat)
            fitting = [c for c in holders if Move(move.face, move.square, c) in legal]
            if len(fitting) > 1:
                options = " or ".join(f"`{c}:{move.face} {square_name(move.square)}`" for c in fitting)
                raise IllegalMoveError(f"You have a {move.face} of both colours: say which, {options}.")
            holders = fitting or holders
        if holders:
            return Move(face=move.face, square=move.square, colour=holders[0])
        return move

    def perform(self, s: BlockersState, seat: int, move: Move, events: list[Event]) -> None:
        s.ply += 1
        text = self.format_move(move)
        final = not s.advanced and not s.piles[s.colours(seat)[0]]  # basic: the turn after the pile ran out
        if move.is_pass:
            s.passes += 0 if final else 1  # a pass as a final turn leaves the game: it is no one's pass in a round
            events.append(Event("pass", seat, "{p%d} cannot play any tile and passes." % seat, {"move": text}))
            s.last = {"seat": seat, "move": text, "square": None, "tile": None, "captured": None, "pass": True}
        else:
            self._play(s, seat, move, text, events)
        if final:
            s.finished.append(s.colours(seat)[0])
            left = _plural(len(s.racks[s.colours(seat)[0]]), "tile")
            events.append(Event("final", seat, "{p%d} has taken their final turn and sits out, keeping %s." % (
                seat, left), {"colour": s.colours(seat)[0]}))
        self._end_turn(s, seat, events)

    def determinize(self, state: BlockersState, seat: int, rng: Rng) -> BlockersState:
        """Which of a colour's unplayed tiles are on its rack and which in its pile is hidden from everyone but the
        rack's owner, and the order of every pile from everyone: other seats' racks are dealt afresh from their
        colour's unplayed tiles, and every pile is reshuffled. Finished colours' racks are public and stay."""
        s = state.clone()
        mine = set(s.colours(seat))
        for colour, rack in s.racks.items():
            pile = s.piles[colour]
            if colour in mine or colour in s.finished:
                pile.sort()  # the order seen is not information: start from a canonical one
                rng.shuffle(pile)
                continue
            unplayed = sorted(rack + pile)
            rng.shuffle(unplayed)
            s.racks[colour] = sort_faces(unplayed[:len(rack)])
            s.piles[colour] = unplayed[len(rack):]
        self.reseed(s, rng)
        return s

    def _play(self, s: BlockersState, seat: int, move: Move, text: str, events: list[Event]) -> None:
        colour = move.colour or s.colours(seat)[0]
        placed = tile(colour, move.face)
        where_to = square_name(move.square)
        s.racks[colour].remove(move.face)
        taken = s.board[move.square]
        s.board[move.square] = placed
        s.passes = 0
        tile_json: TileView = {"colour": colour, "face": move.face}
        taken_json: TileView | None = None
        if taken is None:
            events.append(Event("play", seat, "{p%d} played %s on %s." % (seat, spoken(placed), where_to),
                                {"move": text, "square": where_to, "tile": tile_json, "captured": None}))
        else:
            s.captured[seat].append(taken)
            taken_json = {"colour": colour_of(taken), "face": face_of(taken)}
            events.append(Event("capture", seat, "{p%d} played %s on %s, capturing %s." % (
                seat, spoken(placed), where_to, spoken(taken)),
                {"move": text, "square": where_to, "tile": tile_json, "captured": taken_json}))
        s.last = {"seat": seat, "move": text, "square": where_to, "tile": tile_json, "captured": taken_json,
                  "pass": False}
        pile = s.piles[colour]
        if pile:
            s.racks[colour].append(pile.pop())
            s.racks[colour].sort(key=FACE_ORDER.__getitem__)
            events.append(Event("draw", seat, "{p%d} drew a %s tile (%s left)." % (seat, colour, len(pile)),
                                {"colour": colour, "pile": len(pile)}))
        elif s.advanced:
            s.finished.append(colour)
            shown = s.racks[colour]
            events.append(Event("finish", seat, "{p%d} has finished %s: the last %s (%s) are face up." % (
                seat, colour, _plural(len(shown), "tile"), ", ".join(shown)),
                {"colour": colour, "public": list(shown)}))

    def _end_turn(self, s: BlockersState, seat: int, events: list[Event]) -> None:
        """Detect the end (everyone finished, or everyone still in passed in a row) and pass the turn on."""
        over = not any(s.active(p) for p in range(s.seats))
        active = [p for p in range(s.seats) if s.active(p)]
        if not over and s.passes >= len(active):
            over = True
            events.append(Event("stuck", None, "Nobody can play a tile any more."))
        if over:
            s.phase = OVER
            result = self.result(s)
            assert result is not None
            events.append(Event("over", None, "Game over: " + self.verdict(result) + ".",
                                {"result": result.to_json()}))
            return
        nxt = (seat + 1) % s.seats
        while not s.active(nxt):
            nxt = (nxt + 1) % s.seats
        s.turn = nxt

    def why_illegal(self, s: BlockersState, seat: int, move: Move) -> str:
        if move.is_pass:
            example = self.format_move(self._plays(s, seat)[0])
            return f"You can't pass while a tile can be played, e.g. `{example}`."
        if s.advanced and not move.colour:  # no playable rack holds this face
            done = [c for c in s.colours(seat) if c in s.finished and move.face in s.racks[c]]
            if done:
                return f"Your {move.face} is on your finished {done[0]} rack: it can't be played any more."
            return f"There is no {move.face} on your racks."
        colour = move.colour or s.colours(seat)[0]
        at = square_name(move.square)
        if colour in s.finished:
            rest = s.playable(seat)
            return f"You have finished {colour}: " + (f"play your {rest[0]} tiles." if rest else "you are done.")
        rack = f"your {colour} rack" if s.advanced else "your rack"
        if move.face not in s.racks[colour]:
            return f"There is no {move.face} on {rack}."
        if not fits(move.face, move.square):
            return f"A {move.face} goes {where(move.face)}; {at} is not."
        there = s.board[move.square]
        assert there is not None  # an empty square that fits is always legal
        if colour_of(there) == colour:
            if s.advanced:
                return (f"{at} holds a {colour} tile: a {colour} tile can't capture it "
                        "(capture your own other colour only).")
            return f"{at} holds your own tile; you can only capture other colours."
        parts = parts_without(s.board, move.square)
        return (f"Capturing the {spoken(there)} on {at} would split the {colour_of(there)} group into "
                f"{parts} parts.")

    # --- result and scores ------------------------------------------------------------------
    def groups(self, state: BlockersState, seat: int) -> int:
        counts = group_counts(state.board)  # (every colour's, kept by the board: see count_groups)
        return sum(counts.get(c, 0) for c in state.colours(seat))

    def captured_by_colour(self, state: BlockersState, seat: int) -> dict[str, int]:
        counts = {c: 0 for c in COLOURS}
        for t in state.captured[seat]:
            counts[colour_of(t)] += 1
        return {c: n for c, n in counts.items() if n}

    def scores(self, state: BlockersState) -> list[int]:  # type: ignore[override]
        return [self._score(self.groups(state, p), self.captured_by_colour(state, p)) for p in range(state.seats)]

    @staticmethod
    def _score(groups: int, captured: Mapping[str, int]) -> int:
        """A seat's score from its groups and its captures by colour: the groups plus the most-captured colour."""
        return groups + max(captured.values(), default=0)

    def ranks_now(self, state: BlockersState) -> tuple[int, ...]:
        """The lowest score first; on equal scores, fewer tiles captured."""
        scores = self.scores(state)
        taken = [len(c) for c in state.captured]
        return rank_by([(-scores[p], -taken[p]) for p in range(state.seats)])

    def result(self, state: BlockersState) -> Result | None:
        if state.phase != OVER:
            return None
        scores = self.scores(state)
        ranks = self.ranks_now(state)
        winners = frozenset(p for p in range(state.seats) if ranks[p] == 1)
        if len(winners) > 1:
            reason = "tie: the win is shared"
        elif sum(1 for p in range(state.seats) if scores[p] == min(scores)) > 1:
            reason = "lowest score; the tie went to the fewest captures"
        else:
            reason = "lowest score"
        return Result(scores=tuple(float(x) for x in scores), ranks=ranks, winners=winners, reason=reason)

    @staticmethod
    def verdict(result: Result) -> str:
        names = sorted(result.winners)
        who = _and(["{p%d}" % p for p in names])
        return f"{who} {'wins' if len(names) == 1 else 'share the win'}"

    # --- notation -------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def format_move(self, move: Move) -> str:
        return format_move(move)

    # --- views ------------------------------------------------------------------------------
    def view(self, state: BlockersState, seat: int | None) -> BlockersView:
        result = self.result(state)
        cells = state.board
        counts = group_counts(cells)
        players: list[BlockersPlayer] = []
        for p in range(state.seats):
            colours = state.colours(p)
            captured = self.captured_by_colour(state, p)
            groups = sum(counts.get(c, 0) for c in colours)  # (as self.groups: the score is made of them)
            players.append({
                "colours": list(colours),
                "rack_counts": {c: len(state.racks[c]) for c in colours},
                "pile_counts": {c: len(state.piles[c]) for c in colours},
                "captured": captured,
                "groups": groups,
                "score": self._score(groups, captured),
                "finished": [c for c in colours if c in state.finished],
                "public": {c: list(state.racks[c]) for c in colours if c in state.finished and state.advanced},
            })
        out: BlockersView = {
            "game": self.key,
            "viewer": seat,
            "mode": state.options["mode"],
            "phase": state.phase,
            "ply": state.ply,
            "turn": state.turn,
            "to_act": sorted(self.to_act(state)),
            "board": [[None if t is None else _tile_view(t) for t in cells[row * SIZE:(row + 1) * SIZE]]
                      for row in range(SIZE)],
            "sections": list(SECTIONS),
            "players": players,
            "last": _copy_last(state.last),
            "result": result.to_json() if result else None,
        }
        if seat is not None:
            out["rack"] = {c: list(state.racks[c]) for c in state.colours(seat)}
        return out

    @staticmethod
    def _cell(t: str | None) -> TileView | None:
        return None if t is None else _tile_view(t)

    def private_info(self, state: BlockersState, seat: int) -> dict[str, Any]:
        """Only the racks are private (the same as the view's "rack", without building whole views)."""
        return {"rack": {c: list(state.racks[c]) for c in state.colours(seat)}}

    # --- persistence --------------------------------------------------------------------------
