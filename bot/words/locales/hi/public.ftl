# चैनल में सबको दिखने वाले संदेश: लॉबी, टेबल, बारी की सूचना, नतीजे और टेबल कहाँ खेली जा रही है।
# ये टेबल की भाषा में होते हैं: टेबल खुलते समय सर्वर की भाषा।

## लॉबी
lobby-title = 🎴 इंडियन रमी — टेबल खुली है
lobby-title-cancelled = 🎴 इंडियन रमी — टेबल रद्द
lobby-title-expired = 🎴 इंडियन रमी — लॉबी बंद
lobby-footer-cancelled = टेबल बंद हो गई।
lobby-footer-everyone-left = सब चले गए: टेबल बंद हो गई।
lobby-profile = **प्रोफ़ाइल:** `{ $profile }` · { $seats } सीटें · हर बारी { $timer } सेकंड
lobby-deals = { $deals } बाज़ियाँ
lobby-target = लक्ष्य स्कोर { $target }
lobby-pool-limit = { $limit } पर बाहर
lobby-declare = डिक्लेयर: { $mode ->
        [assisted] जाँच के साथ
       *[honor] भरोसे पर
    }
lobby-house-rules = घर के नियम: { $rules }
toggle-no-reshuffle = गड्डी दोबारा नहीं फेंटी जाएगी
toggle-joker-indicator-doubles = इंडिकेटर जोकर हो तो दुगना
toggle-aces-wild-on-joker = जोकर इंडिकेटर पर इक्के वाइल्ड
toggle-nothing-wild = कोई वाइल्ड नहीं
toggle-one-joker-per-deck = हर गड्डी में एक जोकर
toggle-no-packing = ड्रॉप नहीं
lobby-hints = **हिंट:** { $level } ({ $meaning })
hint-level-full = पूरे
hint-level-groups = सिर्फ़ ग्रुप
hint-level-off = बंद
hint-meaning-full = जमावट, बेमेल पत्ते और डिक्लेयर कब कर सकते हैं
hint-meaning-groups = सिर्फ़ जमावट
hint-meaning-off = कोई मदद नहीं: पत्ते रंग के हिसाब से
lobby-honor-warning = ⚠️ डिक्लेयर से पहले आपका हाथ कोई नहीं जाँचता: ग़लत शो पर जुर्माना लगेगा।
lobby-unrated = **बिना रेटिंग:** यह सर्वर सिर्फ़ बिना हिंट वाले खेलों की रेटिंग गिनता है; यह मैच आँकड़ों में गिना जाएगा, पर रेटिंग नहीं बदलेगी।
lobby-seats = सीटें ({ $seated }/{ $seats })
lobby-empty-seat = · ख़ाली
lobby-private = निजी टेबल
lobby-private-guests = सिर्फ़ ये खिलाड़ी बैठ सकते हैं: { $guests }
lobby-nobody-yet = अभी कोई नहीं
lobby-footer-waiting = होस्ट: { $host }। { $need ->
        [one] { $need } और खिलाड़ी का इंतज़ार।
       *[other] { $need } और खिलाड़ियों का इंतज़ार।
    }
lobby-footer-ready = होस्ट: { $host }। होस्ट खेल शुरू कर सकते हैं।
lobby-expired = { $minutes } मिनट तक खेल शुरू नहीं हुआ, इसलिए यह लॉबी बंद हो गई। नई टेबल /rummy new से खोलें।

## लॉबी के बटन
button-join = बैठें
button-leave = उठें
button-start = शुरू करें
button-cancel = रद्द करें
menu-add-ai = AI खिलाड़ी जोड़ें…
ai-easy = आसान AI
    .description = नियम से खेलता है, जोड़े रखता है
ai-medium = मध्यम AI
    .description = बेमेल पत्ते कम करने पर ध्यान
ai-hard = कठिन AI
    .description = जल्दी डिक्लेयर की दौड़: काम के पत्ते गिनता है
ai-expert = माहिर AI
    .description = चिप्स के लिए खेलता है: आप क़रीब हों तो भारी पत्ते फेंकता है
ai-seat-easy = 🤖 आसान
ai-seat-medium = 🤖 मध्यम
ai-seat-hard = 🤖 कठिन
ai-seat-expert = 🤖 माहिर
menu-host-tools = होस्ट के काम: सीटें और होस्ट…
host-remove = { $name } को हटाएँ
host-make = { $name } को होस्ट बनाएँ

## टेबल
table-title = 🎴 { $profile } — बाज़ी { $deal }
table-title-over = 🎴 { $profile } — मैच ख़त्म
table-dealer = (बाँटने वाले)
table-cards = { $cards } पत्ते
table-score = स्कोर { $score }
status-dropped = (ड्रॉप)
status-out = (इस बाज़ी से बाहर)
status-eliminated = (मैच से बाहर)
status-left = (चले गए)
table-seats = सीटें
table-top-discard = ढेर पर
table-indicator = इंडिकेटर
table-stock = गड्डी
table-turn = बारी
table-turn-draw = **{ $name }** को पत्ता उठाना है या ड्रॉप करना है
table-turn-discard = **{ $name }** को पत्ता फेंकना है या डिक्लेयर करना है
table-time-up = { $step } · समय ख़त्म { $when }
table-recent = अभी-अभी
table-footer = अपने पत्ते देखने के लिए “आपका हाथ” दबाएँ (वे सिर्फ़ आपको दिखेंगे)।
table-cancelled = यह टेबल रद्द कर दी गई।
table-finished = मैच ख़त्म। नया खेल /rummy new से शुरू करें।
table-commitment = बाज़ी { $deal } की फेंटाई का वादा: { $hash }… (sha256)
table-for-bystander = टेबल अभी ऐसी है (आप इस पर नहीं खेल रहे):
table-picture = टेबल: सीटें, हाथ के पत्ते, गड्डी, ढेर और इंडिकेटर, जैसा नीचे लिखा है
button-your-hand = आपका हाथ
button-next-deal = अगली बाज़ी

## बारी की सूचना
turn-ping = { $mention }, आपकी बारी है।
turn-ping-timer = { $mention }, आपकी बारी है — समय ख़त्म { $when }।
turn-warning = ⏳ { $mention }, 15 सेकंड बचे हैं — फिर बॉट आपकी जगह खेलेगा।

## नतीजे
results-title = बाज़ी { $deal } का नतीजा
results-void = गड्डी ख़त्म हो गई: बाज़ी रद्द, कोई कुछ नहीं देता।
results-declared = **{ $winner }** ने डिक्लेयर किया!
results-hand-rummy = **{ $winner }** ने हैंड रमी डिक्लेयर की!
results-last-standing = **{ $winner }** अकेले बचे खिलाड़ी हैं!
results-won = **{ $winner }** जीते!
results-why = क्यों: { $problems }
results-unmatched = बेमेल पत्ते: { $cards }
results-winner = विजेता 🏆
results-standings = स्कोर
results-shuffle = फेंटाई
results-shuffle-text = वादा `{ $hash }…` · साल्ट `{ $salt }`
    नीचे **हैंड-हिस्ट्री** लेकर `python -m bot.engine verify` से जाँचें
results-match-over = मैच ख़त्म — विजेता: { $winners }
results-match-over-none = मैच ख़त्म — कोई विजेता नहीं।
results-hints = हिंट { $level }
results-unrated = बिना रेटिंग (यह सर्वर सिर्फ़ बिना हिंट वाले खेलों की रेटिंग गिनता है)
results-key = टेबल { $table }
results-next-started = बाज़ी { $deal } शुरू हो गई है।
results-next-deal = सबके **अगली बाज़ी** दबाते ही (या { $seconds } सेकंड में) अगली बाज़ी शुरू होगी।
results-picture = बाज़ी के सारे हाथ खोलकर, जैसा नीचे लिखा है
out-first-drop = पत्ता उठाने से पहले ड्रॉप (पहला ड्रॉप)
out-middle-drop = ड्रॉप (बीच का ड्रॉप)
out-wrong-show = ऐसा हाथ डिक्लेयर किया जो सही नहीं था (ग़लत शो)
out-wrong-show-drop = ऐसा हाथ डिक्लेयर किया जो सही नहीं था (बीच का ड्रॉप माना गया)
out-by-timeouts = { $reason }, लगातार { $timeouts } बार समय ख़त्म होने पर बॉट ने किया
charge = { $amount } देने हैं ({ $base })
charge-capped = बेमेल पत्तों के { $deadwood } अंक, सीमा { $base }
charge-rate = { $base } × { $rate }
basis-deadwood = बेमेल पत्तों के { $base } अंक
basis-first-drop = पहला ड्रॉप { $base }
basis-middle-drop = बीच का ड्रॉप { $base }
basis-wrong-show = ग़लत शो { $base }
basis-wrong-show-drop = ग़लत शो (ड्रॉप) { $base }
basis-hand-rummy-dropped = हैंड रमी पर ड्रॉप { $base }
score-won = { $amount } चिप्स जीते
score-lost = { $amount } चिप्स हारे
score-points = { $amount } अंक
standing-chips = { $name }: { $amount } चिप्स{ $mark }
standing-points = { $name }: { $amount } अंक{ $mark }
standing-out = { " " }(बाहर)
standing-left = { " " }(चले गए)
wild-as = { $card } यहाँ { $role }
wild-as-rank = { $rank } की जगह
button-review = मेरे खेल की समीक्षा
button-history = हैंड-हिस्ट्री
button-replay = रीप्ले
button-match-replay = मैच रीप्ले
button-play-again = फिर खेलें

## टेबल कहाँ खेली जा रही है
thread-name = 🎴 { $host } की रमी टेबल ({ $profile })
place-permissions = 🧵 यह टेबल यहीं चैनल में खेली जाएगी: इसके लिए थ्रेड खोलने को मुझे **{ $missing }** { $count ->
        [one] अनुमति
       *[other] अनुमतियाँ
    } चाहिए।
place-refused = 🧵 यह टेबल यहीं चैनल में खेली जाएगी: Discord ने इसके लिए थ्रेड नहीं खोला।
place-closed = 🧵 टेबल का थ्रेड बंद हो गया, इसलिए खेल यहीं चैनल में आगे चलेगा।
place-and = { $first } और { $second }
placed-here = इसी चैनल में, नीचे
placed-title-finished = 🎴 इंडियन रमी — मैच ख़त्म
placed-title-cancelled = 🎴 इंडियन रमी — टेबल बंद
placed-title-playing = 🎴 इंडियन रमी — खेल चल रहा है
placed-finished = मैच { $where } में खेला गया। आख़िरी स्कोर नीचे है।
placed-cancelled = { $where } वाली टेबल मैच पूरा होने से पहले बंद हो गई।
placed-playing = टेबल { $where } में खेली जा रही है: टेबल, बारियाँ और नतीजे वहीं हैं।
placed-players = खिलाड़ी
placed-final-standings = आख़िरी स्कोर
placed-standings = स्कोर
