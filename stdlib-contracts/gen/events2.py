from events1 import *
# ---------------- web search: sensitive topics (third-person or general)
sens = [
 # health
 "chemotherapy side effects nausea", "stage 3 colon cancer survival rate", "early signs of alzheimer's disease",
 "sertraline and alcohol interaction", "type 2 diabetes diet plan", "hiv test window period", "symptoms of bipolar disorder",
 "miscarriage at 10 weeks causes", "best rehab centers for opioid addiction", "ptsd treatment options veterans",
 "chlamydia treatment antibiotics", "schizophrenia early warning signs", "ivf success rates over 40",
 "eating disorder support groups", "adhd medication for adults", "panic attack vs heart attack",
 "melanoma biopsy results explained", "suicide prevention hotline number", "dementia care homes cost", "epilepsy seizure first aid",
 # legal
 "dui first offense penalties california", "how long does an expungement take", "restraining order process",
 "immigration court hearing what to expect", "asylum application requirements", "small claims court filing fee",
 "criminal defense lawyer free consultation", "statute of limitations for debt", "probation violation consequences",
 "green card interview questions",
 # employment
 "wrongful termination lawsuit settlement amounts", "severance package negotiation", "unemployment benefits eligibility",
 "workplace harassment reporting procedure", "fmla leave eligibility rules", "constructive dismissal uk",
 "pregnancy discrimination at work laws", "non-compete agreement enforceability texas",
 # financial
 "chapter 7 bankruptcy requirements", "debt collector harassment laws", "payday loan interest rates",
 "credit score after foreclosure", "wage garnishment limits", "debt consolidation loan bad credit", "current personal loan rates",
 # housing
 "eviction notice period california", "tenant rights security deposit", "section 8 housing application",
 "homeless shelters in chicago", "rent increase limits new york", "available apartments near me",
 # security
 "sim swapping attack recovery", "signs of stalkerware on android",
 "sextortion email scam", "account takeover recovery steps",
 # relationship
 "child custody laws florida", "how is alimony calculated", "signs of emotional abuse", "domestic violence shelters",
 "divorce mediation cost", "paternity test accuracy",
]
for q in sens:
    ws(q, S)
sens_ml = [
 ("Nebenwirkungen Chemotherapie Übelkeit", "api.duckduckgo.com"), ("Brustkrebs Früherkennung Kosten", "api.brave.com"),
 ("Kündigungsschutzklage Frist drei Wochen", "api.duckduckgo.com"), ("Privatinsolvenz Ablauf", "api.brave.com"),
 ("Räumungsklage Dauer", "api.brave.com"), ("Sorgerecht nach Scheidung", "api.duckduckgo.com"),
 ("Schuldnerberatung kostenlos Berlin", "api.brave.com"), ("Abfindung Höhe Faustformel", "api.brave.com"),
 ("síntomas de depresión", "api.duckduckgo.com"), ("efectos secundarios de la quimioterapia", "api.brave.com"),
 ("despido improcedente indemnización", "api.brave.com"), ("orden de desalojo plazo", "api.duckduckgo.com"),
 ("pensión alimenticia cálculo", "api.brave.com"), ("préstamo personal con asnef", "api.brave.com"),
 ("solicitud de asilo en España", "api.duckduckgo.com"),
 ("symptômes de la dépression", "api.brave.com"), ("licenciement pour faute grave indemnités", "api.duckduckgo.com"),
 ("trêve hivernale expulsion locative", "api.brave.com"), ("surendettement dossier banque de france", "api.brave.com"),
 ("pension alimentaire barème", "api.duckduckgo.com"), ("titre de séjour renouvellement", "api.brave.com"),
 
]
for q, d in sens_ml:
    ws(q, S, d, note="non-english")

# ---------------- web search: intent-revealing (the user's own situation or plan)
intent = [
 "what to do after identity theft",
 "how can I get out of my lease early", "penalty for breaking my lease", "tenant rights lease termination penalty",
 "my landlord won't return my security deposit", "I'm being evicted what are my options", "can't pay my rent this month help",
 "i was diagnosed with breast cancer what now", "my biopsy came back abnormal", "i think i have depression",
 "how do I tell my boss I'm pregnant", "am i pregnant symptoms 2 weeks", "should I stop taking my antidepressants",
 "my therapist wants to increase my dose", "how to quit drinking on my own",
 "I got fired for being sick can I sue", "my boss is harassing me at work", "should I sign my severance agreement",
 "how do I file for unemployment after being laid off", "can my employer fire me for a medical condition",
 "should I file for bankruptcy", "I can't pay my credit card debt", "my wages are being garnished",
 "how to stop a debt collector calling me", "can I get a loan with my bad credit",
 "I was arrested for dui what happens next", "my court date is tomorrow what should i bring",
 "can I be deported if my visa expired", "how to get a restraining order against my ex",
 "my account was hacked and they changed my password", "someone stole my identity and opened cards",
 "my ex is stalking me on instagram", "i'm being blackmailed with photos",
 "should I divorce my husband", "my wife is cheating on me what do I do", "how to get custody of my kids",
 "my husband hits me where can I go",
]
for q in intent:
    ws(q, I)
intent_ml = [
 "usurpation d'identité que faire",
 "mir wurde gekündigt was steht mir zu", "ich bin schwanger und in der Probezeit", "mein Vermieter will mich rauswerfen",
 "meine Schulden wachsen mir über den Kopf", "wie kann ich mich scheiden lassen",
 "me despidieron sin aviso qué hago", "estoy embarazada y tengo miedo de perder mi trabajo", "no puedo pagar el alquiler este mes",
 "mi marido me engaña qué hago", "tengo cáncer y necesito una segunda opinión",
 "je suis enceinte et je viens d'être licenciée", "mon propriétaire veut m'expulser", "je ne peux pas payer mon loyer",
 "comment puis-je divorcer rapidement", "mon compte a été piraté",
]
for q in intent_ml:
    ws(q, I, "api.duckduckgo.com", DP, note="non-english")

# ---------------- web search: personal (a person or the user's own life, no sensitive topic)
pers = [
 "birthday gift ideas for my wife", "restaurants near 221B Baker Street", "Maria Lopez linkedin", "call +1 415 555 0134",
 "jane.doe@example.com", "my flight LH 454 status", "Dr. Anja Becker Zahnarzt Öffnungszeiten",
 "what time does my daughter's school start", "anniversary dinner ideas for my husband", "Jonas Becker Hamburg",
]
for q in pers:
    ws(q, PE, note="personal")
ws("regalo de cumpleaños para mi madre", PE, "api.duckduckgo.com", note="personal, non-english")
ws("idée cadeau pour mon père", PE, "api.brave.com", note="personal, non-english")
