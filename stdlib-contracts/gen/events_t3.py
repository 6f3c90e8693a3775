# Third batch: fresh phrasings, written without consulting the lexicons; scored once, then kept.
P, PE, S, I = "public", "personal", "sensitive", "intent_revealing"
DP, DT, DS, DR, DF = "public", "tenant_internal", "sensitive", "regulated", "forbidden"
E = []
def ws(q, lab, dest="api.brave.com", dl=DP, note=""):
    E.append(("web_search", {"q": q}, dest, {"q": lab}, dl, note))
for q, l, n in [
 ("how to lower cortisol naturally", I, ""), ("best oncologists in boston", S, ""), ("my son was diagnosed with autism what now", I, ""),
 ("rights of employees during restructuring", S, ""), ("how much notice does a landlord need to give", S, ""),
 ("can police search my car without a warrant", I, ""), ("free legal help for renters", S, ""),
 ("i owe 30k on credit cards and can't keep up", I, ""), ("bankruptcy lawyer near me", I, ""),
 ("how to talk to kids about divorce", I, ""), ("grief support after losing a parent", S, ""),
 ("what to do if you are being followed", I, ""), ("my ex posted private photos of me", I, ""),
 ("early pregnancy symptoms", S, ""), ("std clinic open saturday", S, ""), ("ozempic side effects hair loss", S, ""),
 ("how long is sick leave paid in germany", S, ""), ("work from home policy examples", P, ""),
 ("best laptops for programming 2025", P, ""), ("how to write a cover letter", P, ""), ("mortgage calculator", P, ""),
 ("what is a roth ira", P, ""), ("how to negotiate salary for a new job", P, ""), ("tips for first marathon", P, ""),
 ("unit conversion cups to grams", P, ""), ("the last of us season 2 release date", P, ""), ("how do elections work in germany", P, ""),
 ("docker compose healthcheck example", P, "hard negative"), ("how to abort a git rebase", P, "hard negative"),
 ("terminate ec2 instance cli", P, "hard negative"), ("python kill thread gracefully", P, "hard negative"),
 ("divorce statistics europe 2020", S, ""), ("fired clay pottery kiln temperature", P, "hard negative"),
 ("court ruling on net neutrality", P, ""), ("famous divorce cases hollywood", S, ""),
 ("depression glass antique value", P, "hard negative"), ("gay marriage legalization history", S, ""),
 ("Krankschreibung online bekommen", S, "non-english"), ("mein Chef schreit mich an", I, "non-english"),
 ("Schwangerschaftstest wann machen", S, "non-english"), ("Mietminderung bei Schimmel", S, "non-english"),
 ("Restaurants in Köln Innenstadt", P, "non-english"), ("Steuererklärung Frist 2024", P, "non-english"),
 ("cómo denunciar a mi casero", I, "non-english"), ("síntomas del infarto en mujeres", S, "non-english"),
 ("me quieren echar del piso", I, "non-english"), ("vuelos baratos a Londres", P, "non-english"),
 ("trabajo remoto en España ley", P, "non-english"), ("mi novio me controla el móvil", I, "non-english"),
 ("je n'arrive plus à payer mes crédits", I, "non-english"), ("arrêt de travail pour burn-out", S, "non-english"),
 ("avocat droit de la famille Paris", S, "non-english"), ("horaires de la poste", P, "non-english"),
 ("mon employeur ne me paie pas mes heures sup", I, "non-english"), ("recette crêpes sans lait", P, "non-english"),
]:
    ws(q, l, note=n)
def dr(q, ql, dest, dl, note=""):
    E.append(("doc_retrieval", {"query": q, "top_k": 3}, dest, {"query": ql, "top_k": P}, dl, note))
for q, ql, d, dl in [
 ("", P, "hr-terminations", DS), ("", P, "psych-evals", DR), ("", P, "cancer-registry", DR), ("", P, "visa-applications", DR),
 ("", P, "legal-holds", DS), ("", P, "fraud-investigations", DS), ("", P, "devops", DT), ("", P, "design-system", DT),
 ("", P, "customer-success", DT), ("", P, "payroll-2024", DS), ("", P, "benefits-enrollment", DS), ("", P, "patient-intake", DR),
 ("quarterly okr review", P, "people-ops", DT), ("accommodation request for disability", S, "people-ops", DT),
 ("Mutterschutz Regelungen", S, "handbuch", DT), ("acoso laboral protocolo", S, "politicas", DT),
]:
    dr(q, ql, d, dl)
def o(tool, args, labs, dest, dl, note=""):
    E.append((tool, args, dest, labs, dl, note))
o("calendar_lookup", {"who": "Aisha Khan", "start": "2025-04-01", "end": "2025-04-02"}, {"who": PE, "start": P, "end": P}, "calendar.googleapis.com", DP)
o("calendar_lookup", {"who": "me", "start": "2025-04-01", "end": "2025-04-30", "query": "custody handover"}, {"who": P, "start": P, "end": P, "query": S}, "calendar.googleapis.com", DP)
o("calendar_lookup", {"who": "me", "start": "2025-04-01", "end": "2025-04-30", "query": "dermatologist"}, {"who": P, "start": P, "end": P, "query": S}, "calendar.googleapis.com", DP)
o("calendar_lookup", {"who": "me", "start": "2025-04-01", "end": "2025-04-30", "query": "gym"}, {"who": P, "start": P, "end": P, "query": P}, "calendar.googleapis.com", DP)
o("email_search", {"query": "court summons", "sender": "", "folder": "inbox"}, {"query": S, "sender": P, "folder": P}, "gmail.googleapis.com", DP)
o("email_search", {"query": "offer letter", "sender": "recruiting@rival.example", "folder": "inbox"}, {"query": P, "sender": PE, "folder": P}, "gmail.googleapis.com", DP)
o("email_search", {"query": "lab appointment", "sender": "", "folder": "inbox"}, {"query": S, "sender": P, "folder": P}, "gmail.googleapis.com", DP)
o("email_search", {"query": "Rechnung Telekom", "sender": "", "folder": "inbox"}, {"query": P, "sender": P, "folder": P}, "gmail.googleapis.com", DP, "non-english")
o("crm_lookup", {"customer": "Ravi Shankar", "account_id": "CUST-9981", "query": "asked to cancel due to job loss"}, {"customer": PE, "account_id": PE, "query": S}, "corp.my.salesforce.com", DT)
o("crm_lookup", {"customer": "Fabrikam Inc", "account_id": "ACC-77777", "query": "expansion opportunity"}, {"customer": PE, "account_id": PE, "query": P}, "corp.my.salesforce.com", DT)
o("web_search", {"q": "contact Lucia Fernández about the invoice"}, {"q": PE}, "api.brave.com", DP)
o("web_search", {"q": "Hauptstraße 12 Heidelberg owner"}, {"q": PE}, "api.brave.com", DP, "non-english")
o("web_search", {"q": "+44 20 7946 0958 who is calling"}, {"q": PE}, "api.brave.com", DP)
o("web_search", {"q": "token sk-proj-abcdefghijklmnopqrstuvwx not working"}, {"q": S}, "api.brave.com", DP, "credential")
o("http_get", {"url": "https://example.org"}, {"url": P}, "api.fitbit.com", DS, "undeclared destination")
o("http_get", {"path": "/v1/records"}, {"path": P}, "ehr.hospital.example", DR, "undeclared destination")
o("http_get", {"path": "/status"}, {"path": P}, "status.corp.internal", DT, "undeclared destination")
o("http_get", {"path": "/"}, {"path": P}, "www.peoplefinders.com", DF, "undeclared destination")
o("http_get", {"path": "/search"}, {"path": P}, "www.findlaw.com", DS, "undeclared destination")
o("http_get", {"path": "/rates"}, {"path": P}, "api.exchangerate.host", DP, "undeclared destination")
o("http_get", {"path": "/v2/visa"}, {"path": P}, "api.immigration.example", DR, "undeclared destination")
o("http_get", {"path": "/"}, {"path": P}, "tax.service.gov.uk", DR, "undeclared destination")
