"""The pictures' words in the viewer's language, and the sample gallery in every language.

`bot.images` draws whatever captions it is handed and holds no words of its own; this is
where they come from: `captions(locale)` words every caption from the catalogue
(`locales/*/pictures.ftl`) as a `bot.images.Captions`. The hand picture takes its owner's
private language, the table and results pictures the language of the server's public
messages.

The layout fills in numbers and names after the catalogue (it knows the deadwood, the names,
the stock), so a message's variables are worded here as `str.format` slots (`{deadwood}`)
that the layout fills: the catalogue still owns the sentence and where each value sits in it.

`python -m bot.words.pictures gallery --out DIR` writes the sample pictures in every
catalogue language; `... palette` learns the PNG palette again (see `bot.images.paint`).
This module imports no `discord`, so the commands run without it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import cache
from pathlib import Path

from bot.images.captions import OUT_CODES, Captions
from bot.table.vocabulary import Locale

from .catalogue import SOURCE, catalogue, text


def captions(locale: Locale | None = None) -> Captions:
    """The pictures' captions for a Discord locale (or a catalogue tag; None: English)."""
    return _captions(catalogue().resolve(locale))


@cache
def _captions(tag: str) -> Captions:
    def say(msg_id: str, *slots: str) -> str:
        return text(tag, msg_id, **{slot: "{" + slot + "}" for slot in slots})

    return Captions(
        tag=tag,
        kind_pure=say("pic-kind-pure"),
        kind_impure=say("pic-kind-impure"),
        kind_set=say("pic-kind-set"),
        part_wild=say("pic-part-wild"),
        part_pairs=say("pic-part-pairs"),
        part_near_runs=say("pic-part-near-runs"),
        part_nothing=say("pic-part-nothing"),
        part_unmatched=say("pic-part-unmatched"),
        suit_spades=say("pic-suit-spades"),
        suit_hearts=say("pic-suit-hearts"),
        suit_diamonds=say("pic-suit-diamonds"),
        suit_clubs=say("pic-suit-clubs"),
        suit_jokers=say("pic-suit-jokers"),
        no_cards=say("pic-no-cards"),
        by_suit=say("pic-by-suit"),
        your_groups=say("pic-your-groups"),
        best_discard=say("pic-best-discard", "deadwood"),
        can_declare=say("pic-can-declare"),
        deadwood_now=say("pic-deadwood-now", "deadwood"),
        deadwood=say("pic-deadwood", "deadwood"),
        tag_taken=say("pic-tag-taken"),
        tag_new_discard=say("pic-tag-new-discard"),
        tag_new=say("pic-tag-new"),
        tag_discard=say("pic-tag-discard"),
        nothing_wild=say("pic-nothing-wild"),
        jokers_wild=say("pic-jokers-wild"),
        wild_rank=say("pic-wild-rank", "rank"),
        wild_and_jokers=say("pic-wild-and-jokers"),
        variant_fallback=say("pic-variant-fallback"),
        title_deal=say("pic-title-deal", "variant", "deal"),
        title_over=say("pic-title-over", "variant"),
        turn=say("pic-turn", "name"),
        match_over=say("pic-match-over"),
        between_deals=say("pic-between-deals"),
        indicator=say("pic-indicator"),
        discards=say("pic-discards"),
        pile_start=say("pic-pile-start"),
        taken_by=say("pic-taken-by"),
        plate_score=say("pic-plate-score", "score"),
        seat=say("pic-seat", "seat"),
        dealer_mark=say("pic-dealer-mark"),
        status={
            "dropped": say("pic-status-dropped"),
            "out": say("pic-status-out"),
            "eliminated": say("pic-status-eliminated"),
            "left": say("pic-status-left"),
        },
        result_title=say("pic-result-title", "deal"),
        void=say("pic-void"),
        declared=say("pic-declared", "name"),
        hand_rummy=say("pic-hand-rummy", "name"),
        last_standing=say("pic-last-standing", "name"),
        won=say("pic-won", "name"),
        pays=say("pic-pays", "amount"),
        basis=_basis(say),
        charge_base=say("pic-charge-base", "basis", "base"),
        wins=say("pic-wins"),
        score_delta=say("pic-score-delta", "delta"),
        winner_mark=say("pic-winner-mark"),
        out={
            **{code: words for code, words in _basis(say).items() if code in OUT_CODES},
            "dropped": say("pic-out-dropped"),
            "out": say("pic-out-out"),
            "eliminated": say("pic-out-eliminated"),
            "left": say("pic-out-left"),
        },
    )


def _basis(say: Callable[[str], str]) -> dict[str, str]:
    """What a loser pays on, per `Charge.basis` (the ids are the codes, dashed)."""
    ids = {
        "deadwood": "pic-basis-deadwood",
        "first_drop": "pic-basis-first-drop",
        "middle_drop": "pic-basis-middle-drop",
        "wrong_show": "pic-basis-wrong-show",
        "wrong_show_drop": "pic-basis-wrong-show-drop",
        "hand_rummy_dropped": "pic-basis-hand-rummy-dropped",
    }
    return {code: say(msg_id) for code, msg_id in ids.items()}


def main(argv: list[str] | None = None) -> int:
    """`gallery --out DIR [--format png|webp]`: the sample pictures in every language;
    `palette`: learn the PNG palette from the art again and write it (`bot/images/palette.hex`);
    run it after changing the art's colours."""
    from bot.images import gallery, paint

    parser = argparse.ArgumentParser(prog="python -m bot.words.pictures")
    sub = parser.add_subparsers(dest="command", required=True)
    gal = sub.add_parser("gallery", help="write sample hand, table and results pictures")
    gal.add_argument("--out", type=Path, required=True, help="directory to write into")
    gal.add_argument("--format", choices=("png", "webp"), default="png")
    sub.add_parser("palette", help="learn the PNG palette from the art and write it")
    args = parser.parse_args(argv)
    if args.command == "palette":
        path = Path(paint.__file__).with_name(paint.PALETTE_FILE)
        path.write_text(paint.palette_text(paint.learn_palette(captions(SOURCE))))
        print(path)
        return 0
    languages: dict[str, Captions] = {tag: captions(tag) for tag in catalogue().locales}
    for path in gallery.write_gallery(args.out, languages, args.format):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
