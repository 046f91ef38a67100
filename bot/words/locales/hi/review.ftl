# बाज़ी के बाद "Review my play" (समीक्षा): bot/discord_ui/render/review.py

review-nothing = उस बाज़ी में आपने खुद कोई चाल नहीं चली, इसलिए समीक्षा के लिए कुछ नहीं है।
review-head = बाज़ी { $deal }: आपने { $moves ->
        [one] { $moves } चाल चली
       *[other] { $moves } चालें चलीं
    }; विशेषज्ञ AI इनमें से { $agreed } वैसे ही चलता और { $changed } अलग।
review-head-same = बाज़ी { $deal }: आपने { $moves ->
        [one] { $moves } चाल चली, और विशेषज्ञ AI भी उसे
       *[other] { $moves } चालें चलीं, और विशेषज्ञ AI भी हर एक को
    } वैसे ही चलता।
review-no-mistakes = { $changed ->
        [one] वह चाल लगभग बराबर थी: कोई ख़ास बात नहीं।
       *[other] वे { $changed } चालें लगभग बराबर थीं: कोई ख़ास बात नहीं।
    }
review-listed-all = { $listed ->
        [one] वह नीचे है।
       *[other] सभी { $listed } नीचे हैं।
    }
review-listed-some = { $listed ->
        [one] सबसे अहम एक नीचे है
       *[other] सबसे अहम { $listed } नीचे हैं
    }; { $unlisted ->
        [one] बाकी एक लगभग बराबर थी या छोटी
       *[other] बाकी { $unlisted } लगभग बराबर थीं या छोटी
    }।

review-threw-kept = बारी { $turn }: आपने { $played } फेंका और { $better } रखा; { $better } फेंकना बेहतर होता।
review-played-on = बारी { $turn }: आप खेलते रहे; ड्रॉप करना बेहतर होता।
review-dropped = बारी { $turn }: आपने ड्रॉप किया; खेलते रहना बेहतर होता।
review-move = बारी { $turn }: आपने { $did }; { $alt } बेहतर होता।

review-did-stock = गड्डी से पत्ता उठाया
review-did-take = ढेर से { $card } उठाया
review-did-take-any = ढेर से पत्ता उठाया
review-did-drop = ड्रॉप किया
review-did-declare = { $card } फेंककर डिक्लेयर किया
review-did-declare-dealt = बँटे हुए पत्तों से ही डिक्लेयर किया
review-did-throw = { $card } फेंका
review-did-throw-any = एक पत्ता फेंका

review-alt-stock = गड्डी से उठाना
review-alt-take = ढेर से { $card } उठाना
review-alt-take-any = ढेर से पत्ता उठाना
review-alt-drop = ड्रॉप करना
review-alt-declare = { $card } फेंककर डिक्लेयर करना
review-alt-declare-dealt = बँटे हुए पत्तों से डिक्लेयर करना
review-alt-throw = { $card } फेंकना
review-alt-throw-any = कोई और पत्ता फेंकना

review-missed-declaration = { "  " }आपके पास सही डिक्लेयर था; खेलते रहने से { $points } अंक हाथ में रह गए।
review-drop-cost-lose = { "  " }ड्रॉप में { $cost } लगे; इस हाथ से खेलते रहने पर लगभग { $chips } जाने का अनुमान था।
review-drop-cost-win = { "  " }ड्रॉप में { $cost } लगे; इस हाथ से खेलते रहने पर लगभग { $chips } जीतने का अनुमान था।
review-gain-short = { "  " }आपके लिए लगभग { $gain } बेहतर।
review-drop-out = { "  " }ड्रॉप में { $cost } लगे और आप मैच से बाहर हो गए।
review-match-chances = { "  " }मैच जीतने की संभावना: ड्रॉप के बाद लगभग { $drop }%, खेलते रहने पर लगभग { $play }%।
review-gain = { "  " }विशेषज्ञ के हिसाब से आपके लिए लगभग { $gain } बेहतर।
review-amount = { $unit ->
        [chips] { NUMBER($value, minimumFractionDigits: 1, maximumFractionDigits: 1) } चिप्स
       *[points] { NUMBER($value, minimumFractionDigits: 1, maximumFractionDigits: 1) } अंक
    }
review-an-opponent = कोई विरोधी
review-fewer-throw = { "  " }{ $card } फेंकने पर, अगर { $who } डिक्लेयर कर देता, तो आपके हाथ में { $fewer } अंक कम रहते ({ $played } की जगह { $better })।
review-fewer-it = { "  " }ऐसा करने पर, अगर { $who } डिक्लेयर कर देता, तो आपके हाथ में { $fewer } अंक कम रहते ({ $played } की जगह { $better })।
review-broke-group = { "  " }आपके हाथ में { $card } का मेल { $partners } से था।
review-closer = { "  " }इससे आप { $played } की जगह { $better } होते।
review-away = { $n ->
        [0] सही डिक्लेयर के साथ
        [1] डिक्लेयर से एक पत्ता दूर
       *[other] डिक्लेयर से { $n } पत्ते दूर
    }
review-more-helpful = { "  " }अगली बार उठाने में ज़्यादा पत्ते काम आते: { $played } की जगह { $better }।
