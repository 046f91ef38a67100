## नियम: इंजन का नियम-डेटा शब्दों में (render/rules.py), और वे नियम-विकल्प जिन्हें इंजन
## मना करता है। विकल्प और प्रोफ़ाइल के नाम (`pool_limit`, `classic`) वैसे ही रहते हैं।

## नियम-विकल्प जो इंजन मना करता है

rule-option-unknown-option = `{ $names }` नाम का कोई नियम-विकल्प नहीं है।
rule-option-unknown-profile = अनजान प्रोफ़ाइल `{ $name }`; इनमें से चुनें: { $choices }।
rule-option-profile-only = `{ $name }` प्रोफ़ाइल के साथ तय होता है, बदला नहीं जा सकता; कोई और प्रोफ़ाइल चुनें।
rule-option-not-one-of = `{ $name }` इनमें से कोई एक होता है: { $choices }; `{ $value }` नहीं।
rule-option-not-true-false = `{ $name }` true या false होता है, `{ $value }` नहीं।
rule-option-not-whole-number = `{ $name }` पूरी संख्या होनी चाहिए, `{ $value }` नहीं।
rule-option-not-settable = `{ $name }` विकल्प के तौर पर नहीं बदला जा सकता।
rule-option-no-name = विकल्प `{ $item }` का कोई नाम नहीं है; NAME या NAME=VALUE लिखें।
rule-option-takes-no-value = विकल्प `{ $name }` के साथ कोई मान नहीं दिया जाता।
rule-option-min-players = टेबल पर कम से कम { $low } खिलाड़ी चाहिए, { $value } नहीं।
rule-option-max-players = टेबल पर ज़्यादा से ज़्यादा { $high } खिलाड़ी बैठ सकते हैं, { $value } नहीं।
rule-option-negative = `{ $name }` शून्य से कम नहीं हो सकता, { $value } नहीं।
rule-option-set-min = सेट में कम से कम 3 पत्ते होते हैं, { $value } नहीं।
rule-option-not-for-format = { $format } मैच में `{ $name }` विकल्प नहीं होता।
rule-option-deals-choices = बाज़ियों की गिनती इनमें से कोई एक होती है: { $choices }।
rule-option-deals-or-target = बाज़ियों की गिनती या लक्ष्य स्कोर चुनें।
rule-option-pool-needs-limit = पूल मैच के लिए पूल की सीमा चाहिए।
rule-option-out-of-range = `{ $name }` { $low } से { $high } के बीच होना चाहिए, { $value } नहीं।
rule-option-seats = `{ $profile }` में { $low }–{ $high } खिलाड़ी बैठते हैं, { $value } नहीं।

## लिखे गए पत्ते जो पढ़े नहीं जा सके (/rummy check, टर्मिनल), इंजन के कोड से

card-error-empty = एक पत्ता ख़ाली दिया गया
card-error-not-a-card = '{ $token }' कोई पत्ता नहीं है (पहले नंबर A,2-10,J,Q,K फिर रंग S,H,D,C लिखें, या JK)
card-error-no-cards = कोई पत्ता नहीं दिया गया
card-error-too-many = '{ $token }' { $count } बार आया है, पर खेल की गड्डियों में { $joker ->
        [yes] सिर्फ़ { $limit } प्रिंटेड जोकर होते हैं
       *[no] { $code } सिर्फ़ { $limit } बार होता है
    }

## हर प्रोफ़ाइल कुछ शब्दों में (स्लैश कमांड में प्रोफ़ाइल के विकल्प)

profile-points = एक बाज़ी, चिप्स, { $cap } की सीमा
profile-pool101 = { $limit } पर बाहर
profile-pool201 = { $limit } पर बाहर
profile-deals = तय गिनती की बाज़ियाँ
profile-paplu = पारंपरिक, लेन-देन, कोई सीमा नहीं
profile-classic = { $low }-{ $high } खिलाड़ी, घर के नियम

## नियमों का सार (/rummy rules, /rummy help का आख़िरी पन्ना)

rules-head = **{ $name }** ({ $low }–{ $high } खिलाड़ी)
rules-deck = { $players } खिलाड़ियों तक { $decks ->
        [one] { $decks } गड्डी
       *[other] { $decks } गड्डियाँ
    } + { $jokers } जोकर
rules-set-open = { $min } या ज़्यादा पत्ते
rules-set-exact = ठीक { $min } पत्ते
rules-set-range = { $min }–{ $max } पत्ते
rules-joker-ind-aces = सारे इक्के वाइल्ड जोकर बन जाते हैं
rules-joker-ind-jokers = सिर्फ़ बाक़ी प्रिंटेड जोकर वाइल्ड होते हैं
rules-lone-protected = उसका सबसे अच्छा प्योर सीक्वेंस बच जाता है, बाक़ी पत्ते गिने जाते हैं
rules-lone-all = हर पत्ता गिना जाता है
rules-cap = एक बाज़ी का जुर्माना ज़्यादा से ज़्यादा { $cap } होता है
rules-no-cap = एक बाज़ी के जुर्माने की कोई सीमा नहीं है
rules-first-drop = { $cost }
rules-first-drop-bottom = { $cost } (पत्ते फेंटकर गड्डी के नीचे जाते हैं)
rules-invalid-penalty = { $penalty } देता है और बाज़ी से बाहर हो जाता है; बाक़ी खिलाड़ी खेलते रहते हैं
rules-invalid-middle = कुछ नहीं जीतता और इसे बीच का ड्रॉप ({ $middle }) माना जाता है; बाक़ी खिलाड़ी खेलते रहते हैं
rules-stock-void = बाज़ी रद्द हो जाती है (कोई कुछ नहीं देता)
rules-stock-reshuffle = ढेर का ऊपरी पत्ता छोड़कर बाक़ी पत्ते फेंटकर नई गड्डी बनती है
rules-hand-rummy-not-allowed = इसकी इजाज़त नहीं
rules-hand-rummy-normal = पहली बारी में बिना पत्ता उठाए हो सकती है; सामान्य दरें
rules-hand-rummy-double = पहली बारी में बिना पत्ता उठाए हो सकती है; जो खिलाड़ी चाल चल चुके वे दुगना देते हैं, बाक़ी एक गुना, ड्रॉप हो चुके खिलाड़ी { $dropped }
rules-hand-rummy-double-no-drops = पहली बारी में बिना पत्ता उठाए हो सकती है; जो खिलाड़ी चाल चल चुके वे दुगना देते हैं, बाक़ी एक गुना
rules-match-single = एक बाज़ी; हर हारने वाला अपना जुर्माना चिप्स में जीतने वाले को देता है
rules-match-pool = जुर्माने जुड़ते जाते हैं; { $limit } या ज़्यादा होने पर आप बाहर; आख़िर तक बचा खिलाड़ी जीतता है
rules-match-deals = { $deals ->
        [one] { $deals } बाज़ी
       *[other] { $deals } बाज़ियाँ
    }; सबसे कम कुल स्कोर वाला जीतता है
rules-match-rotation = बाँटने वाले का एक पूरा चक्कर; हर भुगतान लेन-देन है; सबसे ज़्यादा शुद्ध कमाई वाला जीतता है
rules-match-target-deals = { $deals ->
        [one] { $deals } बाज़ी
       *[other] { $deals } बाज़ियाँ
    }; भुगतान लेन-देन हैं; सबसे ज़्यादा शुद्ध कमाई वाला जीतता है
rules-match-target-score = { $target } अंक तक; भुगतान लेन-देन हैं; सबसे ज़्यादा शुद्ध कमाई वाला जीतता है
rules-drop-to-winner = जीतने वाले को मिलता है
rules-drop-to-total = आपके कुल स्कोर में जुड़ता है
rules-cards = • पत्ते: { $sizes }। हर खिलाड़ी को 13; इंडिकेटर का पत्ता अपने नंबर को वाइल्ड बनाता है (इंडिकेटर प्रिंटेड जोकर हो तो: { $joker })। वाइल्ड पत्ते 0 गिने जाते हैं।
rules-declare = • डिक्लेयर में सभी 13 पत्ते ग्रुप में हों: कम से कम दो सीक्वेंस, उनमें कम से कम एक प्योर सीक्वेंस (बिना जोकर)। सेट: { $sets }, अलग-अलग रंग के।
rules-values = • मूल्य: A K Q J 10 के 10, 2–9 जितने के पत्ते उतने।
rules-lone = • जिस हारने वाले के पास प्योर सीक्वेंस हो पर दूसरा सीक्वेंस न हो: { $lone }। { $cap }।
rules-drop = • पहला पत्ता उठाने से पहले ड्रॉप: { $first }; बाद में: { $middle } ({ $paid })।
rules-invalid = • ग़लत डिक्लेयर: { $invalid }।
rules-stock = • गड्डी ख़त्म होने पर: { $stock }।
rules-hand-rummy = • हैंड रमी: { $rule }।
rules-first-turn-half = • कोई अपनी पहली बारी में ही जीत जाए: जिनकी बारी अभी नहीं आई वे आधा देते हैं।
rules-indicator-doubles = • इंडिकेटर में प्रिंटेड जोकर कटे तो हर भुगतान दुगना होता है।
rules-no-dropping = • इस टेबल पर ड्रॉप नहीं होता।
rules-match = • मैच: { $match }।
rules-assisted = • डिक्लेयर का बटन तभी आता है जब इंजन आपकी जमावट जाँच ले।
rules-honor = • आप कोई भी जमावट डिक्लेयर कर सकते हैं; ग़लत शो पर जुर्माना लगता है।

## /rummy check: लिखे गए हाथ पर इंजन का फ़ैसला

ruling-head = `{ $profile }`, इंडिकेटर { $indicator }: { $wild }।
ruling-declarable = ✅ डिक्लेयर हो सकता है: { $cards } फेंकें।
ruling-not-yet = ❌ अभी डिक्लेयर नहीं हो सकता। सबसे अच्छा फेंकने लायक पत्ता: { $card }।
ruling-valid = ✅ यह सही डिक्लेयर है।
ruling-invalid = ❌ यह सही डिक्लेयर नहीं है।
ruling-group = • { $group }: { $cards }
ruling-unmatched = • बेमेल पत्ते: { $cards }
ruling-penalty = बेमेल पत्तों के अंक { $deadwood }; अभी पकड़े गए तो जुर्माना: **{ $penalty }**।
ruling-penalty-capped = बेमेल पत्तों के अंक { $deadwood }; अभी पकड़े गए तो जुर्माना: **{ $penalty }** ({ $deadwood } से घटाकर)।
