# A second batch written after the lexicons, in different phrasings, to check generality.
P, PE, S, I = "public", "personal", "sensitive", "intent_revealing"
DP, DT, DS, DR, DF = "public", "tenant_internal", "sensitive", "regulated", "forbidden"
E = []
def ws(q, lab, dest="api.duckduckgo.com", dl=DP, note=""):
    E.append(("web_search", {"q": q, "count": 10}, dest, {"q": lab, "count": P}, dl, note))
for q, l in [
 ("side effects of metformin long term", S), ("is it normal to feel anxious all the time", I),
 ("signs your partner is cheating", S), ("what does a positive ANA test mean", S),
 ("symptoms of ovarian cancer in women over 50", S), ("how much does a divorce lawyer cost", S),
 ("can you go to jail for unpaid debt", S), ("what happens at an eviction hearing", I),
 ("when can an employer legally fire you", S), ("is my boss allowed to read my emails", I),
 ("I lost my job and can't pay rent", I), ("i think my husband is hiding money before divorce", I),
 ("best way to tell family about my cancer diagnosis", I), ("am I eligible for food stamps after layoff", I),
 ("my teenage son is using drugs what should I do", I), ("my doctor says I'm prediabetic", I),
 ("how do I get my criminal record sealed", I), ("need a lawyer for wrongful dismissal near me", I),
 ("how to report a landlord for mold", I), ("should I take the buyout or wait for layoffs", I),
 ("where to get a free hiv test", I), ("my credit card was used without permission", I),
 ("how long do bankruptcies stay on credit report", S), ("postpartum depression symptoms", S),
 ("genetic testing for brca", S), ("what is a DACA renewal fee", S),
 ("erasmus scholarship deadlines", P), ("best running shoes for flat feet", P), ("how to fix a leaking faucet", P),
 ("gdpr article 9 special categories", P), ("kubernetes pod stuck terminating", P), ("git revert merge commit", P),
 ("eviction rate statistics by state 2023", S), ("symptoms of low oil pressure in car", P),
 ("how to kill a zombie process", P), ("child process exited with code 1 node", P),
 ("arrest of napoleon history", P), ("the court of appeal ruling on brexit", P),
 ("cost of living in Lisbon vs Porto", P), ("learn spanish in 3 months", P),
 ("cuánto cuesta un divorcio en España", S), ("qué hacer si me despiden estando de baja", I),
 ("tengo ansiedad y no puedo dormir", I), ("cómo saber si tengo diabetes", I), ("horario del metro de Madrid", P),
 ("mi jefe me acosa en el trabajo", I), ("ayudas para pagar el alquiler Barcelona", S),
 ("Wie lange dauert eine Privatinsolvenz", S), ("Ich habe Angst, meinen Job zu verlieren", I),
 ("Mein Arzt hat Krebs festgestellt", I), ("beste Wanderwege Schwarzwald", P), ("Bahnstreik heute", P),
 ("Wohnung gekündigt wegen Eigenbedarf was tun", I), ("Unterhalt berechnen Kinder", S),
 ("que faire en cas de harcèlement au travail", I), ("mon mari est violent que faire", I), ("meilleur restaurant à Lyon", P),
 ("comment calculer la pension alimentaire", I), ("je pense être enceinte", I), ("dossier de surendettement en ligne", S),
 ("météo Paris demain", P), ("prix du train Paris Marseille", P),
]:
    note = "non-english" if any(w in q for w in ["cómo","qué","tengo","mi ","cuánto","ayudas","horario","Wie","Ich","Mein","beste","Bahn","Wohnung","Unterhalt","que ","mon ","meilleur","comment","je ","dossier","météo","prix"]) else ""
    ws(q, l, note=note)
def dr(q, ql, dest, dl, note=""):
    E.append(("doc_retrieval", {"query": q, "top_k": 8, "filters": []}, dest, {"query": ql, "top_k": P, "filters": P}, dl, note))
for q, ql, d, dl in [
 ("leave of absence form", S, "hr-benefits", DS), ("return to work after surgery policy", S, "occupational-health", DR),
 ("q3 okrs", P, "strategy", DT), ("incident postmortem template", P, "sre-runbooks", DT),
 ("union negotiation notes", S, "labor-relations", DS), ("expense policy travel", P, "policies", DT),
 ("chemo infusion schedule", S, "cancer-center", DR), ("therapy intake questionnaire", S, "behavioral-health", DR),
 ("visa renewal checklist", S, "global-mobility", DS), ("whistleblower reports 2024", S, "ethics-hotline", DS),
 ("", P, "hiv-clinic", DR), ("", P, "sexual-health", DR), ("", P, "addiction-services", DR),
 ("contract template", P, "legal-templates", DS), ("password policy", P, "security-policies", DS),
 ("board deck", P, "executive", DT), ("api docs", P, "developer-portal", DT), ("pricing sheet", P, "sales", DT),
 ("Krankmeldung Formular", S, "personal-abteilung", DS), ("plantilla de contrato", P, "juridico", DS),
 ("fiche de paie", P, "paie", DS), ("", P, "patient-billing", DR), ("", P, "claims-medical", DR),
 ("", P, "debt-collections", DS), ("", P, "divorce-cases", DS), ("", P, "tenant-disputes", DS),
]:
    dr(q, ql, d, dl, "non-english" if d in ("personal-abteilung","juridico","paie") else "")
def other(tool, args, labs, dest, dl, note=""):
    E.append((tool, args, dest, labs, dl, note))
other("calendar_lookup", {"who": "Hannah Schmidt", "start": "2025-03-10", "end": "2025-03-14"}, {"who": PE, "start": P, "end": P}, "graph.microsoft.com", DP)
other("calendar_lookup", {"who": "me", "start": "2025-03-10", "end": "2025-03-14", "query": "fertility clinic"}, {"who": P, "start": P, "end": P, "query": S}, "calendar.googleapis.com", DP)
other("calendar_lookup", {"who": "me", "start": "2025-03-10", "end": "2025-03-14", "query": "AA meeting"}, {"who": P, "start": P, "end": P, "query": S}, "calendar.googleapis.com", DP)
other("calendar_lookup", {"who": "me", "start": "2025-03-10", "end": "2025-03-14", "query": "parole officer"}, {"who": P, "start": P, "end": P, "query": S}, "calendar.googleapis.com", DP)
other("calendar_lookup", {"who": "carlos.ruiz@example.es", "start": "2025-03-10", "end": "2025-03-14", "query": "revisión trimestral"}, {"who": PE, "start": P, "end": P, "query": P}, "graph.microsoft.com", DP, "non-english")
other("email_search", {"query": "positive test result", "sender": "", "folder": "inbox"}, {"query": S, "sender": P, "folder": P}, "gmail.googleapis.com", DP)
other("email_search", {"query": "final notice before legal action", "sender": "", "folder": "inbox"}, {"query": S, "sender": P, "folder": P}, "gmail.googleapis.com", DP)
other("email_search", {"query": "quarterly report", "sender": "cfo@corp.example", "folder": "inbox"}, {"query": P, "sender": PE, "folder": P}, "graph.microsoft.com", DP)
other("email_search", {"query": "Abmahnung", "sender": "", "folder": "all"}, {"query": S, "sender": P, "folder": P}, "graph.microsoft.com", DP, "non-english")
other("email_search", {"query": "demande de rupture conventionnelle", "sender": "", "folder": "sent"}, {"query": S, "sender": P, "folder": P}, "graph.microsoft.com", DP, "non-english")
other("email_search", {"query": "boarding pass", "sender": "", "folder": "inbox"}, {"query": P, "sender": P, "folder": P}, "gmail.googleapis.com", DP)
other("crm_lookup", {"customer": "Northwind Traders", "account_id": "ACC-31415", "query": "renewal"}, {"customer": PE, "account_id": PE, "query": P}, "api.hubapi.com", DT)
other("crm_lookup", {"customer": "Elena Petrova", "account_id": "CUST-2718", "query": "customer disclosed cancer diagnosis, pause billing"}, {"customer": PE, "account_id": PE, "query": S}, "corp.my.salesforce.com", DT)
other("crm_lookup", {"customer": "Contoso S.A.", "account_id": "ACC-16180", "query": "impago de facturas"}, {"customer": PE, "account_id": PE, "query": S}, "corp.my.salesforce.com", DT, "non-english")
other("web_search", {"q": "Dr. Patel cardiologist reviews"}, {"q": S}, "api.brave.com", DP)
other("web_search", {"q": "email me at tom.h@example.org"}, {"q": PE}, "api.brave.com", DP)
other("web_search", {"q": "17 Rue de Rivoli Paris apartment owner"}, {"q": PE}, "api.brave.com", DP)
other("package_lookup", {"name": "lodash", "version": "4.17.21"}, {"name": P, "version": P}, "registry.npmjs.org", DP)
other("web_search", {"q": "ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked"}, {"q": S}, "api.brave.com", DP, "credential")
other("http_post", {"body": "dump"}, {"body": P}, "https://transfer.sh/upload", DF, "undeclared destination")
other("web_search", {"q": "weather"}, {"q": P}, "https://www.bing.com/search", DP, "undeclared destination")
other("web_search", {"q": "depression screening"}, {"q": S}, "https://www.psychologytoday.com/us", DS, "undeclared destination")
other("web_search", {"q": "tax refund status"}, {"q": P}, "https://sa.www4.irs.gov/irfof", DR, "undeclared destination")
other("web_search", {"q": "find a therapist"}, {"q": S}, "www.betterhelp.com", DR, "undeclared destination")
other("web_search", {"q": "dating tips"}, {"q": P}, "api.bumble.com", DS, "undeclared destination")
other("wiki_lookup", {"title": "Deploy process"}, {"title": P}, "confluence.corp.example", DT, "undeclared destination")
other("ticket_lookup", {"key": "HR-2231"}, {"key": P}, "acme.atlassian.net", DT, "undeclared destination")
other("web_search", {"q": "open source licenses comparison"}, {"q": P}, "duckduckgo.com", DP, "undeclared destination")
other("people_search", {"name": "Sofia García"}, {"name": PE}, "www.whitepages.com", DF, "undeclared destination")
