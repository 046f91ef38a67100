# गड़बड़ी के जवाब (bot/discord_ui/errors.py)।

error-sorry = हमारी तरफ़ कुछ गड़बड़ हो गई; कुछ नहीं बदला। फिर से कोशिश करें।
error-restarting = खेल फिर से शुरू हो रहा है; थोड़ी देर में फिर कोशिश करें।
error-no-private-message = रमी सर्वर के चैनल में खेली जाती है, DM में नहीं।
error-missing-permissions = इसके लिए आपके पास Manage Server की अनुमति होनी चाहिए।
error-check-failure = यह कमांड यहाँ इस्तेमाल नहीं की जा सकती।

# कमांड में दी गई ऐसी चीज़ जो काम नहीं आई।
error-server-channel-only = इसे सर्वर के किसी चैनल में इस्तेमाल करें।
error-channel-not-allowed = इस चैनल में टेबल नहीं खोली जा सकती (`/rummy settings` देखें)।
error-unknown-language = बॉट यह भाषा नहीं बोलता; सूची में से कोई भाषा चुनें।
language-chosen = अब आपके निजी संदेश हिन्दी में होंगे।
language-auto = अब आपके निजी संदेश आपके Discord की भाषा में होंगे।
error-bad-card = { $detail }।
error-hand-size = हाथ में 13 पत्ते होते हैं (उठाने के बाद 14); आपने { $count } दिए।
error-invite-mentions = जिन्हें बुलाना है उन्हें मेंशन करें, जैसे `invite: @Asha @Ravi`।
error-stats-slow = आँकड़े अभी धीरे लोड हो रहे हैं; थोड़ी देर में फिर कोशिश करें।
error-stats-failed = आँकड़े अभी लोड नहीं हो सके; थोड़ी देर में फिर कोशिश करें।
error-not-yours = ये बटन सिर्फ़ वही इस्तेमाल कर सकता है जिसने यह कमांड चलाई। अपने बटन पाने के लिए ख़ुद चलाएँ।
error-pick-deal = मेन्यू से कोई बाज़ी चुनें।
error-no-stats-for-bots = बॉट और AI खिलाड़ियों के आँकड़े नहीं होते।
error-no-history-for-bots = बॉट और AI खिलाड़ियों का इतिहास नहीं होता।

# इंजन के इनकार, उनके प्रकार से; WrongPhase इंजन के कारण से।
engine-refused = यह चाल नहीं चल सकती।
engine-unknown-seat = इस टेबल पर ऐसी कोई सीट नहीं है।
engine-seat-not-active = आप अब इस बाज़ी में नहीं खेल रहे।
engine-not-your-turn = अभी आपकी बारी नहीं है।
engine-wrong-phase = अभी आप यह नहीं कर सकते।
engine-card-not-in-hand = यह पत्ता आपके हाथ में नहीं है।
engine-cannot-discard-taken = ढेर से अभी उठाया पत्ता इसी बारी में वापस नहीं फेंक सकते।
engine-empty-pile = उठाने को कोई पत्ता नहीं है।
engine-packing-not-allowed = इस टेबल पर ड्रॉप नहीं होता।
engine-hand-rummy-not-allowed = बिना पत्ता उठाए डिक्लेयर सिर्फ़ पहली बारी में होता है, जहाँ नियम इसकी इजाज़त दें।
engine-invalid-declaration = ये पत्ते सही डिक्लेयर नहीं बनाते।
engine-bad-arrangement = आपके ग्रुप में आपके 13 पत्ते ठीक एक-एक बार आने चाहिए।
engine-match-over = मैच ख़त्म हो चुका है।
engine-phase-already-left = आप पहले ही छोड़ चुके हैं।
engine-phase-next-deal-not-started = अगली बाज़ी अभी शुरू नहीं हुई है।
engine-phase-no-deal = अभी कोई बाज़ी नहीं चल रही।
engine-phase-timeout-not-on-turn = समय सिर्फ़ उसी सीट का ख़त्म हो सकता है जिसकी बारी है।
engine-phase-deal-in-progress = एक बाज़ी पहले से चल रही है।
engine-phase-deal-over = यह बाज़ी ख़त्म हो चुकी है।
engine-phase-already-drawn = आप पत्ता उठा चुके हैं; अब एक पत्ता फेंकें।
engine-phase-draw-first = पहले एक पत्ता उठाएँ।
engine-phase-drop-before-drawing = ड्रॉप सिर्फ़ अपनी बारी की शुरुआत में, पत्ता उठाने से पहले होता है।
engine-phase-declare-needs-card = डिक्लेयर के साथ फेंकने वाला पत्ता चुनें।
engine-phase-draw-before-declaring = डिक्लेयर करने से पहले एक पत्ता उठाएँ।
