# टूर्नामेंट: पंजीकरण का संदेश, हर राउंड और आख़िरी स्टैंडिंग, सूचनाएँ, निजी जवाब और इनकार।
# सबके लिए संदेश टूर्नामेंट की भाषा में होते हैं (बनाते समय सर्वर की भाषा); निजी जवाब पढ़ने वाले की भाषा में।
# $start, $opens यूनिक्स समय हैं, टेक्स्ट के रूप में (ताकि अंक समूहों में न बँटें)।

## पंजीकरण का संदेश
tournament-title = 🏆 { $name }
tournament-format-points = पॉइंट्स रमी, हर राउंड में { $deals ->
        [one] एक बाज़ी
       *[other] { $deals } बाज़ियाँ
    }, चिप्स बाज़ी से बाज़ी आगे चलते हैं
tournament-format-deals = डील्स रमी, हर राउंड में { $deals } बाज़ियाँ, सबसे कम अंक सबसे अच्छे
tournament-format-pool101 = पूल 101: हर टेबल तब तक खेलती है जब तक एक खिलाड़ी न बचे
tournament-format-pool201 = पूल 201: हर टेबल तब तक खेलती है जब तक एक खिलाड़ी न बचे
tournament-advance-top = हर टेबल पर ज़्यादा से ज़्यादा { $seats } खिलाड़ी; हर टेबल के सबसे अच्छे { $count } आगे जाते हैं।
tournament-advance-line = हर टेबल पर ज़्यादा से ज़्यादा { $seats } खिलाड़ी; { $line } या उससे ज़्यादा चिप्स वाले सब आगे जाते हैं (पूरी टेबल कभी नहीं; उसका सबसे अच्छा हमेशा)।
tournament-start = शुरुआत <t:{ $start }:F> (<t:{ $start }:R>)। चेक-इन (“मैं हाज़िर हूँ”) <t:{ $opens }:R> खुलेगा; शुरुआत तक जिसने चेक-इन नहीं किया, वह बाहर रहेगा।
tournament-settings = हर बारी { $timer } सेकंड · ज़्यादा से ज़्यादा { $cap } खिलाड़ी
tournament-rated = रेटेड: हिंट बंद हैं।
tournament-unrated = बिना रेटिंग: हिंट { $hints } हैं।
tournament-ai-fill = ख़ाली सीटें AI खिलाड़ी भरते हैं; वे कभी आगे नहीं जाते।
tournament-rules = बराबरी पर: टेबल पर ज़्यादा बाज़ियाँ जीतने वाला, फिर बैठने का ड्रॉ। जो अपना मैच छोड़ दे, हटाया जाए, या अंत तक ग़ैरहाज़िर रहे (लगातार तीन बार समय ख़त्म होने पर ड्रॉप) वह तभी आगे जाता है जब टेबल पर कोई न टिका हो; AI कभी किसी इंसान से आगे नहीं जाता। एक ही राउंड में बाहर हुए सब एक ही स्थान बाँटते हैं।
tournament-registered = पंजीकृत ({ $count }/{ $cap })
tournament-nobody = अभी कोई नहीं।
tournament-and-more = …और { $count }
tournament-checked-in = { $count } ने चेक-इन किया
tournament-state-registration = पंजीकरण खुला है।
tournament-state-check-in = चेक-इन खुला है: “मैं हाज़िर हूँ” दबाएँ।
tournament-state-stalled = बहुत कम चेक-इन ({ $count }; कम से कम { $minimum } चाहिए): आयोजक देर से शुरू कर सकते हैं, आगे बढ़ा सकते हैं या रद्द कर सकते हैं।
tournament-state-running = राउंड { $round } चल रहा है।
tournament-state-paused = आयोजक ने रोका है: चल रही बाज़ियाँ पूरी होंगी, फिर से शुरू होने तक कुछ नया नहीं।
tournament-state-finished = विजेता: { $winner }।
tournament-state-cancelled = रद्द: { $reason }
tournament-footer = टूर्नामेंट { $id }
tournament-button-register = नाम लिखाएँ
tournament-button-unregister = नाम हटाएँ
tournament-button-here = मैं हाज़िर हूँ

## एक राउंड
tournament-round-title = { $name } — राउंड { $round }
tournament-final-title = { $name } — फ़ाइनल
tournament-commitment = बैठने की प्रतिबद्धता: `{ $commitment }`। यह बैठाने से पहले दिखाई गई; राउंड ख़त्म होने पर इसका सॉल्ट बताया जाएगा, और `{ $scheme }:{ $round }:<सॉल्ट>:<ड्रॉ, रिक्त स्थान से अलग>` का SHA-256 फिर यही देगा।
tournament-revealed = सॉल्ट: `{ $salt }` · ड्रॉ, क्रम से: { $draw }
tournament-revealed-record = सॉल्ट: `{ $salt }` · क्रम से ड्रॉ `/rummy tournament record` में है।
tournament-table-line = **टेबल { $number }** { $where }: { $players }
tournament-table-deal = बाज़ी { $deal }/{ $deals }
tournament-table-playing = खेल जारी
tournament-table-done = ✔ पूरी
tournament-byes = बाई
tournament-bye-reason = { $players } खिलाड़ी { $low } से { $seats } की टेबलों पर पूरे नहीं बैठ सकते (हर टेबल से कोई बाहर होना चाहिए), इसलिए ड्रॉ के आख़िरी { $count ->
        [one] खिलाड़ी
       *[other] { $count } खिलाड़ी
    } सीधे अगले राउंड में जाते हैं।
tournament-through = अगले राउंड में पहुँचे
tournament-round-footer = टूर्नामेंट { $id } · राउंड { $round }

## आख़िर में
tournament-final-standings = { $name } — आख़िरी स्टैंडिंग
tournament-winner = 🏆 { $winner } ने { $name } जीता!
tournament-place-line = { $place }. { $name }
tournament-place-shared = { $place }. { $names } (राउंड { $round } में बाहर)
tournament-picture = आख़िरी स्टैंडिंग
tournament-picture-title = { $name }
tournament-picture-place = स्थान
tournament-picture-player = खिलाड़ी
tournament-picture-rounds = राउंड

## सूचनाएँ
tournament-left-out = आपने **{ $name }** के लिए नाम लिखाया था पर चेक-इन नहीं किया, इसलिए आप बाहर रहे। अगली बार मिलते हैं!
tournament-stalled = **{ $name }** शुरू नहीं हो सकता: { $count } ने चेक-इन किया, कम से कम { $minimum } चाहिए। आयोजक इसे देर से शुरू कर सकते हैं (`/rummy tournament start`), आगे बढ़ा सकते हैं (`/rummy tournament delay`) या रद्द कर सकते हैं।
tournament-cancelled = **{ $name }** रद्द हो गया: { $reason }। इसकी टेबलें बंद हैं और कुछ भी रेटिंग में नहीं गिना गया।
tournament-starter = **{ $name }** · राउंड { $round }, टेबल { $number }: { $players }
tournament-thread = राउंड { $round } टेबल { $number } · { $name }
tournament-table-ping = { $mentions } — राउंड { $round } की आपकी टेबल। शुभकामनाएँ!

## निजी जवाब
tournament-done-registered = आपका नाम **{ $name }** के लिए लिखा गया (अब तक { $count })। शुरुआत से पहले चेक-इन खुलेगा: तब “मैं हाज़िर हूँ” दबाएँ।
tournament-done-registered-here = आपका नाम **{ $name }** के लिए लिखा गया और चेक-इन भी हो गया।
tournament-done-unregistered = आपका नाम हटा दिया गया।
tournament-done-checked-in = आपका चेक-इन हो गया। शुरुआत <t:{ $start }:R>।
tournament-done-already-checked-in = आपका चेक-इन पहले ही हो चुका था।
tournament-done-started = टूर्नामेंट शुरू हो गया।
tournament-done-delayed = अब शुरुआत <t:{ $start }:F> (<t:{ $start }:R>) है।
tournament-done-paused = रोका गया। चल रही बाज़ियाँ पूरी होंगी; फिर से शुरू करने तक कुछ नया नहीं।
tournament-done-resumed = फिर से शुरू।
tournament-done-removed = { $name } अब टूर्नामेंट से बाहर हैं।
tournament-done-cancelled = टूर्नामेंट रद्द कर दिया गया।
tournament-done-added-ai = { $count ->
        [one] एक AI खिलाड़ी जोड़ा गया।
       *[other] { $count } AI खिलाड़ी जोड़े गए।
    }
tournament-ai-name = 🤖 { $tier } { $number }

## /rummy tournament status
tournament-status-title = { $name } — स्टैंडिंग
tournament-status-entrants = { $count } खिलाड़ी
tournament-own-table = आप राउंड { $round } की टेबल { $number } पर हैं ({ $where }), वहाँ अभी { $seats } में से { $place }वें स्थान पर।
tournament-own-bye = राउंड { $round } में आपको बाई मिली है: आप सीधे अगले राउंड में जाते हैं।
tournament-own-waiting = आप अगले राउंड में पहुँच गए हैं।
tournament-own-out = आप टूर्नामेंट से बाहर हैं।
tournament-own-place = आपका आख़िरी स्थान: { $players } में से { $place }।
tournament-own-registered = आपका नाम लिखा है{ $here ->
        [yes] {" "}और चेक-इन भी हो गया है।
       *[no] ; चेक-इन खुलने पर चेक-इन करें।
    }
tournament-own-left-out = आपने चेक-इन नहीं किया, इसलिए आप नहीं खेल रहे।
tournament-own-none = आप इस टूर्नामेंट में नहीं हैं।
tournament-record-caption = **{ $name }** का रिकॉर्ड: हर राउंड का ड्रॉ, सॉल्ट, प्रतिबद्धता, टेबलें और नतीजे।
tournament-history = { $name } (`{ $id }`): { $players } में से { $place } · { $rounds ->
        [one] एक राउंड
       *[other] { $rounds } राउंड
    }
tournament-history-title = टूर्नामेंट
tournament-stats = खेले { $played } · जीते { $won } · सबसे अच्छा स्थान { $best }
tournament-stats-last = पिछला: { $name }, { $players } में से { $place }

## इनकार
tournament-refused-none-here = इस चैनल में कोई टूर्नामेंट नहीं है।
tournament-refused-closed = वह टूर्नामेंट ख़त्म हो चुका है (या रद्द हुआ)।
tournament-refused-wrong-place = वह टूर्नामेंट दूसरे चैनल में चल रहा है; वहीं के बटन इस्तेमाल करें।
tournament-refused-channel-busy = इस चैनल में पहले से एक टूर्नामेंट है। पहले उसे रद्द करें, या दूसरे चैनल में बनाएँ।
tournament-refused-not-organiser = यह सिर्फ़ इसके आयोजक, Manage Server वाले या सर्वर के आयोजक रोल वाले कर सकते हैं।
tournament-refused-registration-closed = पंजीकरण बंद है: टूर्नामेंट शुरू हो चुका है।
tournament-refused-already-registered = आपका नाम पहले से लिखा है।
tournament-refused-not-registered = इस टूर्नामेंट में आपका नाम नहीं लिखा है।
tournament-refused-full = टूर्नामेंट भर गया है ({ $cap } खिलाड़ी)।
tournament-refused-removed = आयोजक ने आपको इस टूर्नामेंट से हटा दिया है।
tournament-refused-check-in-not-open = चेक-इन <t:{ $opens }:R> खुलेगा।
tournament-refused-not-running = टूर्नामेंट चल नहीं रहा है।
tournament-refused-already-running = टूर्नामेंट पहले ही शुरू हो चुका है।
tournament-refused-too-few = सिर्फ़ { $count } ने चेक-इन किया; शुरू करने के लिए कम से कम { $minimum } चाहिए।
tournament-refused-paused = टूर्नामेंट पहले से रुका हुआ है।
tournament-refused-not-paused = टूर्नामेंट रुका हुआ नहीं है।
tournament-refused-no-such-player = वह खिलाड़ी इस टूर्नामेंट में नहीं है।
tournament-refused-tournament-table = यह टेबल एक टूर्नामेंट की है: उसे उसके आयोजक `/rummy tournament` से चलाते हैं।
tournament-option-name = टूर्नामेंट को ज़्यादा से ज़्यादा { $high } अक्षरों का नाम दें।
tournament-option-format = फ़ॉर्मेट इनमें से एक है: { $choices }।
tournament-option-seats = हर टेबल की सीटें: { $low } से { $high } के बीच, { $value } नहीं।
tournament-option-deals = हर राउंड की बाज़ियाँ: इनमें से एक: { $choices }।
tournament-option-no-deals = { $format } टूर्नामेंट में हर टेबल अंत तक खेलती है; `deals` न दें।
tournament-option-advance = कितने आगे जाएँ: हर टेबल से { $low } से { $high } के बीच, { $value } नहीं।
tournament-option-advance-both = `advance` या `chip_line` में से एक चुनें, दोनों नहीं।
tournament-option-chip-line = चिप लाइन पॉइंट्स टूर्नामेंट के लिए है; { $format } टेबलें अंक गिनती हैं। `advance` इस्तेमाल करें।
tournament-option-chip-line-range = चिप लाइन { $low } से { $high } के बीच है, { $value } नहीं।
tournament-option-start-in = शुरुआत अभी से { $low } से { $high } मिनट के बीच हो, { $value } नहीं।
tournament-option-start-at = “{ $value }” आगे का समय नहीं है (सर्वर के समय क्षेत्र में 20:30 या 2025-06-01 20:30 लिखें)।
tournament-option-start-both = `start_in` या `start_at` में से एक चुनें, दोनों नहीं।
tournament-option-cap = खिलाड़ियों की सीमा { $low } से { $high } के बीच है, { $value } नहीं।
tournament-option-turn-timer = बारी का समय { $low } से { $high } सेकंड के बीच है, { $value } नहीं।
tournament-option-hints = हिंट का स्तर इनमें से एक है: { $choices }।
tournament-option-ai-tier = AI का स्तर इनमें से एक है: { $choices }।
tournament-option-other = यह विकल्प संभव नहीं है।

## /rummy settings
tournament-settings-organisers = टूर्नामेंट आयोजक
tournament-organisers-managers = सिर्फ़ Manage Server वाले
tournament-organisers-role = Manage Server वाले और <@&{ $role }>
tournament-changed-organisers = टूर्नामेंट आयोजक: <@&{ $role }> (और Manage Server वाले)
tournament-changed-organisers-none = टूर्नामेंट आयोजक: सिर्फ़ Manage Server वाले

## /rummy tournament
cmd-rummy-tournament = टूर्नामेंट: कई टेबलें, राउंड, एक विजेता
cmd-rummy-tournament-create = इस चैनल में टूर्नामेंट बनाएँ
    .name = टूर्नामेंट का नाम
    .format = हर राउंड में हर टेबल क्या खेले (पहले से: points)
    .deals = हर राउंड की बाज़ियाँ (points: 1 से 10; deals: 2, 3 या 6; पहले से 2)
    .seats = हर टेबल पर ज़्यादा से ज़्यादा खिलाड़ी (पहले से 6)
    .advance = हर टेबल से कितने आगे जाएँ (पहले से 2)
    .chip_line = पॉइंट्स: इतने या ज़्यादा चिप्स वाले सब आगे जाएँ
    .start_in = शुरुआत अभी से कितने मिनट बाद (पहले से 15)
    .start_at = शुरुआत HH:MM (या YYYY-MM-DD HH:MM) में, सर्वर के समय क्षेत्र में
    .cap = ज़्यादा से ज़्यादा खिलाड़ी (पहले से 60)
    .turn_timer = एक बारी के सेकंड (पहले से: सर्वर की सेटिंग)
    .ai_fill = ख़ाली सीटें AI खिलाड़ी भरें (वे कभी आगे नहीं जाते)
    .hints = हिंट का स्तर (पहले से बंद: रेटेड)
cmd-rummy-tournament-status = टूर्नामेंट की स्टैंडिंग, और आपका स्थान
cmd-rummy-tournament-record = टूर्नामेंट का रिकॉर्ड: ड्रॉ, सॉल्ट, टेबलें
    .tournament = उसकी आईडी (पहले से: इस चैनल का सबसे नया)
cmd-rummy-tournament-start = अभी शुरू करें, जिन्होंने चेक-इन किया उनके साथ (आयोजक)
cmd-rummy-tournament-delay = शुरुआत आगे बढ़ाएँ (आयोजक)
    .minutes = अभी से नई शुरुआत तक के मिनट
cmd-rummy-tournament-pause = हर टेबल को बाज़ियों के बीच रोकें (आयोजक)
cmd-rummy-tournament-resume = रुके हुए टूर्नामेंट को फिर से शुरू करें (आयोजक)
cmd-rummy-tournament-remove = किसी खिलाड़ी को हटाएँ (आयोजक)
    .player = कौन: उनकी सीट ड्रॉप की तरह खेली जाती है
cmd-rummy-tournament-cancel = टूर्नामेंट रद्द करें (आयोजक)
    .reason = क्यों (सब पढ़ेंगे)
cmd-rummy-tournament-add-ai = AI खिलाड़ी जोड़ें (आयोजक)
    .count = कितने
    .tier = कितने मज़बूत (पहले से medium)
