# Slash commands: the description of the group, each subcommand (`cmd-rummy-<name>`) and
# each option (an attribute named after the option), and the choices a menu offers
# (`choice-<value>`). Command and option NAMES stay English (easy to type, the same in every
# guide); bot/discord_ui/i18n/translator.py gives Discord the other languages' descriptions.
# English here must equal the descriptions in cogs/ (tests/discord_ui/test_i18n.py checks).

cmd-rummy = Indian Rummy (13-card rummy, Paplu).

cmd-rummy-leaderboard = Top players in this server
    .profile = Only this profile's games (default: all profiles)
    .sort = Rank by (default: rating)
    .period = Time window (default: all time)
    .season = Which season (default: the current one, when the server has seasons)
cmd-rummy-stats = A player's rummy stats in this server
    .user = Whose stats (default: yours)
cmd-rummy-history = Recent deals, with hand-history downloads
    .user = Whose deals (default: yours)
cmd-rummy-settings = Server settings (Manage Server only)
    .default_profile = Profile /rummy new uses when none is given
    .turn_timer = Default seconds per turn
    .allow_channel = Add a channel where tables may open (restricts to the list)
    .remove_channel = Remove a channel from the list
    .all_channels = True: tables may open in every channel again (clears the list)
    .card_images = Card images in game messages (players may still pick text only for their own hand)
    .hints = Hint level of new tables when the host names none
    .rated_hints_off = True: only games with hints off move ratings (others play unrated)
    .threads = True: each table plays in its own thread (default); False: in the channel
    .language = Language of new tables' lobby, table and results (default: the server's)
    .season = Seasons: the leaderboard starts afresh weekly or monthly (off: never)
    .time_zone = Time zone whose midnight ends a season, e.g. Asia/Kolkata (default: UTC)
    .season_channel = Channel where a season's final standings are posted
    .end_season = True: end the current season now (its final standings are posted)
    .organiser_role = Members of this role may run tournaments (@everyone: Manage Server only)
cmd-rummy-forget-me = Delete your rummy stats and history in this server
cmd-rummy-season = This season and the last: when they end, who won, your place
cmd-rummy-new = Open a rummy table in this channel
    .profile = Which rules (default: the server's default)
    .seats = Most players at the table
    .turn_timer = Seconds per turn (default: the server's setting)
    .declaration = assisted: Declare only when valid; honor: wrong shows are penalised
    .deals = Number of deals (deals: 2, 3 or 6; classic: any)
    .pool_limit = Pool games: the score at which a player is out
    .target_score = Classic: play until someone reaches this score
    .no_reshuffle = House rule: stock runs out = void deal
    .joker_indicator_doubles = House rule: a joker as indicator doubles payments
    .aces_wild_on_joker = House rule: a joker as indicator makes aces wild
    .nothing_wild = House rule: no wild cards at all
    .one_joker_per_deck = House rule: one printed joker per deck
    .no_packing = House rule: no dropping
    .invite = A private table: mention the players who may join (only they can sit down)
    .hints = What your hand view works out for you (default: the server's setting)
cmd-rummy-join = Sit down at the table in this channel
cmd-rummy-leave = Leave the table (mid-game this is a drop)
cmd-rummy-start = Start the game (host only)
cmd-rummy-cancel = Close the table (host or Manage Server)
cmd-rummy-hand = See your cards (only you can see them)
cmd-rummy-drop = Drop (pack) this deal, before drawing
cmd-rummy-table = Show the table again at the bottom
cmd-rummy-rules = The rules of a profile, from the engine
    .profile = Which rules (default: this table's, or points)
cmd-rummy-help = How to play, and what the buttons do
cmd-rummy-language = The language of your private messages
    .language = Your Discord's language, or one you choose
cmd-rummy-check = Rule on a hand: best arrangement, penalty
    .hand = 13 or 14 cards, e.g. 4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C
    .indicator = The indicator (cut joker) card, e.g. 8D or JK
    .profile = Which rules

choice-rating = Rating
choice-matches_won = Matches won
choice-deals_won = Deals won
choice-net_chips = Net chips
choice-win_rate = Win rate
choice-all = all time
choice-30d = last 30 days
choice-7d = last 7 days
choice-points = points — one deal, chips, 80 cap
choice-pool101 = pool101 — out at 101
choice-pool201 = pool201 — out at 201
choice-deals = deals — fixed number of deals
choice-paplu = paplu — traditional, transfers, no cap
choice-classic = classic — 2-10 players, house rules
choice-assisted = assisted — Declare only when verified
choice-honor = honor — any layout; wrong shows penalised
choice-full = full — arrangement, deadwood and when you can declare
choice-groups = groups — the arrangement only
choice-off = off — no help: cards sorted by suit
choice-auto = Follow my Discord
choice-server = Follow the server's Discord language
