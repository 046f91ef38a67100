"""The bot's one voice for refusals and for what a move did.

The table service raises typed `Refusal`s and returns typed outcomes; this module is the only
place that turns them into the short private sentences players read. Keeping the wording here
means a change of tone is one file, and every command and button answers the same way.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.actions import ActionKind
from bot.table import errors as e
from bot.table.outcomes import AddedAI, Left, Played, Rematch, SeatRemoved, Voted

from .text import card, cost_text


def _listed(values: object) -> str:
    return ", ".join(map(str, values)) if isinstance(values, tuple | list) else str(values)


def _bad_option(exc: e.BadOption) -> str:
    p = exc.params
    texts: dict[str, Callable[[], str]] = {
        "unknown_profile": lambda: str(p["message"]),
        "declaration": lambda: "Declaration mode is assisted or honor.",
        "hints": lambda: f"Hints are {_listed(p['choices'])}.",
        "deals_choices": lambda: f"Deals rummy is played over {_listed(p['choices'])} deals.",
        "no_deals": lambda: f"`{p['profile']}` has no number of deals to choose.",
        "not_pool": lambda: f"`{p['profile']}` is not a pool game.",
        "not_target": lambda: f"Only `classic` plays to a target score, not `{p['profile']}`.",
        "seats": lambda: (
            f"`{p['profile']}` seats {p['low']}–{p['high']} players, not {p['seats']}."
        ),
        "turn_timer": lambda: f"A turn lasts {p['low']}–{p['high']} seconds, not {p['value']}.",
        "rules": lambda: str(p["message"]).capitalize() + ".",
    }
    make = texts.get(exc.problem)
    return make() if make is not None else "Those table options are not allowed."


def _settings_conflict(exc: e.SettingsConflict) -> str:
    channel = exc.params.get("channel")
    texts = {
        "all_and_list": "Use all_channels alone, or allow/remove channels, not both.",
        "allow_and_remove": "Allow and remove the same channel? Pick one.",
        "unknown_profile": "Unknown profile.",
        "unknown_hints": "Hints are full, groups or off.",
        "every_channel_already": (
            "Tables may open in every channel; add one with allow_channel first."
        ),
        "not_on_list": f"<#{channel}> is not on the list.",
        "last_channel": (
            "That is the last channel on the list. "
            "Use all_channels:True to allow every channel instead."
        ),
    }
    return texts.get(exc.problem, "Those settings cannot be changed that way.")


_WHAT = {"join": "join", "add_ai": "add an AI", "start": "start"}


def refusal_text(exc: e.Refusal) -> str:
    """A short sentence for the one user who was refused; nothing changed."""
    match exc:
        case e.NoTableHere():
            return "There is no table in this channel. Open one with `/rummy new`."
        case e.TableClosed():
            return "This table is closed. Start a new one with `/rummy new`."
        case e.WrongPlace():
            return "That table is played in another channel; use the controls there."
        case e.ChannelBusy(in_lobby=in_lobby):
            if in_lobby:
                return (
                    "This channel already has a lobby open: join it, or ask its host "
                    "(or someone with Manage Server) to close it with `/rummy cancel`."
                )
            return (
                "This channel already has a game running. Its host (or someone with Manage "
                "Server) can close it with `/rummy cancel`; or open a table in another channel."
            )
        case e.AlreadySeated():
            return "You are already seated at this table."
        case e.TableFull():
            return "This table is full."
        case e.NotSeated():
            return "You are not seated at this table."
        case e.NotPlaying():
            return "You are not playing at this table, so you have no hand here."
        case e.HostOnly(what="start"):
            return "Only the host can start the game."
        case e.HostOnly(what="add_ai"):
            return "Only the host can add AI players."
        case e.HostOnly():
            return "Only the host can change the seats or hand over hosting."
        case e.SeatedOrManagerOnly():
            return "Only the players at this table (or someone with Manage Server) can do that."
        case e.TooSoon(wait=wait):
            return f"The table was just posted again; try in {wait} s."
        case e.DropNotAllowed(reason=reason):
            return {
                "rules": "This table plays without dropping (a house rule).",
                "out": "You hold no cards in this deal, so there is nothing to drop.",
                "turn": "You can drop only on your own turn, before you draw.",
                "drawn": "You have drawn already: a drop is only allowed before drawing. "
                "Discard a card (or declare) instead.",
            }.get(reason, "You cannot drop right now.")
        case e.HostOrManagerOnly():
            return "Only the host or a server manager can cancel this table."
        case e.AlreadyStarted(what=what):
            return f"The game has already started; you cannot {_WHAT.get(what, what)} now."
        case e.NotStarted():
            return "The game has not started yet."
        case e.NotEnoughPlayers(profile=profile, minimum=minimum):
            return f"`{profile}` needs at least {minimum} players (invite someone, or add an AI)."
        case e.UnknownTier():
            return "Choose an AI tier from the menu."
        case e.AlreadyLeft():
            return "You have already left this match."
        case e.NotYourControls():
            return (
                "Those controls belong to someone else's hand. "
                "Press “Your hand” on the table to see yours."
            )
        case e.StaleView():
            return (
                "The table has moved on since that view was shown, so nothing was played. "
                "Here is your hand as it is now."
            )
        case e.UnknownAction():
            return "That button is not recognised."
        case e.ChooseCard():
            return "Choose a card first."
        case e.NoDealWaiting():
            return "There is no deal waiting to start."
        case e.OldNextDeal(deal_number=n):
            return f"That button is from deal {n}'s results: the deal after it has started."
        case e.NotInMatch():
            return "Only players still in the match can start the next deal."
        case e.NotInDeal():
            return "You did not play that deal, so there is no play of yours to review."
        case e.ReviewGone():
            return "That deal is no longer kept for review (reviews last until the bot restarts)."
        case e.RuleRefused(error=error):
            return error.message
        case e.SaveFailed():
            return "Could not save that move, so it did not happen. Try again."
        case e.BadOption():
            return _bad_option(exc)
        case e.BadBoard():
            return "That leaderboard does not exist; run `/rummy leaderboard` again."
        case e.HistoryPlayersOnly():
            return "Only the players of a deal (and server managers) can download its hand history."
        case e.DealGone():
            return "That deal is no longer available."
        case e.SettingsConflict():
            return _settings_conflict(exc)
        case e.NotInvited():
            return "This is a private table: only the players its host invited can sit down."
        case e.NoSuchSeat():
            return "That seat is not at the table any more."
        case e.NotAtLastTable():
            return "Only the players of that match can start its rematch; open your own table."

    return "That is not possible right now."


def played_text(played: Played, name: str) -> str:
    """The private confirmation of a move."""
    k = played.kind
    if k is ActionKind.DRAW_STOCK:
        return f"You drew {card(played.card)}." if played.card else "You drew from the stock."
    if k is ActionKind.TAKE_DISCARD:
        return f"You took {card(played.card)}."
    if k is ActionKind.DISCARD:
        return f"You discarded {card(played.card)}."
    if k is ActionKind.DROP:
        return f"You dropped ({cost_text(played.cost, played.chips)})."
    if played.declared:
        return "You declared! 🎉 Your winning hand is below; the results are on the table."
    return "Your show was not valid: see below why, and what it costs."


def left_text(left: Left) -> str:
    if left.closed:
        return "You left, and nobody else was seated: the table is closed."
    if left.in_match:
        return "You left the match; it counts as a drop for this deal."
    return "You left the table."


def voted_text(voted: Voted) -> str:
    return "Next deal!" if voted.started else "You are ready; waiting for the others."


def added_ai_text(added: AddedAI) -> str:
    article = "an" if added.tier[:1].lower() in "aeiou" else "a"
    return f"Added {article} {added.tier} AI player ({added.name})."


def seat_removed_text(removed: SeatRemoved) -> str:
    return f"Removed {removed.name} from the table."


def host_handed_text(name: str) -> str:
    return f"{name} is the host now."


def rematch_text(rematch: Rematch) -> str:
    if rematch.opened:
        return "A new table with the same rules is open below; the others can press Play again."
    return "You took a seat at the new table."
