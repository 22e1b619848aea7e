"""Text in the pictures: names in any script, set per glyph in the first face that has it (``data/fonts``)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from render.common import (
    END_ISOLATE,
    FACES,
    ISOLATE,
    Glyphs,
    _font,
    clean_name,
    clean_text,
    face_of,
    fit_text,
    runs,
    seat_names,
    text_label,
    text_width,
    visual_runs,
    wrap_text,
)

NAMES = {
    "Latin with accents": "Zoë Åström",
    "Cyrillic": "Мария",
    "Greek": "Ελένη",
    "Chinese": "李小龙",
    "Japanese": "山田たろう",
    "Korean": "김민준",
    "Arabic": "محمد",
    "Hebrew": "נועה",
    "Devanagari": "देवी",
    "Thai": "สมชาย",
}


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_a_name_in_any_script_is_kept_whole(name: str) -> None:
    assert clean_name(name, "Player 5") == name
    assert seat_names(["x", name], 2)[1].strip(ISOLATE + END_ISOLATE) == name


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_every_character_is_drawn_from_a_face_that_has_it(name: str) -> None:
    for ch in name.replace(" ", ""):
        index = face_of(ch)
        assert index is not None, ch
        f = _font(index, 40, False)
        missing = f.getmask("\U0010fff0")  # an unassigned code point: the face's .notdef box
        mask = f.getmask(ch)
        assert (bytes(mask), mask.size) != (bytes(missing), missing.size), (ch, FACES[index].file)


def test_a_mixed_name_is_split_into_runs_by_face() -> None:
    parts = runs("Zoë 山田")
    assert [text for _, text in parts] == ["Zoë ", "山田"]
    assert parts[0][0] != parts[1][0]
    assert text_width("Zoë 山田", 20) == pytest.approx(sum(_font(i, 20, False).getlength(t) for i, t in parts))


def test_emoji_and_controls_are_dropped_cleanly() -> None:
    assert clean_name("🎲 Dicey", "Player 2") == "Dicey"
    assert clean_name("🎲🎲", "Player 2") == "Player 2"
    assert clean_name("Ann\u200b\u0007ie ❤️", "P1") == "Annie"
    assert clean_name("  Bob   the   Builder ", "P1") == "Bob the Builder"
    assert clean_name("", "Player 3") == "Player 3"
    assert clean_text("\U0010fff0abc") == "abc"  # a code point no face has, and no letter: gone


def _ink(label_image: Image.Image) -> bytes:
    return label_image.getchannel("A").tobytes()


def test_a_name_draws_differently_from_the_fallback_and_from_missing_glyphs() -> None:
    for name in NAMES.values():
        drawn = text_label(name, 24, (0, 0, 0)).image
        assert drawn.getchannel("A").getbbox() is not None  # something was drawn
        assert _ink(drawn) != _ink(text_label("Player 5", 24, (0, 0, 0)).image)


def test_the_bold_exclamation_mark_is_not_an_i() -> None:
    """The old font's stroked '!' read as 'I' ("BLOCKERSI", "GOI")."""
    bang = text_label("!", 36, (0, 0, 0), bold=True).image
    eye = text_label("I", 36, (0, 0, 0), bold=True).image
    assert bang.size != eye.size or ImageChops.difference(bang, eye).getbbox() is not None
    column = bang.getchannel("A").crop(bang.getchannel("A").getbbox())
    rows_with_ink = [any(column.getpixel((x, y)) > 128 for x in range(column.width)) for y in range(column.height)]
    assert False in rows_with_ink  # the gap between the bar and the dot


def test_glyphs_set_other_scripts_as_a_whole_string() -> None:
    face = Glyphs(22, (255, 255, 255), bold=True)
    img = Image.new("RGBA", (400, 60))
    for name in NAMES.values():
        box = face.paste(img, (10, 30), name)
        assert box[2] - box[0] == pytest.approx(face.width(name), abs=1)
    assert face.fit("محمد محمد محمد محمد", 60).endswith("…")


RTL_CASES = {
    # text: the runs as set from the left (text, right to left)
    "محمد wins 3-2-2": [("محمد", True), (" wins 3-2-2", False)],
    "محمد -2": [("محمد", True), (" -2", False)],
    "محمد to play": [("محمد", True), (" to play", False)],
    "Winner: נועה כהן (12)": [("Winner: ", False), ("נועה כהן", True), (" (12)", False)],
    "أحمد 2 علي": [("أحمد 2 علي", True)],  # a number inside a name stays inside it
    "Zoë, محمد and נועה": [("Zoë, ", False), ("محمد", True), (" and ", False), ("נועה", True)],
    # two names side by side, each marked as a piece of its own (seat_names does it): their order is kept
    "Waiting for \u2068محمد\u2069, \u2068נועה\u2069 & Bo": [("Waiting for ", False), ("محمد", True), (", ", False),
                                                        ("נועה", True), (" & Bo", False)],
}


@pytest.mark.parametrize("text", RTL_CASES, ids=range(len(RTL_CASES)))
def test_a_right_to_left_name_keeps_its_spaces_and_the_order_around_it(text: str) -> None:
    merged: list[tuple[str, bool]] = []
    for _, part, back in visual_runs(text):  # faces may split a stretch (digits in a name): compare stretches
        if merged and merged[-1][1] == back:
            merged[-1] = (merged[-1][0] + part, back)
        else:
            merged.append((part, back))
    assert _same_text(merged, RTL_CASES[text])
    assert text_width(text, 20) == pytest.approx(sum(_font(i, 20, False).getlength(t) for i, t, _ in visual_runs(text)))


def _same_text(got: list[tuple[str, bool]], want: list[tuple[str, bool]]) -> bool:
    """Stretches equal as multisets of characters (a right-to-left stretch outside a shaped face is reversed)."""
    return [(sorted(p), b) for p, b in got] == [(sorted(p), b) for p, b in want]


def _ink_columns(image: Image.Image) -> list[int]:
    alpha = image.getchannel("A")
    return [x for x in range(alpha.width) if alpha.crop((x, 0, x + 1, alpha.height)).getbbox()]


def test_the_space_after_a_right_to_left_name_is_seen_in_the_picture() -> None:
    size = 40
    label = text_label("محمد wins", size, (0, 0, 0))
    name_only = text_label("محمد", size, (0, 0, 0))
    cols = _ink_columns(label.image)
    name_end = max(_ink_columns(name_only.image))
    after = [x for x in cols if x > name_end]
    assert after, "nothing drawn after the name"
    gap = min(after) - name_end
    assert gap >= text_width(" ", size) * 0.8, f"the name runs into the next word (gap {gap} px)"
    # and the name is on the left, where it is read first
    assert cols[0] <= name_end


def test_the_isolation_marks_take_no_room_and_are_not_drawn() -> None:
    name = seat_names(["محمد"], 1)[0]
    assert name.startswith(ISOLATE) and name.endswith(END_ISOLATE)
    assert text_width(name + " wins", 30) == text_width("محمد wins", 30)
    assert seat_names(["Ann"], 1) == ["Ann"]  # only a name with right-to-left letters is marked
    plain, marked = text_label("محمد wins", 30, (0, 0, 0)), text_label(name + " wins", 30, (0, 0, 0))
    assert plain.image.tobytes() == marked.image.tobytes()


def test_wrapped_lines_fit_and_keep_every_word_unless_cut() -> None:
    text = "Workers start in Global Shipping & Receiving Center, then move two blocs"
    lines = wrap_text(text, 20, 200)
    assert " ".join(lines) == text and all(text_width(x, 20) <= 200 for x in lines) and len(lines) > 2
    two = wrap_text(text, 20, 200, lines=2)
    assert len(two) == 2 and two[0] == lines[0] and two[1].endswith("…")
    assert wrap_text("Supercalifragilistic", 20, 60) == [fit_text("Supercalifragilistic", 20, 60)]
    assert wrap_text("", 20, 100) == [] and wrap_text("one", 20, 100, lines=3) == ["one"]
