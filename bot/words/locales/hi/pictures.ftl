# हाथ, टेबल और नतीजे की तस्वीरों पर लिखे शब्द। छोटे रखें: ये पत्तों के नीचे और सीट की पट्टी पर आते हैं।

pic-kind-pure = प्योर सीक्वेंस
pic-kind-impure = सीक्वेंस
pic-kind-set = सेट
pic-part-wild = वाइल्ड जोकर
pic-part-pairs = जोड़ा
pic-part-near-runs = अधूरा सीक्वेंस
pic-part-nothing = अभी किसी से मेल नहीं
pic-part-unmatched = बेमेल पत्ते
pic-suit-spades = हुकुम
pic-suit-hearts = पान
pic-suit-diamonds = ईंट
pic-suit-clubs = चिड़ी
pic-suit-jokers = जोकर

pic-no-cards = अभी आपके हाथ में कोई पत्ता नहीं है।
pic-by-suit = आपके पत्ते, रंग के हिसाब से
pic-your-groups = आपके ग्रुप
pic-best-discard = सही पत्ता फेंकने पर बेमेल अंक { $deadwood }
pic-can-declare = डिक्लेयर कर सकते हैं!
pic-deadwood-now = अभी बेमेल अंक: { $deadwood }
pic-deadwood = बेमेल अंक { $deadwood }
pic-tag-taken = फेंक नहीं सकते
pic-tag-new-discard = नया, फेंकें?
pic-tag-new = नया
pic-tag-discard = फेंकें?

pic-nothing-wild = कोई वाइल्ड नहीं
pic-jokers-wild = सिर्फ़ जोकर वाइल्ड
pic-wild-rank = वाइल्ड: { $rank }
pic-wild-and-jokers = + जोकर

pic-variant-fallback = रमी
pic-title-deal = { $variant } · बाज़ी { $deal }
pic-title-over = { $variant } · मैच ख़त्म
pic-turn = { $name } की बारी
pic-match-over = मैच ख़त्म हो गया
pic-between-deals = बाज़ियों के बीच
pic-indicator = इंडिकेटर
pic-discards = फेंके गए पत्ते, नया दाईं ओर
pic-pile-start = शुरुआत
pic-taken-by = उठाया:
pic-plate-score = स्कोर { $score }
pic-seat = सीट { $seat }
# डीलर के बटन पर (एक-दो अक्षर ही आते हैं): डीलर का पहला अक्षर।
pic-dealer-mark = डी
pic-status-dropped = ड्रॉप किया
pic-status-out = इस बाज़ी से बाहर
pic-status-eliminated = मैच से बाहर
pic-status-left = टेबल छोड़ दी

pic-result-title = बाज़ी { $deal } का नतीजा
pic-void = गड्डी ख़त्म हो गई: बाज़ी रद्द, कोई कुछ नहीं देता।
pic-declared = { $name } ने डिक्लेयर किया!
pic-hand-rummy = { $name } ने हैंड रमी डिक्लेयर की!
pic-last-standing = { $name } आख़िरी बचे खिलाड़ी हैं!
pic-won = { $name } जीते!
pic-pays = { $amount } देंगे
pic-charge-base = { $basis } { $base }
pic-basis-deadwood = बेमेल अंक
pic-basis-first-drop = पहला ड्रॉप
pic-basis-middle-drop = बीच में ड्रॉप
pic-basis-wrong-show = ग़लत शो
pic-basis-wrong-show-drop = ग़लत शो, ड्रॉप
pic-basis-hand-rummy-dropped = हैंड रमी पर ड्रॉप
pic-wins = जीते
pic-score-delta = स्कोर { $delta }
# विजेता के बटन पर (छोटा शब्द ही आता है)।
pic-winner-mark = जीत
pic-out-dropped = ड्रॉप
pic-out-out = बाहर
pic-out-eliminated = मैच से बाहर
pic-out-left = चले गए
