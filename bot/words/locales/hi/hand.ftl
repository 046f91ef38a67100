# खिलाड़ी का निजी हाथ वाला संदेश और उसके बटन।

hand-title = आपका हाथ — बाज़ी { $deal }
hand-title-none = आपका हाथ
hand-no-cards = अभी आपके हाथ में कोई पत्ता नहीं है।
hand-status-draw = **आपकी बारी:** गड्डी से पत्ता उठाइए या ढेर का ऊपर वाला पत्ता लीजिए।
hand-status-drew = **आपकी बारी:** आपने { $card } 🆕 उठाया — अब एक पत्ता फेंकिए (या डिक्लेयर कीजिए)।
hand-status-discard = **आपकी बारी:** एक पत्ता फेंकिए (या डिक्लेयर कीजिए)।
hand-status-waiting = **{ $name }** की बारी का इंतज़ार।
hand-status-over = बाज़ी ख़त्म हो गई है।
hand-table-line = ढेर पर { $top } · इंडिकेटर { $indicator } ({ $wild }) · गड्डी में { $stock }
hand-table-line-waiting = ढेर पर { $top } · इंडिकेटर { $indicator } ({ $wild })
hand-taken = आपने ढेर से { $card } उठाया: उसे तुरंत वापस नहीं फेंक सकते।
hand-wild-mark = (* वाइल्ड जोकर का निशान है)

group-pure = प्योर सीक्वेंस
group-impure = सीक्वेंस
group-set = सेट
part-wild = वाइल्ड जोकर
part-pairs = जोड़े (आधा सेट)
part-near-runs = अधूरे सीक्वेंस
part-nothing = अभी किसी से मेल नहीं
part-unmatched = बेमेल पत्ते
part-unmatched-suggested = बेमेल पत्ते (फेंकने का सुझाया पत्ता भी)
suit-spades = ♠ हुकुम
suit-hearts = ♥ पान
suit-diamonds = ♦ ईंट
suit-clubs = ♣ चिड़ी

hand-footer-off = रंग के हिसाब से लगे हैं। इस टेबल पर हिंट बंद हैं: अपना हाथ आप ही परखिए।
hand-footer-suit = रंग के हिसाब से लगे हैं।
hand-footer-suit-deadwood = अभी बेमेल पत्तों के { $deadwood } अंक। रंग के हिसाब से लगे हैं।
hand-footer-groups = हिंट: सिर्फ़ ग्रुप। कुछ भी गिना या जाँचा नहीं जाता।
hand-footer-discard = { $card } फेंकने पर बेमेल पत्तों के { $deadwood } अंक बचेंगे।
hand-footer-declare = { $card } फेंकने पर बेमेल पत्तों के { $deadwood } अंक बचेंगे — आप डिक्लेयर कर सकते हैं!
hand-footer-deadwood = बेमेल पत्तों के { $deadwood } अंक (अभी कोई डिक्लेयर करे तो जुर्माना: { $penalty })।
hand-leaves-valid = इसके बाद डिक्लेयर सही होगा
hand-leaves-deadwood = बेमेल पत्तों के { $deadwood } अंक बचेंगे

hand-over-title = बाज़ी { $deal } ख़त्म
hand-over-void = गड्डी ख़त्म हो गई: बाज़ी रद्द, कोई कुछ नहीं देता।
hand-over-won = **आपने डिक्लेयर किया!** 🎉 आपका जीतने वाला हाथ:
hand-over-lost = यह बाज़ी **{ $winner }** ने जीती।
hand-over-lost-pay = यह बाज़ी **{ $winner }** ने जीती। आप { $amount } देंगे।
hand-over-nobody = कोई नहीं
hand-over-footer = नतीजे टेबल वाले संदेश पर हैं।

show-no-pure = कोई प्योर सीक्वेंस नहीं
show-two-runs = दो सीक्वेंस चाहिए
show-two-runs-one = दो सीक्वेंस चाहिए (इसमें एक है)
show-loose = ये पत्ते किसी ग्रुप में नहीं बैठते: { $cards }
show-breaks-rule = जमावट किसी नियम के ख़िलाफ़ है
show-invalid = **आपका शो सही नहीं था**: इसमें { $problems }।
show-cost = इसकी कीमत { $cost } है; बाकी खिलाड़ी खेलते रहेंगे, आपके पत्ते इस बाज़ी से बाहर।
show-cost-paid = इसकी कीमत आपको { $cost } पड़ी।

cost-chips = { $value } चिप्स
cost-points = { $value } अंक
wild-nothing = कोई वाइल्ड नहीं
wild-jokers = सिर्फ़ प्रिंटेड जोकर वाइल्ड हैं
wild-rank = { $rank } और प्रिंटेड जोकर वाइल्ड हैं

timeout-threw = ⏰ आपका समय ख़त्म हुआ: बॉट ने आपकी जगह { $card } फेंका। { $left ->
        [one] लगातार एक और बार समय ख़त्म हुआ तो आप इस बाज़ी से ड्रॉप हो जाएँगे।
       *[other] लगातार { $left } और बार समय ख़त्म हुआ तो आप इस बाज़ी से ड्रॉप हो जाएँगे।
    }
timeout-declared = ⏰ आपका समय ख़त्म हुआ: बॉट ने आपकी जगह डिक्लेयर किया। { $left ->
        [one] लगातार एक और बार समय ख़त्म हुआ तो आप इस बाज़ी से ड्रॉप हो जाएँगे।
       *[other] लगातार { $left } और बार समय ख़त्म हुआ तो आप इस बाज़ी से ड्रॉप हो जाएँगे।
    }

button-confirm-drop = ड्रॉप पक्का — कीमत { $cost }
button-keep-playing = खेलते रहें
button-draw = गड्डी से उठाएँ
button-take = { $card } उठाएँ
button-take-any = ढेर से उठाएँ
button-hand-rummy = हैंड रमी डिक्लेयर करें
button-drop = ड्रॉप ({ $cost })
menu-discard = एक पत्ता फेंकें…
menu-declare = डिक्लेयर, यह पत्ता फेंककर…
button-declare = डिक्लेयर — { $card } फेंकें
button-declare-not-yet = डिक्लेयर (अभी नहीं हो सकता)
button-group = ग्रुप में लगाएँ
button-sort = रंग से लगाएँ
button-refresh = ताज़ा करें
button-text-only = सिर्फ़ टेक्स्ट
button-card-images = पत्तों की तस्वीरें
hand-replaced = इस हाथ की जगह अब नया संदेश है — सबसे नया वाला इस्तेमाल करें।
hand-picture = आपके हाथ के पत्ते, जैसे नीचे ग्रुप में लिखे हैं
