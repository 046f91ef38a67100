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
