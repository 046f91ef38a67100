## टेबल की हाल की चालें (render/log.py), रखे गए तथ्यों से (bot/engine/public_log.py)।
## $who खिलाड़ी का नाम है, $card पत्ते का कोड (10♥)।

log-deal = बाज़ी { $n }: { $by } पत्ते बाँट रहे हैं
log-drew = { $who } ने गड्डी से पत्ता उठाया
log-took = { $who } ने ढेर से { $card } उठाया
log-threw = { $who } ने { $card } फेंका
log-auto-threw = ⏰ { $who } का समय ख़त्म; बॉट ने उनकी ओर से { $card } फेंका
log-auto-declared = ⏰ { $who } का समय ख़त्म; बॉट ने उनकी ओर से डिक्लेयर किया! 🎉
log-dropped = { $who } ने ड्रॉप किया ({ $unit ->
        [chips] { $cost } चिप्स
       *[points] { $cost } अंक
    })
log-left = { $who } टेबल छोड़ गए
log-declared = { $who } ने डिक्लेयर किया! 🎉
log-wrong-show = { $who } का शो ग़लत निकला
log-timeout-dropped = ⏰ लगातार { $count } बार समय ख़त्म होने पर { $who } ड्रॉप हो गए
log-seating-draw = 🎴 सीट के लिए पत्ते: { $drawn }
log-seating-tie-break = 🎴 सीट के लिए पत्ते (बराबरी तोड़ने को): { $drawn }
log-seats = 🎴 सीटें, सबसे बड़े पत्ते से: { $order }; { $dealer } पत्ते बाँटेंगे (सबसे छोटा पत्ता)
