# मना करने के जवाब: सिर्फ़ उसी खिलाड़ी को, जिसकी बात नहीं मानी गई। कुछ नहीं बदला।
# Words: see ../../glossary.md (बाज़ी = deal, बारी = turn, पत्ता = card, ड्रॉप, डिक्लेयर).

refusal-no-table-here = इस चैनल में कोई टेबल नहीं है। `/rummy new` से नई टेबल खोलें।
refusal-table-closed = यह टेबल बंद हो चुकी है। `/rummy new` से नई टेबल शुरू करें।
refusal-wrong-place = यह टेबल किसी दूसरे चैनल में चल रही है; वहीं के बटन इस्तेमाल करें।
refusal-channel-busy-lobby = इस चैनल में पहले से एक लॉबी खुली है: उसमें शामिल हों, या उसके होस्ट (या Manage Server वाले किसी व्यक्ति) से `/rummy cancel` से बंद करवाएँ।
refusal-channel-busy-game = इस चैनल में पहले से एक खेल चल रहा है। उसका होस्ट (या Manage Server वाला कोई व्यक्ति) `/rummy cancel` से उसे बंद कर सकता है; या किसी दूसरे चैनल में टेबल खोलें।
refusal-already-seated = आप इस टेबल पर पहले से बैठे हैं।
refusal-table-full = यह टेबल भर चुकी है।
refusal-not-seated = आप इस टेबल पर नहीं बैठे हैं।
refusal-not-playing = आप इस टेबल पर नहीं खेल रहे, इसलिए यहाँ आपका कोई हाथ नहीं है।
refusal-ruling-hidden = आपकी टेबल पर हिंट { $level } हैं: आपका मैच ख़त्म होने पर `/rummy check` फिर जवाब देगा।
refusal-host-only-start = खेल सिर्फ़ होस्ट शुरू कर सकता है।
refusal-host-only-add-ai = AI खिलाड़ी सिर्फ़ होस्ट जोड़ सकता है।
refusal-host-only = सीटें बदलना या होस्ट किसी और को सौंपना सिर्फ़ होस्ट कर सकता है।
refusal-seated-or-manager-only = यह सिर्फ़ इस टेबल के खिलाड़ी (या Manage Server वाला कोई व्यक्ति) कर सकते हैं।
refusal-too-soon = टेबल अभी-अभी दोबारा दिखाई गई है; { $wait } सेकंड बाद कोशिश करें।
refusal-drop-rules = इस टेबल पर ड्रॉप नहीं होता (घर का नियम)।
refusal-drop-out = इस बाज़ी में आपके पास कोई पत्ता नहीं है, तो ड्रॉप करने को कुछ नहीं है।
refusal-drop-turn = ड्रॉप सिर्फ़ अपनी बारी में, पत्ता उठाने से पहले कर सकते हैं।
refusal-drop-drawn = आप पत्ता उठा चुके हैं: ड्रॉप सिर्फ़ उठाने से पहले होता है। अब एक पत्ता फेंकें (या डिक्लेयर करें)।
refusal-drop = अभी आप ड्रॉप नहीं कर सकते।
refusal-host-or-manager-only = यह टेबल सिर्फ़ होस्ट या सर्वर मैनेजर बंद कर सकता है।
refusal-already-started = खेल शुरू हो चुका है; अब आप { $what ->
        [join] टेबल पर नहीं बैठ सकते
        [add_ai] AI खिलाड़ी नहीं जोड़ सकते
        [start] इसे दोबारा शुरू नहीं कर सकते
       *[other] यह नहीं कर सकते
    }।
refusal-not-started = खेल अभी शुरू नहीं हुआ है।
refusal-not-enough-players = `{ $profile }` के लिए कम से कम { $minimum } खिलाड़ी चाहिए (किसी को बुलाएँ, या AI खिलाड़ी जोड़ें)।
refusal-unknown-tier = मेन्यू से AI का स्तर चुनें।
refusal-already-left = आप यह मैच पहले ही छोड़ चुके हैं।
refusal-not-your-controls = ये बटन किसी और के हाथ के हैं। अपने पत्ते देखने के लिए टेबल पर “Your hand” दबाएँ।
refusal-stale-view = यह संदेश दिखाए जाने के बाद टेबल आगे बढ़ चुकी है, इसलिए कोई चाल नहीं चली गई। यह रहा आपका अभी का हाथ।
refusal-unknown-action = यह बटन पहचाना नहीं गया।
refusal-choose-card = पहले एक पत्ता चुनें।
refusal-no-deal-waiting = कोई बाज़ी शुरू होने का इंतज़ार नहीं कर रही।
refusal-old-next-deal = यह बटन बाज़ी { $deal } के नतीजों का है: उसके बाद की बाज़ी शुरू हो चुकी है।
refusal-not-in-match = अगली बाज़ी सिर्फ़ वही खिलाड़ी शुरू कर सकते हैं जो अभी मैच में हैं।
refusal-not-in-deal = आपने वह बाज़ी नहीं खेली, इसलिए समीक्षा के लिए आपकी कोई चाल नहीं है।
refusal-review-gone = वह बाज़ी अब समीक्षा के लिए नहीं रखी है (समीक्षा बॉट के दोबारा शुरू होने तक ही रहती है)।
refusal-save-failed = यह चाल सेव नहीं हो सकी, इसलिए हुई ही नहीं। फिर से कोशिश करें।
refusal-bad-board = यह लीडरबोर्ड मौजूद नहीं है; `/rummy leaderboard` फिर से चलाएँ।
refusal-history-players-only = किसी बाज़ी की हैंड-हिस्ट्री सिर्फ़ उसके खिलाड़ी (और सर्वर मैनेजर) डाउनलोड कर सकते हैं।
refusal-deal-gone = वह बाज़ी अब उपलब्ध नहीं है।
refusal-not-invited = यह निजी टेबल है: सिर्फ़ वही खिलाड़ी बैठ सकते हैं जिन्हें होस्ट ने बुलाया है।
refusal-no-such-seat = वह सीट अब टेबल पर नहीं है।
refusal-not-at-last-table = रीमैच सिर्फ़ उस मैच के खिलाड़ी शुरू कर सकते हैं; अपनी टेबल खोलें।
refusal-other = अभी यह संभव नहीं है।

# टेबल के विकल्प जो नियम नहीं मानते। `message` (`rules` में) इंजन के अपने (अंग्रेज़ी) शब्द हैं।
option-unknown-profile = अनजान प्रोफ़ाइल; इनमें से चुनें: { $choices }।
option-declaration = डिक्लेयर का तरीका assisted या honor होता है।
option-hints = हिंट का स्तर { $choices } में से कोई एक होता है।
option-assisted-needs-full-hints = हिंट { $hints } पर डिक्लेयर आपकी ईमानदारी पर है (ग़लत शो की कीमत लगती है): असिस्टेड डिक्लेयर के लिए पूरे हिंट चाहिए।
option-deals-choices = डील्स रमी { $choices } बाज़ियों की होती है।
option-no-deals = `{ $profile }` में बाज़ियों की गिनती नहीं चुनी जाती।
option-not-pool = `{ $profile }` पूल वाला खेल नहीं है।
option-not-target = लक्ष्य स्कोर तक सिर्फ़ `classic` खेला जाता है, `{ $profile }` नहीं।
option-seats = `{ $profile }` में { $low }–{ $high } खिलाड़ी बैठते हैं, { $seats } नहीं।
option-turn-timer = एक बारी { $low }–{ $high } सेकंड की होती है, { $value } नहीं।
option-other = टेबल के ये विकल्प मान्य नहीं हैं।

# सेटिंग में ऐसे बदलाव जो माँगे गए तरीके से नहीं हो सकते।
settings-all-and-list = all_channels अकेले इस्तेमाल करें, या चैनल जोड़ें/हटाएँ, दोनों एक साथ नहीं।
settings-allow-and-remove = एक ही चैनल को जोड़ना भी और हटाना भी? कोई एक चुनें।
settings-unknown-profile = अनजान प्रोफ़ाइल।
settings-unknown-hints = हिंट का स्तर full, groups या off ही हो सकता है।
settings-every-channel-already = टेबल पहले से हर चैनल में खुल सकती है; पहले allow_channel से कोई चैनल जोड़ें।
settings-not-on-list = <#{ $channel }> सूची में नहीं है।
settings-last-channel = यह सूची का आख़िरी चैनल है। हर चैनल की अनुमति देने के लिए all_channels:True इस्तेमाल करें।
settings-other = ये सेटिंग इस तरह नहीं बदली जा सकतीं।

# चाल या लॉबी में किए काम की पुष्टि।
done-drew-card = आपने { $card } उठाया।
done-drew-stock = आपने गड्डी से पत्ता उठाया।
done-took = आपने { $card } लिया।
done-discarded = आपने { $card } फेंका।
done-dropped = आपने ड्रॉप किया ({ $unit ->
        [chips] { $cost } चिप्स
       *[points] { $cost } अंक
    })।
done-declared = आपने डिक्लेयर किया! 🎉 आपका जीतने वाला हाथ नीचे है; नतीजे टेबल पर हैं।
done-wrong-show = आपका शो सही नहीं था: क्यों, और इसकी क्या क़ीमत है, नीचे देखें।
done-left-closed = आपने टेबल छोड़ दी, और कोई और बैठा नहीं था: टेबल बंद हो गई।
done-left-match = आपने मैच छोड़ दिया: इस बाज़ी में यह ड्रॉप गिना जाएगा, और इसकी क़ीमत { $unit ->
        [chips] { $cost } चिप्स
       *[points] { $cost } अंक
    } है।
done-left-between = आपने मैच छोड़ दिया; अब आप आगे की बाज़ियाँ नहीं खेलेंगे।
done-left-match-over = इसके साथ मैच ख़त्म हो गया: नतीजे टेबल पर हैं।
done-left = आपने टेबल छोड़ दी।
done-next-deal = अगली बाज़ी!
done-ready = आप तैयार हैं; बाक़ी खिलाड़ियों का इंतज़ार है।
done-added-ai = { $tier ->
        [easy] आसान
        [medium] मध्यम
        [hard] कठिन
        [expert] माहिर
       *[other] { $tier }
    } AI खिलाड़ी जोड़ा गया ({ $name })।
done-seat-removed = { $name } को टेबल से हटा दिया गया।
done-host-handed = अब { $name } होस्ट हैं।
done-rematch-opened = उन्हीं नियमों वाली नई टेबल { $channel } में खुल गई है; बाक़ी खिलाड़ी **{ button-play-again }** दबा सकते हैं।
done-rematch-seated = आप { $channel } में नई टेबल पर बैठ गए।
done-rematch-already = { $channel } में नई टेबल पर आपकी सीट पहले से है।

# लॉबी और टेबल के कमांड और बटन के जवाब।
done-joined = आप टेबल पर बैठ गए।
done-started = खेल शुरू हो गया। अपने पत्ते देखने के लिए “आपका हाथ” दबाएँ।
done-cancelled = टेबल बंद कर दी गई।
done-table-below = टेबल नीचे है।
done-game-over = खेल ख़त्म हो गया।
