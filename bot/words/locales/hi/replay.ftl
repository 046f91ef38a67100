## बाज़ी या मैच को दोबारा देखने का पेज (bot/replay): उसके बटन और नाम, और हर चाल शब्दों में।
## टेबल की चालें (log.ftl) और नतीजों के वाक्य (public.ftl) वहीं से लिए जाते हैं; यहाँ बस वह है
## जो पेज उनके अलावा कहता है। $who और $name खिलाड़ियों के नाम हैं; $card पत्ता (10♥)।

replay-title = बाज़ी { $deal } दोबारा · { $profile }
replay-match-title = मैच दोबारा · { $profile } · { $deals } बाज़ी
replay-made = हैंड-हिस्ट्री से खेल के अपने इंजन ने बनाया: इस पेज की हर टेबल इंजन की है। इसे इंटरनेट की ज़रूरत नहीं।
replay-noscript = बाज़ी को चाल-दर-चाल देखने के लिए इस पेज को JavaScript चाहिए।
replay-start = बाज़ी की शुरुआत
replay-back = एक चाल पीछे
replay-forward = एक चाल आगे
replay-end = बाज़ी का अंत
replay-play = चलाएँ
replay-pause = रोकें
replay-speed = रफ़्तार
replay-deal = बाज़ी
replay-deal-option = बाज़ी { $deal }
replay-move = चाल
replay-move-count = चाल { $move } / { $moves }
replay-dealt = जैसे बाँटे गए
replay-view = देखें
replay-view-all = सबके हाथ
replay-view-seat = जैसा { $name } ने देखा
replay-keys = बटन: ← → एक चाल, Home और End बाज़ी की शुरुआत और अंत, Page Up और Page Down दूसरी बाज़ी, स्पेस चलाता है। फ़ोन पर बाएँ या दाएँ सरकाएँ।
replay-hidden = { $count } पत्ते, अंत तक छिपे
replay-stock = गड्डी
replay-stock-count = { $count } पत्ते
replay-pile = ढेर
replay-pile-empty = ढेर ख़ाली है।
replay-pile-size = ढेर में { $count } पत्ते
replay-thrown-by = { $name } ने फेंका
replay-opening = शुरुआत
replay-indicator = इंडिकेटर
replay-indicator-none = कोई नहीं
replay-dealer = डीलर
replay-new = अभी उठाया
replay-turn-draw = { $name } की बारी: पत्ता उठाना
replay-turn-discard = { $name } की बारी: पत्ता फेंकना
replay-over = बाज़ी ख़त्म हो गई।
replay-deadwood = बेमेल पत्ते { $deadwood }
replay-scores-before = इस बाज़ी से पहले का स्कोर
replay-scores-after = बाज़ी { $deal } के बाद का स्कोर
replay-eliminated = { $name } मैच से बाहर ({ $total } अंक)
replay-first = पहली चाल { $who } की
replay-drew = { $who } ने गड्डी से { $card } उठाया
replay-auto-drew = ⏰ बॉट ने { $who } की ओर से गड्डी से { $card } उठाया
replay-auto-drew-hidden = ⏰ बॉट ने { $who } की ओर से गड्डी से पत्ता उठाया
replay-auto-took = ⏰ बॉट ने { $who } की ओर से ढेर से { $card } उठाया
replay-timeout = ⏰ { $who } का समय ख़त्म (लगातार { $count } बार): बॉट उनकी ओर से खेलता है
replay-reshuffle = गड्डी ख़त्म: ढेर के ऊपर वाले पत्ते के नीचे के पत्ते फेंटकर { $count } पत्तों की नई गड्डी बनी

## रीप्ले पेज के साथ जाने वाला निजी संदेश।

replay-deal-caption = टेबल { $table }, बाज़ी { $deal } का रीप्ले: फ़ाइल किसी भी ब्राउज़र में खोलें, फ़ोन पर भी। यह बिना इंटरनेट के चलती है।
replay-match-caption = टेबल { $table } की { $deals } { $deals ->
        [one] बाज़ी
       *[other] बाज़ियों
    } का रीप्ले: फ़ाइल किसी भी ब्राउज़र में खोलें, फ़ोन पर भी। यह बिना इंटरनेट के चलती है।
replay-unavailable = बॉट का यह वर्ज़न उस बाज़ी का रिकॉर्ड दोबारा नहीं चला सकता, इसलिए उसकी हैंड-हिस्ट्री भेजी है।
replay-match-unavailable = मैच का रीप्ले एक पेज में नहीं बन सका, इसलिए उसकी आख़िरी बाज़ी भेजी है।
