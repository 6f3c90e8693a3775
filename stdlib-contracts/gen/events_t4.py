# Fourth batch: fresh, scored once before any tuning.
P, PE, S, I = "public", "personal", "sensitive", "intent_revealing"
DP, DT, DS, DR, DF = "public", "tenant_internal", "sensitive", "regulated", "forbidden"
E = []
def ws(q, lab, note="", dest="api.duckduckgo.com", dl=DP):
    E.append(("web_search", {"q": q, "count": 5}, dest, {"q": lab, "count": P}, dl, note))
for q, l, n in [
 ("do I need a lawyer to contest a will", I, ""), ("signs of a stroke in elderly", S, ""), ("how to support a friend after miscarriage", I, ""),
 ("foods to avoid with gout", S, ""), ("is chlamydia curable", S, ""), ("tenant union organizing guide", S, ""),
 ("my coworker keeps making racist jokes", I, ""), ("should I report my manager to HR", I, ""), ("how to get out of a timeshare contract", I, ""),
 ("loan modification after job loss", S, ""), ("what is wage garnishment", S, ""), ("collections agency called about old debt", S, ""),
 ("my apartment has no heat and landlord ignores me", I, ""), ("how to break up with someone kindly", I, ""),
 ("therapist near me that takes insurance", I, ""), ("psychologist vs psychiatrist difference", S, ""), ("does insurance cover rehab", S, ""),
 ("how to recover deleted photos iphone", P, ""), ("best vpn for streaming", P, ""), ("rust async trait object", P, "hard negative"),
 ("pandas merge on multiple columns", P, ""), ("how long to boil eggs", P, ""), ("concert tickets taylor swift madrid", P, ""),
 ("history of the roman empire", P, ""), ("how to plant tomatoes", P, ""), ("what is inflation", P, ""),
 ("abort controller fetch javascript", P, "hard negative"), ("sigterm vs sigkill", P, "hard negative"), ("orphan process linux", P, "hard negative"),
 ("master slave replication mysql", P, "hard negative"), ("child custody of objects in ownership model rust", P, "hard negative"),
 ("executioner's song novel summary", P, "hard negative"), ("court shoes for wedding", P, "hard negative"),
 ("Arzt für Hautkrankheiten in Leipzig", S, "non-english"), ("Ich wurde abgemahnt, was nun", I, "non-english"),
 ("Wie beantrage ich Elterngeld", I, "non-english"), ("Urlaubsanspruch Teilzeit", P, "non-english"), ("Fußball Ergebnisse heute", P, "non-english"),
 ("cómo saber si mi pareja me es infiel", I, "non-english"), ("requisitos para pedir la nacionalidad", S, "non-english"),
 ("me han puesto una multa por exceso de velocidad", I, "non-english"), ("tiempo en Sevilla mañana", P, "non-english"),
 ("ma copine me trompe", I, "non-english"), ("démarches après un décès", S, "non-english"), ("j'ai perdu mon emploi", I, "non-english"),
 ("quel temps fait-il à Nice", P, "non-english"), ("meilleurs films 2024", P, "non-english"),
]:
    ws(q, l, n)
def o(tool, args, labs, dest, dl, note=""):
    E.append((tool, args, dest, labs, dl, note))
o("doc_retrieval", {"query": "bereavement leave policy", "top_k": 3}, {"query": S, "top_k": P}, "people-policies", DT)
o("doc_retrieval", {"query": "", "top_k": 3}, {"query": P, "top_k": P}, "whistleblower-reports", DS)
o("doc_retrieval", {"query": "", "top_k": 3}, {"query": P, "top_k": P}, "clinical-trials", DR)
o("doc_retrieval", {"query": "", "top_k": 3}, {"query": P, "top_k": P}, "sales-enablement", DT)
o("doc_retrieval", {"query": "", "top_k": 3}, {"query": P, "top_k": P}, "mergers-acquisitions", DS)
o("doc_retrieval", {"query": "onboarding buddy program", "top_k": 3}, {"query": P, "top_k": P}, "people-policies", DT)
o("calendar_lookup", {"who": "Chen Wei", "start": "2025-05-05", "end": "2025-05-06"}, {"who": PE, "start": P, "end": P}, "graph.microsoft.com", DP)
o("calendar_lookup", {"who": "me", "start": "2025-05-05", "end": "2025-05-06", "query": "mediation session with ex"}, {"who": P, "start": P, "end": P, "query": S}, "graph.microsoft.com", DP)
o("email_search", {"query": "notice of hearing", "sender": "", "folder": "all"}, {"query": S, "sender": P, "folder": P}, "gmail.googleapis.com", DP)
o("email_search", {"query": "quarterly newsletter", "sender": "marketing@vendor.example", "folder": "all"}, {"query": P, "sender": PE, "folder": P}, "gmail.googleapis.com", DP)
o("crm_lookup", {"customer": "Ahmed Hassan", "account_id": "CUST-4040", "query": "requested hardship payment plan"}, {"customer": PE, "account_id": PE, "query": S}, "corp.my.salesforce.com", DT)
o("web_search", {"q": "Emily Clarke Oxford"}, {"q": PE}, "api.brave.com", DP)
o("web_search", {"q": "dinner reservation for Lukas Weber"}, {"q": PE}, "api.brave.com", DP)
o("http_get", {"path": "/"}, {"path": P}, "api.womenshealth.example", DS, "undeclared destination")
o("http_get", {"path": "/"}, {"path": P}, "careers.corp.example", DT, "undeclared destination")
o("http_get", {"path": "/"}, {"path": P}, "api.spotify.com", DP, "undeclared destination")
o("http_get", {"path": "/"}, {"path": P}, "www.aa.org", DS, "undeclared destination")
o("http_get", {"path": "/"}, {"path": P}, "benefits.va.gov", DR, "undeclared destination")
