# लीडरबोर्ड, /rummy stats, /rummy history, /rummy settings और /rummy forget-me
# (bot/discord_ui/render/stats.py, cogs/stats.py)। नाम, प्रोफ़ाइल कोड (points, pool101),
# टेबल आईडी और हिंट स्तर (full, groups, off) जैसे हैं वैसे ही आते हैं। रकम ($value, $net,
# $best, ...) पहले से लिखी आती है ("+7½", "-40"); गिनती संख्या है, भारतीय ढंग से (12,34,567)।

# ---- संख्याएँ ----------------------------------------------------------------------------

stats-number = { $n }
stats-rating-value = { NUMBER($value, minimumFractionDigits: 1, maximumFractionDigits: 1) }
stats-rate-value = { NUMBER($value, style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1) }
stats-win-pct = { NUMBER($rate, style: "percent", maximumFractionDigits: 0) }
stats-no-rate = —

# ---- लीडरबोर्ड ----------------------------------------------------------------------------

stats-sort = { $sort ->
        [rating] रेटिंग
        [matches_won] जीते मैच
        [deals_won] जीती बाज़ियाँ
        [net_chips] कुल चिप्स
       *[win_rate] जीत की दर
    }
stats-period-all = शुरू से अब तक
stats-period-30d = पिछले 30 दिन
stats-period-7d = पिछले 7 दिन
stats-all-profiles = सभी प्रोफ़ाइल
stats-board-title = लीडरबोर्ड — { $sort } · { $profile } · { $period }
stats-board-line = **{ $rank }.** { $name } — { $value } ({ $games })
stats-board-me = { $line } ◀ आप
stats-games-rated = { $n ->
        [one] { $n } रेटिंग वाला मैच
       *[other] { $n } रेटिंग वाले मैच
    }
stats-games-matches = { $n ->
        [one] { $n } मैच
       *[other] { $n } मैच
    }
stats-games-deals = { $n ->
        [one] { $n } बाज़ी
       *[other] { $n } बाज़ियाँ
    }
stats-board-empty = अभी यहाँ किसी की रैंक नहीं है।
stats-board-empty-page = इस पेज पर कोई खिलाड़ी नहीं है।
stats-your-rank = आपकी रैंक
stats-own-rank = { $total } में से **#{ $rank }** — { $value } ({ $games })
stats-own-unranked = आप अभी इस लीडरबोर्ड पर नहीं हैं: रैंक पाने के लिए एक बाज़ी खेलें।
stats-own-unranked-rate = यहाँ अभी आपकी रैंक नहीं है (इस अवधि में { $min ->
        [one] { $min } बाज़ी
       *[other] { $min } बाज़ियाँ
    } चाहिए)।
stats-board-page = पेज { $page }
stats-board-page-of = { $pages } में से पेज { $page }
stats-board-min-deals = कम से कम { $min ->
        [one] { $min } बाज़ी
       *[other] { $min } बाज़ियाँ
    }
stats-board-rating-rule = रेटिंग = μ − 3σ
stats-board-previous = ◀ पिछला
stats-board-next = अगला ▶

# ---- खिलाड़ी के आँकड़े ---------------------------------------------------------------------

stats-title = रमी आँकड़े — { $name }
stats-unknown-player = (अनजान)
stats-overall = कुल रेटिंग: { $rating }
stats-trend = रुझान: { $spark }
stats-no-games = इस सर्वर में अभी कोई खेल दर्ज नहीं है।
stats-unrated = अभी रेटिंग नहीं
stats-trend-steady = { $ordinal } (स्थिर)
stats-trend-up = { $ordinal } (हाल में ▲ { NUMBER($change, minimumFractionDigits: 1, maximumFractionDigits: 1) })
stats-trend-down = { $ordinal } (हाल में ▼ { NUMBER($change, minimumFractionDigits: 1, maximumFractionDigits: 1) })
stats-rating = { $head } · μ { NUMBER($mu, minimumFractionDigits: 1, maximumFractionDigits: 1) }, σ { NUMBER($sigma, minimumFractionDigits: 1, maximumFractionDigits: 1) } · { $matches ->
        [one] { $matches } रेटिंग वाला मैच
       *[other] { $matches } रेटिंग वाले मैच
    }
stats-matches = मैच: { $played } खेले, { $won } जीते ({ $pct })
stats-deals = बाज़ियाँ: { $played } खेलीं, { $won } जीतीं ({ $pct })
stats-avg-penalty = हारने पर औसत अंक: { $value }
stats-drops = ड्रॉप: शुरू में { $first }, बीच में { $middle } · ग़लत शो: { $wrong }
stats-best-worst = सबसे अच्छी बाज़ी { $best } · सबसे बुरी बाज़ी { $worst }
stats-net = कुल चिप्स: { $net }
stats-rating-line = रेटिंग: { $rating }

# ---- इतिहास -------------------------------------------------------------------------------

stats-history-title = हाल की बाज़ियाँ — { $name }
stats-history-empty = इस सर्वर में अभी कोई बाज़ी दर्ज नहीं है।
stats-history-footer = नीचे कोई बाज़ी चुनें और उसकी हैंड-हिस्ट्री (JSON) डाउनलोड करें।
stats-history-placeholder = किसी बाज़ी की हैंड-हिस्ट्री डाउनलोड करें…
stats-deal-title = { $profile } · टेबल { $table } · बाज़ी { $deal }
stats-outcome = { $outcome ->
        [won] जीत
        [lost] हार
        [dropped_first] ड्रॉप (शुरू में)
        [dropped_middle] ड्रॉप (बीच में)
        [invalid_declaration] ग़लत शो
       *[void] रद्द
    }
stats-score-won = { $chips } { $n ->
        [one] चिप
       *[other] चिप्स
    } जीते
stats-score-lost = { $chips } { $n ->
        [one] चिप
       *[other] चिप्स
    } हारे
stats-score-points = { $points } { $n ->
        [one] अंक
       *[other] अंक
    }
stats-score-even = ±0
stats-hints-note = { $hints ->
        [groups] हिंट: सिर्फ़ जमावट
       *[off] हिंट बंद
    }
stats-history-line = <t:{ $time }:f> — { $deal } — **{ $result }**{ $score }{ $hints }
stats-history-option = { $result }{ $score } · { $time }
stats-hand-history-caption = टेबल { $table }, बाज़ी { $deal } की हैंड-हिस्ट्री।

# ---- सर्वर की सेटिंग ---------------------------------------------------------------------

stats-settings-title = इस सर्वर की रमी सेटिंग
stats-settings-profile = पहले से चुनी प्रोफ़ाइल
stats-settings-timer = बारी का समय
stats-seconds = { $seconds } सेकंड
stats-settings-channels = टेबल कहाँ खुल सकती हैं
stats-every-channel = हर चैनल में
stats-settings-images = पत्तों की तस्वीरें
stats-images-on = चालू (खिलाड़ी अपने हाथ के लिए सिर्फ़ टेक्स्ट चुन सकते हैं)
stats-images-off = बंद: सिर्फ़ टेक्स्ट (खिलाड़ी अपने हाथ के लिए तस्वीरें चालू कर सकते हैं)
stats-settings-hints = हिंट
stats-hints-at-new = नई टेबलों पर { $level } ({ $words })
stats-rated-hints-off = रेटिंग वाले खेल: सिर्फ़ बिना हिंट के; हिंट वाली टेबल बिना रेटिंग के खेली जाती है
stats-rated-any = रेटिंग वाले खेल: कोई भी हिंट स्तर
stats-settings-threads = टेबल कहाँ खेली जाती है
stats-threads-on = अपने अलग थ्रेड में (लॉबी चैनल में ही रहती है)
stats-threads-off = चैनल में ही
stats-settings-footer = /rummy settings के विकल्पों से बदलें (सिर्फ़ Manage Server वाले)।

stats-changed-profile = पहले से चुनी प्रोफ़ाइल: { $profile }
stats-changed-timer = बारी का समय: { $seconds } सेकंड
stats-changed-all-channels = टेबल हर चैनल में खुल सकती हैं
stats-changed-allowed = टेबल <#{ $channel }> में खुल सकती हैं
stats-changed-removed = टेबल अब <#{ $channel }> में नहीं खुलेंगी
stats-changed-images-on = पत्तों की तस्वीरें: चालू
stats-changed-images-off = पत्तों की तस्वीरें: बंद (सिर्फ़ टेक्स्ट)
stats-changed-hints = नई टेबलों पर हिंट: { $level } ({ $words })
stats-changed-rated-off = रेटिंग वाले खेल: सिर्फ़ बिना हिंट के (हिंट वाली टेबल बिना रेटिंग के खेली जाती है)
stats-changed-threads-on = टेबल अपने अलग थ्रेड में खेली जाएगी
stats-changed-threads-off = टेबल चैनल में ही खेली जाएगी

# ---- forget-me ---------------------------------------------------------------------------

stats-forget-prompt = इससे इस सर्वर में **आपके** रमी आँकड़े, रेटिंग और रेटिंग का इतिहास मिट जाएगा, और पिछले खेलों के बारे में बॉट ने जो कुछ रखा है (नतीजे, हैंड-हिस्ट्री फ़ाइलें, सहेजी टेबलें और उनके लॉग, टूर्नामेंट और उनके रिकॉर्ड), उन सबसे आपका नाम और Discord आईडी हटा दिए जाएँगे। दूसरे खिलाड़ियों के नतीजे बने रहेंगे, उनमें आप “forgotten player” नाम से दिखेंगे। यह वापस नहीं होगा। चैनलों में पहले से भेजे गए संदेश नहीं बदलेंगे। अगर आप यहाँ किसी चलते खेल में या किसी खुले टूर्नामेंट में हैं, तो पहले उसे पूरा करें।
stats-forget-done = हो गया: इस सर्वर में आपके आँकड़े, रेटिंग और रेटिंग का इतिहास मिटा दिए गए, और बॉट के रखे नतीजों, हैंड-हिस्ट्री और टेबलों से आपका नाम और आईडी हटा दिए गए।
stats-forget-playing = कुछ नहीं मिटाया गया: आप इस सर्वर में एक चलते खेल या टूर्नामेंट में हैं (या उसमें रजिस्टर हैं)। उसके ख़त्म होने के बाद /rummy forget-me फिर चलाएँ।
stats-forget-cancelled = रद्द किया: कुछ नहीं मिटाया गया।
stats-forget-expired = यह पुष्टि पुरानी हो गई; कुछ नहीं मिटाया गया। /rummy forget-me फिर चलाएँ।
stats-forget-yes = मेरे आँकड़े मिटाएँ
stats-forget-no = रद्द करें

# नई टेबलों के सार्वजनिक संदेशों की भाषा।
stats-settings-language = टेबल की भाषा
stats-language-server = { $language } (सर्वर की Discord भाषा)
stats-changed-language = नई टेबलें { $language } में होंगी
stats-changed-language-server = नई टेबलें सर्वर की Discord भाषा में होंगी
