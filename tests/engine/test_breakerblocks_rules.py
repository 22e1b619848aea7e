"""Breaker Blocks rules, clause by clause (``../shared/rules/breaker-blocks.md``), on positions built on our grid."""

from __future__ import annotations

from typing import Any

import pytest

from engine.base import IllegalMoveError
from engine.breakerblocks import BreakerBlocks
from engine.breakerblocks.board import CIRCUITS, CORE_INPUTS, MODULES, cell_name, parse_cell
from engine.breakerblocks.game import BreakerState, Placed

G = BreakerBlocks()
P1, P2 = 0, 1


def game(**options: Any) -> BreakerState:
    return G.new_game(2, G.resolve_options(options), 1)


def at(state: BreakerState, owner: int, kind: str, cell: str, parent: str) -> BreakerState:
    """Put a block on the board (a position for a test), checking it plugs into an input of its owner."""
    c, p = parse_cell(cell), parse_cell(parent)
    assert state.board[c] is None
    assert (p, c) in G.open_inputs(state, owner), f"{cell} is not an open input of P{owner + 1} from {parent}"
    state.board[c] = Placed(kind, owner, p)
    return state


def play(state: BreakerState, seat: int, *moves: str) -> BreakerState:
    for text in moves:
        state, _ = G.apply(state, seat, G.parse_move(text))
    return state


def example() -> BreakerState:
    """The rulebook's example: circuit I 6 vs 2, II 3 vs 2, III 0 vs 1 (Player One wins)."""
    s = game()
    at(s, P1, "1LS", "c5", "d5")  # facing west: S → b5, L → c4
    at(s, P1, "2S", "b5", "c5")
    at(s, P1, "3", "a5", "b5")  # circuit I: 1 + 2 + 3 = 6
    at(s, P1, "3", "e4", "e5")  # circuit II: 3
    at(s, P2, "0", "d6", "d5")  # facing north: S → d7, L → c6, R → e6
    at(s, P2, "2L", "d7", "d6")  # circuit I: 0 + 2 = 2
    at(s, P2, "2S", "e6", "e5")  # circuit II: 2
    at(s, P2, "1SR", "g5", "f5")  # circuit III: 1
    s.hands, s.supplies = [[], []], [["1LR"], ["1LS"]]
    return s


# --- the board -------------------------------------------------------------------------------------------------
def test_the_core_inputs_are_the_same_for_both_players_under_a_half_turn() -> None:
    def turned(cell: int) -> int:
        return 80 - cell

    mine = {(turned(p), turned(c)) for o, p, c in CORE_INPUTS if o == P1}
    assert mine == {(p, c) for o, p, c in CORE_INPUTS if o == P2}
    s = game()
    assert sorted(cell_name(c) for _, c in G.open_inputs(s, P1)) == ["c5", "d4", "e4", "f4"]
    assert sorted(cell_name(c) for _, c in G.open_inputs(s, P2)) == ["d6", "e6", "f6", "g5"]


@pytest.mark.parametrize(("kind", "cell", "parent", "inputs"), [
    ("0", "d4", "d5", {"c4", "d3", "e4"}),  # facing south: left is east, right is west
    ("1LS", "c5", "d5", {"c4", "b5"}),  # facing west: left is south
    ("1SR", "c5", "d5", {"b5", "c6"}),
    ("1LR", "f6", "f5", {"e6", "g6"}),  # facing north: left is west
    ("2L", "g5", "f5", {"g6"}),  # facing east: left is north
    ("2R", "g5", "f5", {"g4"}),
    ("2S", "g5", "f5", {"h5"}),
    ("3", "e4", "e5", set()),
])
def test_a_blocks_inputs_are_named_looking_away_from_its_plug(kind: str, cell: str, parent: str,
                                                               inputs: set[str]) -> None:
    s = game()
    at(s, P1 if parent != "f5" or cell == "f4" else P2, kind, cell, parent)
    view = G.view(s, None)
    assert set(view["blocks"][0]["inputs"]) == inputs


def test_the_rulebook_example_scores_six_to_two_three_to_two_zero_to_one() -> None:
    s = example()
    view = G.view(s, None)
    assert [c["power"] for c in view["circuits"]] == [[6, 2], [3, 2], [0, 1]]
    assert [c["controller"] for c in view["circuits"]] == [P1, P1, P2]
    s.phase, s.reason = "over", "test"
    result = G.result(s)
    assert result is not None and result.winners == {P1} and result.scores == (2.0, 1.0)


def test_rearrange_examples_from_the_rulebook() -> None:
    s = example()
    movable = {cell_name(c) for c in G._movable(s, P1)}
    assert movable == {"a5", "e4"}  # c5 and b5 have blocks plugged into them
    after = play(s, P1, "move a5 f4")  # the Power 3 from circuit I to the opening in circuit III
    assert [c["controller"] for c in G.view(after, None)["circuits"]] == [P1, P1, P1]
    with pytest.raises(IllegalMoveError, match="nothing plugged into it"):
        play(s, P1, "move c5 f4")
    s.turn = P2
    after = play(s, P2, "move d7 e7")  # Player Two's Power 2 from circuit I into circuit II
    assert [c["controller"] for c in G.view(after, None)["circuits"]] == [P1, P2, P2]


def test_physical_blocking_closes_an_opponents_input() -> None:
    s = game()
    at(s, P2, "0", "d6", "d5")  # facing north: its left input faces c6
    at(s, P1, "1SR", "c5", "d5")  # facing west: its right input faces c6 too
    view = G.view(s, None)
    assert "c6" in view["open_inputs"][P1] and "c6" in view["open_inputs"][P2]
    s.hands[P1] = ["3"]
    after = play(s, P1, "play 3 c6")
    assert "c6" not in G.view(after, None)["open_inputs"][P2]  # P1's block is in the way
    after = play(after, P1, "move c6 b5")
    assert "c6" in G.view(after, None)["open_inputs"][P2]  # moved away: open again


# --- turns and actions ------------------------------------------------------------------------------------------
def test_two_actions_then_the_turn_passes_and_end_stops_early() -> None:
    s = game()
    s = play(s, P1, "draw 1LS")
    assert s.turn == P1 and s.actions == 1
    s = play(s, P1, "play 0 d4")
    assert s.turn == P2 and s.actions == 2
    s = play(s, P2, "end")
    assert s.turn == P1 and s.round == 2


def test_a_block_drawn_this_turn_cannot_be_added_this_turn() -> None:
    s = play(game(), P1, "draw 1LS")
    with pytest.raises(IllegalMoveError, match="drew that 1LS this turn"):
        play(s, P1, "play 1LS d4")
    s = play(play(s, P1, "end"), P2, "end")  # the next turn
    s = play(s, P1, "play 1LS d4")
    assert s.board[parse_cell("d4")] == Placed("1LS", P1, parse_cell("d5"))


def test_only_your_own_open_inputs() -> None:
    s = game()
    with pytest.raises(IllegalMoveError, match="not one of your open inputs"):
        play(s, P1, "play 0 d6")
    with pytest.raises(IllegalMoveError, match="no 3 in your hand"):
        play(s, P1, "play 3 d4")


def test_from_names_the_parent_where_two_inputs_face_a_cell() -> None:
    s = game()
    at(s, P1, "0", "d4", "d5")  # faces c4 (right side, looking south: west) and e4? no: e4 is west? see inputs
    at(s, P1, "0", "c5", "d5")  # faces c4 too (left, looking west: south)
    s.hands[P1] = ["3"]
    with pytest.raises(IllegalMoveError, match="say which"):
        play(s, P1, "play 3 c4")
    after = play(s, P1, "play 3 c4 from c5")
    assert after.board[parse_cell("c4")] == Placed("3", P1, parse_cell("c5"))
    assert G.format_move(G.parse_move("play 3 c4 from c5")) == "play 3 c4 from c5"
    # where one input faces the cell, `from` is accepted and dropped
    assert G.normalise_move(s, P1, G.parse_move("play 3 b5 from c5")) == G.parse_move("play 3 b5")


def test_hand_limits_one_of_each_module_two_authenticate() -> None:
    s = play(game(), P1, "draw annihilate")
    with pytest.raises(IllegalMoveError, match="limit"):
        play(s, P1, "draw annihilate")
    s = play(game(), P1, "draw authenticate", "draw 3")
    s = play(play(s, P2, "end"), P1, "draw authenticate")
    assert s.hands[P1].count("authenticate") == 2
    with pytest.raises(IllegalMoveError, match="limit"):
        play(s, P1, "draw authenticate")


def test_a_module_is_placed_like_a_block_passes_power_and_adds_none() -> None:
    s = game()
    s.hands[P1] = ["agitate", "3"]
    s = play(s, P1, "play agitate d4")  # no opponent block: AGITATE has nothing to do
    assert s.turn == P1 and not s.pending
    s = play(s, P1, "play 3 d3")
    assert G.view(s, None)["circuits"][0]["power"] == [3, 0]


def test_a_moved_module_does_not_trigger_again() -> None:
    s = example()
    s.hands[P1] = ["annihilate"]
    s = play(s, P1, "play annihilate f4", "destroy g5", "end")
    s = play(s, P2, "end")
    s = play(s, P1, "move f4 c4")
    assert not s.pending and s.turn == P1


# --- command modules ---------------------------------------------------------------------------------------------
def test_annihilate_destroys_a_leaf_on_either_side_never_authenticate_or_itself() -> None:
    s = example()
    at(s, P2, "authenticate", "f6", "f5")
    s.hands[P1] = ["annihilate"]
    s = play(s, P1, "play annihilate f4")
    targets = {cell_name(m.cell) for m in G.legal_moves(s, P1)}
    assert targets == {"a5", "e4", "d7", "e6", "g5"}  # leaves only; not f6 (AUTHENTICATE), not f4 (itself)
    s = play(s, P1, "destroy a5")
    assert s.board[parse_cell("a5")] is None and s.destroyed == ["3"]
    assert s.actions == 1 and not s.pending  # the effect cost no action


def test_automate_plays_from_a_supply_and_chains_into_the_module_it_adds() -> None:
    s = example()
    s.hands[P1] = ["automate"]
    s = play(s, P1, "play automate f4")
    choices = G.legal_moves(s, P1)
    assert all(m.kind == "automate" for m in choices)
    assert "automate" not in {m.block for m in choices}  # never an AUTOMATE
    assert {"1LR", "annihilate"} <= {m.block for m in choices}
    s = play(s, P1, "automate annihilate c4")
    assert s.pending and s.pending[0].kind == "annihilate"  # the module it added triggers
    s = play(s, P1, "destroy g5")
    assert G.view(s, None)["circuits"][2]["power"] == [0, 0]
    assert s.modules.count("annihilate") == 1 and s.modules.count("automate") == 2


def test_accelerate_takes_up_to_three_within_hand_limits_and_they_count_as_drawn() -> None:
    s = game()
    s.hands[P1] = ["accelerate", "0"]
    s = play(s, P1, "play accelerate d4", "take annihilate")
    assert not any(m.block == "annihilate" for m in G.legal_moves(s, P1))  # hand limit
    s = play(s, P1, "take 3", "take 3")
    assert not s.pending and s.fresh[P1] == ["annihilate", "3", "3"]
    with pytest.raises(IllegalMoveError, match="drew that 3 this turn"):
        play(s, P1, "play 3 e4")
    s2 = play(game(), P1, "draw 3", "end")
    s2.hands[P2] = ["accelerate"]
    s2 = play(s2, P2, "play accelerate d6", "take 1LS", "stop")
    assert s2.hands[P2] == ["1LS"] and s2.fresh[P2] == ["1LS"] and s2.actions == 1


def test_attenuate_returns_one_of_each_side_and_only_one_when_a_side_has_no_target() -> None:
    s = example()
    s.hands[P1] = ["attenuate"]
    s = play(s, P1, "play attenuate f4")
    assert {cell_name(m.cell) for m in G.legal_moves(s, P1)} == {"a5", "e4"}
    s = play(s, P1, "return e4")
    assert {cell_name(m.cell) for m in G.legal_moves(s, P1)} == {"d7", "e6", "g5"}
    s = play(s, P1, "return g5")
    assert "3" in s.supplies[P1] and "1SR" in s.supplies[P2] and not s.pending
    lone = game()
    at(lone, P2, "3", "d6", "d5")
    lone.hands[P1] = ["attenuate"]
    lone = play(lone, P1, "play attenuate d4")  # P1 has no other block: only the opponent's side
    assert [cell_name(m.cell) for m in G.legal_moves(lone, P1)] == ["d6"]
    lone = play(lone, P1, "return d6")
    assert lone.board[parse_cell("d6")] is None and not lone.pending


def test_agitate_makes_two_rearranges_as_the_opponent() -> None:
    s = example()
    s.hands[P1] = ["agitate"]
    s = play(s, P1, "play agitate f4")
    moves = G.legal_moves(s, P1)
    assert {m.kind for m in moves} == {"rearrange", "stop"}
    assert {cell_name(m.source) for m in moves if m.kind == "rearrange"} == {"d7", "e6", "g5"}
    s = play(s, P1, "rearrange g5 c6")  # P2's 1 from circuit III into circuit I, through d6's input
    assert s.board[parse_cell("c6")] == Placed("1SR", P2, parse_cell("d6"))
    s = play(s, P1, "stop")
    assert not s.pending and s.actions == 1


def test_aggravate_keeps_one_tile_in_each_hand() -> None:
    s = game()
    s.hands = [["aggravate", "0", "3", "annihilate"], ["0", "2L", "agitate"]]
    s.supplies = [["1LS"], []]
    s = play(s, P1, "play aggravate d4")
    assert {m.block for m in G.legal_moves(s, P1)} == {"0", "3", "annihilate"}
    s = play(s, P1, "keep annihilate", "keep 2L")
    assert s.hands == [["annihilate"], ["2L"]]
    assert sorted(s.supplies[P1]) == ["0", "1LS", "3"] and sorted(s.supplies[P2]) == ["0"]
    assert "agitate" in s.modules


def test_authenticate_once_a_turn_immovable_untargetable_and_the_second_ends_the_game() -> None:
    s = game()
    s.hands[P1] = ["authenticate", "authenticate", "annihilate"]
    s = play(s, P1, "play authenticate d4")
    with pytest.raises(IllegalMoveError, match="one AUTHENTICATE"):
        play(s, P1, "play authenticate e4")
    assert not any(m.kind == "move" and cell_name(m.source) == "d4" for m in G.legal_moves(s, P1))
    s = play(play(s, P1, "end"), P2, "end")
    s = play(s, P1, "play annihilate c5")  # the only other block is the AUTHENTICATE: no target
    assert not s.pending and s.board[parse_cell("d4")] is not None
    s = play(s, P1, "play authenticate f4")
    assert G.is_over(s) and s.reason == "the second AUTHENTICATE was added"


# --- the end ------------------------------------------------------------------------------------------------------
def test_a_player_who_can_neither_draw_nor_add_power_ends_the_game_after_one_more_turn() -> None:
    s = game()
    s.supplies[P2] = []
    s.hands[P2] = ["annihilate"]
    s = play(s, P1, "end")
    assert s.turn == P1 and s.final == P1  # P2's turn was over at once; P1 takes the last turn
    s = play(s, P1, "draw 3", "end")
    assert G.is_over(s) and s.reason == "the last turn was played"


def test_the_round_limit_ends_and_scores_the_game() -> None:
    s = game(max_rounds=20)
    for _ in range(20):
        s = play(s, P1, "end")
        s = play(s, P2, "end")
    assert G.is_over(s) and "20-round limit" in s.reason


def test_power_overwhelming_wins_at_the_start_of_a_turn_with_two_circuits() -> None:
    s = game(power_overwhelming=True)
    assert "authenticate" not in s.modules
    at(s, P1, "3", "d4", "d5")
    s.hands[P1] = ["3"]
    s = play(s, P1, "play 3 e4", "end")
    assert not G.is_over(s)
    s = play(s, P2, "end")
    result = G.result(s)
    assert result is not None and result.winners == {P1}


def test_a_tie_is_a_draw_unless_total_power_breaks_it() -> None:
    for tiebreak, winners in (("none", {P1, P2}), ("total_power", {P1})):
        s = game(tiebreak=tiebreak)
        at(s, P1, "3", "d4", "d5")
        at(s, P2, "1LS", "f6", "f5")
        s.phase, s.reason = "over", "test"
        result = G.result(s)
        assert result is not None and result.winners == winners, tiebreak


# --- variants -------------------------------------------------------------------------------------------------------
def test_blind_action_draws_a_random_module_seen_only_by_its_holder() -> None:
    s = game(blind=True, blind_remove4=True)
    assert len(s.modules) == 10 and len(s.removed) == 4 and "authenticate" not in s.removed
    assert "draw module" in {G.format_move(m) for m in G.legal_moves(s, P1)}
    assert "draw annihilate" not in {G.format_move(m) for m in G.legal_moves(s, P1)}
    s = play(s, P1, "draw module")
    drawn = s.hands[P1][-1]
    assert drawn in MODULES
    assert G.view(s, P1)["hands"][P1][-1] == drawn
    assert G.view(s, P2)["hands"][P1][-1] == "module" and G.view(s, None)["hands"][P1][-1] == "module"
    assert G.view(s, None)["modules"] == {} and G.view(s, None)["modules_left"] == 9
    # AUTOMATE of a face-down module draws it at random: no preview (it would show the module, and the player could
    # go back on it); AUTOMATE of a block from the supply is previewed like any placement
    decision = G.decision(s, P1)
    assert decision is not None
    assert not G.previewed(decision, G.parse_move("automate module e4"))
    assert G.previewed(decision, G.parse_move("automate 1LS e4"))


def test_notation_round_trips_and_bad_text_is_refused_in_words() -> None:
    for text in ("draw 1LS", "draw annihilate", "play 2L e3", "play 2L e3 from e4", "move e3 c4",
                 "move e3 c4 from c5", "end", "destroy e3", "automate 3 d4", "take agitate", "stop",
                 "return f6", "rearrange e6 d7 from d6", "keep 0", "draw module"):
        assert G.format_move(G.parse_move(text)) == text
    assert G.parse_move("PLAY 1ls D4") == G.parse_move("play 1LS d4")
    for bad in ("play 4 d4", "draw", "play 1LS j9", "fly"):
        with pytest.raises(Exception, match=r"block|understand"):
            G.parse_move(bad)


def test_blind_aggravate_never_names_a_module_in_the_public_record() -> None:
    s = game(blind=True)
    s.hands = [["aggravate", "0", "agitate", "annihilate"], ["3", "accelerate"]]
    s = play(s, P1, "play aggravate d4")
    mine = [G.format_move(m) for m in G.legal_moves(s, P1)]
    assert mine == ["keep 0", "keep module1", "keep module2"]
    assert G.text.describe_move(s, P1, G.parse_move("keep module2")) == "Keep your ANNIHILATE"
    s = play(s, P1, "keep module2")
    assert s.hands[P1] == ["annihilate"]
    assert [G.format_move(m) for m in G.legal_moves(s, P1)] == ["keep 3", "keep module"]
    s = play(s, P1, "keep module")
    assert s.hands[P2] == ["accelerate"] and sorted(s.supplies[P2])[-1] == "3"


def test_automate_cannot_add_a_second_authenticate_in_a_turn() -> None:
    s = game()
    s.hands[P1] = ["authenticate", "automate"]
    s = play(s, P1, "play authenticate d4", "play automate f4")
    assert "authenticate" not in {m.block for m in G.legal_moves(s, P1)}
    s2 = game()
    s2.hands[P1] = ["automate"]
    s2 = play(s2, P1, "play automate d4")
    assert "authenticate" in {m.block for m in G.legal_moves(s2, P1)}


def test_a_block_moves_to_the_other_input_facing_its_own_cell() -> None:
    """AGGREGATE moves a block to a *different* open input, which may face the cell it stands on: the move the
    list offers re-plugs it there, and the block's present input is never a target (it was, and did nothing)."""
    s = game()
    at(s, P1, "0", "d4", "d5")
    at(s, P1, "0", "c5", "d5")  # d4 and c5 both face c4
    at(s, P1, "3", "c4", "c5")
    offered = [G.format_move(m) for m in G.legal_moves(s, P1) if m.kind == "move" and m.source == parse_cell("c4")]
    assert "move c4 c4" in offered and not any(t.startswith("move c4 c4 from") for t in offered)
    label = G.text.describe_move(s, P1, G.parse_move("move c4 c4"))
    assert "into d4" in label
    after, events = G.apply(s, P1, G.parse_move("move c4 c4"))
    assert after.board[parse_cell("c4")] == Placed("3", P1, parse_cell("d4"))
    circuit = CIRCUITS[G.circuit_of(after, parse_cell("c4"))]
    assert [e.text for e in events if e.kind == "move"] == [f"{{p0}}'s 3 at c4 now plugs into d4 (circuit {circuit})."]
    # `from` naming the other input is the same move; naming the present one is refused in words
    assert G.normalise_move(s, P1, G.parse_move("move c4 c4 from d4")) == G.parse_move("move c4 c4")
    assert play(s, P1, "move c4 c4 from d4").board[parse_cell("c4")] == Placed("3", P1, parse_cell("d4"))
    with pytest.raises(IllegalMoveError, match="plugged into c5 already"):
        play(s, P1, "move c4 c4 from c5")


def test_blind_action_a_module_played_face_up_cannot_be_taken_back() -> None:
    """Undo is refused once a move showed something hidden: in Blind Action, a module played from the hand shows the
    opponent which it was. A block, or a module in the open game, can still be taken back."""
    for blind in (True, False):
        s = game(blind=blind)
        s.hands[P1].append("annihilate")
        after = play(s, P1, "play annihilate d4")
        assert G.view(after, P2)["hands"][P1].count("module") == 0
        assert G.undoable(s, after, P1) is (not blind), blind
        placed = play(s, P1, "play 0 d4")
        assert G.undoable(s, placed, P1), "a block is open in both games"
    # AGGRAVATE's keep sends the other modules back to the hidden supply, named by number only: nothing is shown
    s = game(blind=True)
    s.hands = [["aggravate", "0", "accelerate", "annihilate"], ["0", "2L"]]
    s = play(s, P1, "play aggravate d4")
    for keep in ("keep 0", "keep module1", "keep module2"):
        assert G.undoable(s, play(s, P1, keep), P1), keep


def test_the_last_turn_record_is_one_turn_when_the_other_player_was_stuck() -> None:
    s = game()
    s.supplies[P2] = []
    s.hands[P2] = ["annihilate"]
    s = play(s, P1, "draw 3", "play 0 d4")  # P2 can neither draw nor add power: P1 plays again at once
    assert s.turn == P1 and s.last is not None and s.last.moves == ["draw 3", "play 0 d4"]
    s = play(s, P1, "draw 2L")
    assert s.last is not None and s.last.moves == ["draw 2L"], "the new turn only"
