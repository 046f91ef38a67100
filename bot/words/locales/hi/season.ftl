# सीज़न: सर्वर का लीडरबोर्ड जो हर हफ़्ते या हर महीने नए सिरे से शुरू होता है
# (bot/table/season.py, bot/discord_ui/screens/season.py, cogs/season.py, और /rummy settings व
# /rummy leaderboard के सीज़न वाले हिस्से)। $number सीज़न की संख्या है; $start और $end यूनिक्स
# सेकंड हैं, Discord टाइमस्टैम्प के रूप में लिखे (हर पढ़ने वाला उन्हें अपने समय और भाषा में
# देखता है); $date ISO तारीख़ है (2025-03-17) जहाँ Discord टाइमस्टैम्प नहीं दिखाता; $zone IANA
# टाइम ज़ोन का नाम है (Asia/Kolkata), $channel चैनल की आईडी जो उसके मेंशन के रूप में दिखती है।

season-name = सीज़न { $number }
season-cadence = { $cadence ->
        [weekly] साप्ताहिक
       *[monthly] मासिक
    }

# सीज़न के लीडरबोर्ड में खिलाड़ियों के ऊपर की पंक्ति।
season-board-open = { $name } ({ $cadence }) <t:{ $start }:d> को शुरू हुआ और <t:{ $end }:R> ख़त्म होगा। सीज़न रेटिंग: सब बराबर से शुरू करते हैं।
season-board-closed = { $name } ({ $cadence }), <t:{ $start }:d> – <t:{ $end }:d>: अंतिम स्थिति।

# सीज़न ख़त्म होने पर सर्वर के सीज़न चैनल में भेजा जाने वाला संदेश।
season-final-title = { $name } ख़त्म हुआ!
season-final-ended = { $ended ->
        [manager] एक मैनेजर ने इसे <t:{ $end }:f> को पहले ही ख़त्म कर दिया; यह <t:{ $start }:d> को शुरू हुआ था।
        [off] सीज़न बंद किए जाने पर <t:{ $end }:f> को ख़त्म हुआ; यह <t:{ $start }:d> को शुरू हुआ था।
       *[boundary] <t:{ $start }:d> से <t:{ $end }:f> तक।
    }
season-final-champion = 🏆 चैंपियन: **{ $names }**। बधाई हो!
season-final-no-champion = इस सीज़न में किसी ने रेटिंग वाला मैच नहीं खेला (उसके लिए टेबल पर दो लोग चाहिए), इसलिए कोई चैंपियन नहीं।
season-final-standings = अंतिम स्थिति (सीज़न रेटिंग)
season-final-ranked = { $ranked ->
        [one] { $ranked } खिलाड़ी की रैंक
       *[other] { $ranked } खिलाड़ियों की रैंक
    }
# अंतिम संदेश की पहचान (उसका फ़ुटर): रीस्टार्ट के बाद बॉट इसे ढूँढता है, ताकि संदेश दो बार न जाए।
season-key = सीज़न { $number } · अंतिम स्थिति

# /rummy season (सिर्फ़ आपको दिखने वाला जवाब)।
season-overview-title = इस सर्वर के सीज़न
season-overview-off = इस सर्वर में सीज़न नहीं हैं: इसका लीडरबोर्ड शुरू से अब तक का है। कोई मैनेजर `/rummy settings season:weekly` (या monthly) से सीज़न शुरू कर सकता है।
season-overview-stopped = सीज़न अभी बंद हैं; पिछला सीज़न नीचे है।
season-overview-now = यह सीज़न
season-overview-current = **{ $name }** ({ $cadence }) <t:{ $end }:f> (<t:{ $end }:R>) को ख़त्म होगा।
season-overview-place = अब तक आप { $total } में से **#{ $rank }** हैं (सीज़न रेटिंग { $value })।
season-overview-unplaced = इसमें अभी आपका कोई रेटिंग वाला मैच नहीं है: रैंक पाने के लिए एक खेलें।
season-overview-before = पिछला सीज़न
season-overview-last = **{ $name }** <t:{ $end }:f> को ख़त्म हुआ।
season-overview-champions = चैंपियन: { $names }
season-overview-final-place = आप { $total } में से **#{ $rank }** पर रहे (सीज़न रेटिंग { $value })।
season-overview-not-in-last = उसमें आपकी रैंक नहीं थी।
season-overview-footer = किसी भी सीज़न का पूरा लीडरबोर्ड: /rummy leaderboard season:

# /rummy settings का सीज़न वाला हिस्सा।
season-settings-field = सीज़न
season-settings-off = बंद: शुरू से अब तक का एक ही लीडरबोर्ड
season-settings-plan = { $plan ->
        [weekly] साप्ताहिक, सोमवार 00:00 बजे ख़त्म
       *[monthly] मासिक, हर महीने की 1 तारीख़ को 00:00 बजे ख़त्म
    } ({ $zone } का समय)
season-settings-now = { $name } <t:{ $end }:f> को ख़त्म होगा
season-settings-channel = अंतिम स्थिति <#{ $channel }> में भेजी जाती है
season-settings-no-channel = अंतिम स्थिति कहीं नहीं भेजी जाती: season_channel: से कोई चैनल चुनें

# सेटिंग के बदलाव ने सीज़न के साथ क्या किया।
season-changed-plan = { $plan ->
        [weekly] सीज़न: साप्ताहिक (हर सोमवार 00:00 बजे नया)
        [monthly] सीज़न: मासिक (हर महीने की 1 तारीख़ को 00:00 बजे नया)
       *[off] सीज़न: बंद (शुरू से अब तक का एक ही लीडरबोर्ड)
    }
season-changed-zone = सीज़न { $zone } के समय से आधी रात को ख़त्म होंगे
season-changed-channel = सीज़न की स्थिति <#{ $channel }> में भेजी जाएगी
season-changed-started = { $name } शुरू हुआ; यह <t:{ $end }:f> को ख़त्म होगा
season-changed-ended = { $name } ख़त्म हुआ (कोई सीज़न चैनल नहीं है, इसलिए स्थिति नहीं भेजी गई)
season-changed-ended-posted = { $name } ख़त्म हुआ; इसकी अंतिम स्थिति <#{ $channel }> में भेजी जा रही है
season-changed-replanned = { $name } अब <t:{ $end }:f> को ख़त्म होगा

# /rummy leaderboard season: का मेन्यू।
season-pick-current = मौजूदा सीज़न ({ $name })
season-pick-all = शुरू से अब तक
season-pick-past = { $name } ({ $cadence }, { $date } को ख़त्म)

# ग़लत इनपुट (सिर्फ़ आपको दिखने वाले जवाब; कुछ नहीं बदलता)।
settings-unknown-season = सीज़न weekly, monthly या off ही हो सकते हैं।
settings-unknown-time-zone = “{ $zone }” कोई ऐसा टाइम ज़ोन नहीं जिसे मैं जानता हूँ। सूची से एक चुनें (भारत: Asia/Kolkata)।
settings-no-season = ख़त्म करने को कोई सीज़न नहीं है: सीज़न बंद हैं। season:weekly या season:monthly से शुरू करें।
error-season-and-period = सीज़न या अवधि में से एक चुनें, दोनों नहीं: सीज़न की अपनी समय-सीमा होती है।
error-unknown-season = “{ $season }” नाम का कोई सीज़न नहीं है। सूची से एक चुनें, या मौजूदा सीज़न के लिए इसे ख़ाली छोड़ें।
error-season-channel = मैं <#{ $channel }> में नहीं लिख सकता: वहाँ मुझे Send Messages और Embed Links की अनुमति दें, या कोई और चैनल चुनें।
