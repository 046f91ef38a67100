## टर्मिनल वाला खेल (python -m bot.play --lang hi)। टाइप किए जाने वाले कमांड (s, d, p, r, h,
## q, declare, y) और पत्तों के कोड हर भाषा में वैसे ही रहते हैं।

term-you = आप
term-kind-pure = प्योर सीक्वेंस
term-kind-impure = सीक्वेंस
term-kind-set = सेट
term-part-wild = वाइल्ड
term-part-pairs = जोड़े
term-part-near-runs = अधूरे सीक्वेंस
term-part-loose = बेमेल
term-end-declared = डिक्लेयर किया
term-end-hand-rummy = बँटे हुए हाथ से डिक्लेयर किया
term-end-last-standing = बाक़ी सब ड्रॉप हो गए
term-end-void = गड्डी ख़त्म हो गई
term-basis-deadwood = बेमेल पत्ते { $base }
term-basis-first-drop = पत्ता उठाने से पहले ड्रॉप
term-basis-middle-drop = ड्रॉप
term-basis-wrong-show = ग़लत शो
term-basis-wrong-show-drop = ग़लत शो (ड्रॉप जितना जुर्माना)
term-basis-hand-rummy-dropped = ड्रॉप हो चुके थे (हैंड रमी)
term-why-times = { $why }, x{ $times }
term-why-rate = { $why }, { $rate } की दर से
term-why-won = जीते
term-help =
    कैसे खेलें (पूरे नियम docs/rules.md में हैं):
      ग्रुप बनाएँ: सीक्वेंस (एक ही रंग के 3+ पत्ते क्रम में: 4♥ 5♥ 6♥) और सेट (एक ही नंबर के 3 या 4
      पत्ते, अलग-अलग रंग के)। वाइल्ड जोकर (* और 🃏) किसी भी पत्ते की जगह ले सकते हैं। डिक्लेयर के
      लिए हर पत्ता किसी ग्रुप में हो, कम से कम दो सीक्वेंस हों और उनमें एक प्योर सीक्वेंस (बिना जोकर)।
    अपनी बारी की शुरुआत में:
      s            गड्डी का ऊपरी पत्ता उठाएँ
      d            ढेर का ऊपरी पत्ता उठाएँ
      p            ड्रॉप: तय जुर्माना देकर यह बाज़ी छोड़ें (पहले पूछा जाएगा)
      r            बँटे हुए हाथ से डिक्लेयर करें, जहाँ नियम इजाज़त दें
    पत्ता उठाने के बाद:
      7H या 7♥     वह पत्ता फेंकें (सूची का नंबर भी चलेगा: 5)
      declare 7H   7H फेंककर बाक़ी पत्ते दिखाएँ (या: ! 7H)
    कभी भी:
      h या help    यह मदद
      q या quit    टेबल छोड़ें: यह ड्रॉप गिना जाता है, AI खिलाड़ी खेलते रहते हैं (पहले पूछा जाएगा)
    पत्ते: A 2 .. 10 J Q K के साथ रंग S H D C (या ♠ ♥ ♦ ♣), छोटे-बड़े अक्षर कुछ भी; T यानी 10; JK प्रिंटेड
    जोकर। बेमेल पत्तों के अंक वह जुर्माना है जो अभी कोई डिक्लेयर करे तो आपको देना होगा।
term-note-drawn = { $card } फेंकने पर बेमेल पत्तों के अंक { $deadwood } रहेंगे।
term-note-declarable = { $card } फेंकने पर बेमेल पत्तों के अंक { $deadwood } रहेंगे - आप डिक्लेयर कर सकते हैं!
term-note = बेमेल पत्तों के अंक { $deadwood } (अभी कोई डिक्लेयर करे तो आप { $penalty } देंगे)।
term-mark-taken = (उठाया)
term-mark-new = (नया)
term-deal-banner = === बाज़ी { $number } ({ $profile }) - बाँटने वाले { $dealer }
term-indicator = इंडिकेटर { $indicator }; वाइल्ड: { $wild }
term-indicator-none = कोई नहीं
term-wild-jokers = प्रिंटेड जोकर
term-wild-rank = प्रिंटेड जोकर और हर { $rank }
term-wild-nothing = कुछ नहीं
term-status = गड्डी { $stock } | ढेर पर { $top } | { $others }
term-seat = { $name } के { $cards } पत्ते
term-seat-state = { $name } के { $cards } पत्ते ({ $state ->
        [dropped] ड्रॉप
        [out] बाहर
        [eliminated] मैच से बाहर
        [left] टेबल छोड़ गए
       *[waiting] इंतज़ार में
    })
term-input-ended = इनपुट ख़त्म: आप टेबल छोड़ रहे हैं (ड्रॉप गिना जाएगा)।
term-leave-ask = टेबल छोड़ें? यह ड्रॉप गिना जाएगा; AI खिलाड़ी खेलते रहेंगे।
term-left = आपने टेबल छोड़ दी (ड्रॉप गिना गया)।
term-stay = आप खेल में हैं।
term-opt-stock = s=गड्डी
term-opt-take = d={ $card } उठाएँ
term-opt-drop = p=ड्रॉप ({ $cost } लगेंगे)
term-opt-rummy = r=बँटे हाथ से डिक्लेयर
term-opt-help = h=मदद
term-opt-quit = q=छोड़ें
term-your-hand = आपका हाथ:
term-your-turn = आपकी बारी: { $options }
term-drop-ask = इस बाज़ी से ड्रॉप करें? इसमें { $cost } अंक लगेंगे।
term-stay-in-deal = आप बाज़ी में बने हैं।
term-not-an-option = '{ $choice }' इनमें से नहीं है: { $options }। फिर कोशिश करें।
term-took = आपने ढेर से { $card } उठाया (इसे तुरंत वापस नहीं फेंक सकते)।
term-drew = आपने गड्डी से { $card } उठाया।
term-now-hold = अब आपके पास:
term-hint-declare = { $card } फेंककर डिक्लेयर कर सकते हैं: 'declare { $code }' लिखें।
term-throw-prompt = पत्ता फेंकें (जैसे 7H, या उसका नंबर 1-{ $count }), दिखाने के लिए 'declare <पत्ता>', h=मदद, q=छोड़ें।
term-not-valid-declaration = { $card } फेंकने से सही डिक्लेयर नहीं बनता।
term-cannot-throw-taken = ढेर से अभी उठाया पत्ता आप नहीं फेंक सकते।
term-type-card = कोई पत्ता (जैसे 7H) या उसका नंबर लिखें।
term-no-card-number = { $number } नंबर का कोई पत्ता नहीं है; 1-{ $count } में से चुनें।
term-not-holding = आपके पास { $card } नहीं है।
term-not-allowed = यह नहीं हो सकता: { $reason }
term-void = बाज़ी { $number } रद्द ({ $end }): कोई कुछ नहीं देगा।
term-won = बाज़ी { $number } { $winner } ने जीती ({ $end })।
term-col-player = खिलाड़ी
term-col-pays = देना
term-col-why = क्यों
term-col-total = कुल
term-col-hand = हाथ
term-no-review = (इस बाज़ी की समीक्षा नहीं हो सकी: { $reason }।)
term-review-head = आपके खेल की समीक्षा:
term-match-over-net = मैच ख़त्म (कुल चिप्स):
term-match-over-points = मैच ख़त्म (जुर्माने के अंक):
term-winner = विजेता: { $names }
term-no-winner = कोई विजेता नहीं।
term-stopped = रोक दिया (Ctrl-C)।
term-history-saved = हैंड-हिस्ट्री सहेजी गई: { $path } (दोबारा देखें: python -m bot.replay { $path })
