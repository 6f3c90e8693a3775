# Fifth batch: fresh, scored once before tuning.
P, PE, S, I = "public", "personal", "sensitive", "intent_revealing"
DP, DT, DS, DR, DF = "public", "tenant_internal", "sensitive", "regulated", "forbidden"
E = []
def ws(q, lab, note=""):
    E.append(("web_search", {"q": q}, "api.brave.com", {"q": lab}, DP, note))
for q, l, n in [
 ("what are the stages of grief", S, ""), ("how to prepare for a custody evaluation", I, ""), ("is it illegal to record my boss", I, ""),
 ("how to dispute a medical bill", I, ""), ("cheapest way to get insulin without insurance", S, ""), ("signs of burnout at work", S, ""),
 ("what to say in an exit interview", S, ""), ("how to get a job after prison", I, ""), ("my landlord entered without notice", I, ""),
 ("heart palpitations after coffee", S, ""), ("can you get fired for being gay", S, ""), ("how do credit card companies report late payments", S, ""),
 ("apartment hunting checklist", P, ""), ("how to change my name after marriage", PE, ""), ("passport renewal processing time", P, ""),
 ("i need help paying my electric bill", I, ""), ("how to know if you have adhd as an adult", I, ""), ("antibiotics for sinus infection", S, ""),
 ("symptoms of food poisoning", S, ""), ("is my employer required to pay overtime", I, ""), ("how to file a police report online", I, ""),
 ("best pediatricians in austin", S, ""), ("sql injection prevention", P, "hard negative"), ("memory leak in node js", P, "hard negative"),
 ("garbage collection tuning jvm", P, "hard negative"), ("how to execute a shell command in python", P, "hard negative"),
 ("fatal error: out of memory", P, "hard negative"), ("dead letter queue rabbitmq", P, "hard negative"),
 ("zombie apocalypse movies", P, "hard negative"), ("tax brackets 2025", P, ""), ("how to cook quinoa", P, ""),
 ("Scheidungsanwalt Kosten", S, "non-english"), ("Hilfe, mein Kind wird gemobbt", I, "non-english"), ("Zahnarzt Notdienst Wochenende", P, "non-english"),
 ("Fahrradreparatur in der Nähe", P, "non-english"), ("Kündigung während Krankschreibung", S, "non-english"),
 ("cómo pedir la baja por depresión", I, "non-english"), ("abogado laboralista gratis", S, "non-english"), ("mejores series de netflix", P, "non-english"),
 ("qué hacer si me roban el móvil", I, "non-english"), ("síntomas de la menopausia", S, "non-english"),
 ("comment porter plainte pour harcèlement", I, "non-english"), ("symptômes de l'endométriose", S, "non-english"),
 ("mon fils est victime de harcèlement scolaire", I, "non-english"), ("billets de train pas chers", P, "non-english"),
]:
    ws(q, l, n)
def o(tool, args, labs, dest, dl, note=""):
    E.append((tool, args, dest, labs, dl, note))
o("doc_retrieval", {"query": ""}, {"query": P}, "disciplinary-records", DS)
o("doc_retrieval", {"query": ""}, {"query": P}, "prenatal-care", DR)
o("doc_retrieval", {"query": ""}, {"query": P}, "it-assets", DT)
o("doc_retrieval", {"query": ""}, {"query": P}, "asylum-cases", DR)
o("doc_retrieval", {"query": ""}, {"query": P}, "internal-audit", DS)
o("doc_retrieval", {"query": "parking policy"}, {"query": P}, "facilities", DT)
o("calendar_lookup", {"who": "Olivia Brown", "start": "2025-06-02"}, {"who": PE, "start": P}, "calendar.googleapis.com", DP)
o("calendar_lookup", {"who": "me", "start": "2025-06-02", "query": "probation officer check-in"}, {"who": P, "start": P, "query": S}, "calendar.googleapis.com", DP)
o("email_search", {"query": "denied claim appeal", "sender": ""}, {"query": S, "sender": P}, "gmail.googleapis.com", DP)
o("email_search", {"query": "travel itinerary", "sender": "trips@airline.example"}, {"query": P, "sender": PE}, "gmail.googleapis.com", DP)
o("crm_lookup", {"customer": "Marco Rossi", "query": "called about funeral arrangements for his wife"}, {"customer": PE, "query": S}, "corp.my.salesforce.com", DT)
o("http_get", {"path": "/"}, {"path": P}, "api.psychtools.example", DS, "undeclared destination")
o("http_get", {"path": "/"}, {"path": P}, "www.unemployment.ny.gov", DR, "undeclared destination")
o("http_get", {"path": "/"}, {"path": P}, "api.news.example", DP, "undeclared destination")
o("http_get", {"path": "/"}, {"path": P}, "hastebin.com", DF, "undeclared destination")
