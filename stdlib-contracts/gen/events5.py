from events4 import *
def host(tool, args, labs, dest, dl, note=""):
    E.append((tool, args, dest, labs, dl, note))
H = [
 ("api.openweathermap.org", DP, "weather_forecast", {"city": "Lisbon", "days": 3}, {"city": P, "days": P}),
 ("en.wikipedia.org", DP, "wiki_lookup", {"title": "Printing press"}, {"title": P}),
 ("pypi.org", DP, "package_lookup", {"name": "requests", "version": "2.31.0"}, {"name": P, "version": P}),
 ("registry.npmjs.org", DP, "package_lookup", {"name": "left-pad", "version": "1.3.0"}, {"name": P, "version": P}),
 ("api.github.com", DP, "code_search", {"q": "tokio select macro example"}, {"q": P}),
 ("api.stackexchange.com", DP, "web_search", {"q": "segfault in c++ destructor"}, {"q": P}),
 ("maps.googleapis.com", DP, "geocode", {"address": "10 Downing Street, London"}, {"address": PE}),
 ("api.healthline.com", DS, "web_search", {"q": "migraine triggers"}, {"q": S}),
 ("www.webmd.com", DS, "web_search", {"q": "rash on arm"}, {"q": S}),
 ("api.mayoclinic.org", DS, "web_search", {"q": "symptoms of lupus"}, {"q": S}),
 ("www.legalzoom.com", DS, "web_search", {"q": "llc formation"}, {"q": P}),
 ("api.nolo.com", DS, "web_search", {"q": "eviction defense"}, {"q": S}),
 ("api.debt-relief.example", DS, "lead_form", {"amount": 24000}, {"amount": P}),
 ("www.credit-repair.example", DS, "web_search", {"q": "remove late payments"}, {"q": S}),
 ("api.dating-app.example", DS, "profile_lookup", {"user": "Maria Lopez"}, {"user": PE}),
 ("tenant-rights.example.org", DS, "web_search", {"q": "deposit return deadline"}, {"q": S}),
 ("fhir.hospital.example", DR, "patient_record", {"patient_id": "MRN 00482913"}, {"patient_id": S}),
 ("mychart.clinic.example", DR, "patient_record", {"patient_id": "PT-77120"}, {"patient_id": S}),
 ("api.plaid.com", DR, "account_lookup", {"account": "ACC-0042117"}, {"account": PE}),
 ("api.experian.com", DR, "credit_report", {"ssn": "123-45-6789"}, {"ssn": S}),
 ("www.irs.gov", DR, "web_search", {"q": "form 1040 instructions"}, {"q": P}),
 ("egov.uscis.gov", DR, "case_status", {"receipt": "IOE0912345678"}, {"receipt": S}),
 ("www.gov.uk", DR, "web_search", {"q": "universal credit eligibility"}, {"q": S}),
 ("www.service-public.gouv.fr", DR, "web_search", {"q": "carte grise changement adresse"}, {"q": P}),
 ("www.arbeitsagentur.bund.de", DR, "web_search", {"q": "Arbeitslosengeld beantragen"}, {"q": S}),
 ("sede.seg-social.gob.es", DR, "web_search", {"q": "cita previa"}, {"q": P}),
 ("pastebin.com", DF, "paste_upload", {"content": "stack trace from prod"}, {"content": P}),
 ("webhook.site", DF, "http_post", {"body": "user=alex@example.com"}, {"body": PE}),
 ("abc123.ngrok.io", DF, "http_post", {"body": "ping"}, {"body": P}),
 ("www.spokeo.com", DF, "people_search", {"name": "Jonas Becker"}, {"name": PE}),
 ("requestbin.com", DF, "http_post", {"body": "debug"}, {"body": P}),
 ("wiki.corp.example", DT, "wiki_lookup", {"title": "On-call rotation"}, {"title": P}),
 ("jira.internal", DT, "ticket_lookup", {"key": "PLAT-1234"}, {"key": P}),
 ("https://api.corp.example/api/search", DT, "doc_retrieval", {"query": "expense policy"}, {"query": P}),
 ("10.0.3.17", DT, "metrics_query", {"q": "p99 latency"}, {"q": P}),
 ("grafana.corp.example", DT, "metrics_query", {"q": "error rate by service"}, {"q": P}),
]
for d, dl, tool, args, labs in H:
    note = "undeclared destination"
    if any(ord(ch) > 127 for ch in str(args)): note += ", non-english"
    host(tool, args, labs, d, dl, note)
# a few more argument cases with entities and ids
host("web_search", {"q": "my SSN is 123-45-6789 is it compromised"}, {"q": I}, "api.brave.com", DP, "gov id")
host("web_search", {"q": "card 4111 1111 1111 1111 declined why"}, {"q": S}, "api.brave.com", DP, "payment card")
host("web_search", {"q": "IBAN DE89 3704 0044 0532 0130 00 bank name"}, {"q": S}, "api.duckduckgo.com", DP, "iban")
host("web_search", {"q": "botocore error with key AKIAIOSFODNN7EXAMPLE"}, {"q": S}, "api.brave.com", DP, "credential")
host("web_search", {"q": "what is my ip 203.0.113.42"}, {"q": PE}, "api.brave.com", DP, "ip")
host("web_search", {"q": "Mr. Thompson physics teacher Leeds"}, {"q": PE}, "api.brave.com", DP, "person name")
host("email_send", {"recipient": "landlord@example.com", "subject": "Notice", "body": "I am ending my lease on 31 May"},
     {"recipient": PE, "subject": P, "body": I}, "gmail.googleapis.com", DP, "")
host("email_send", {"recipient": "team@corp.example", "subject": "Lunch", "body": "pizza at noon?"},
     {"recipient": PE, "subject": P, "body": P}, "graph.microsoft.com", DP, "")
host("calendar_create_event", {"title": "Chemo session 3", "attendees": ["me"], "start": "2024-06-03T09:00"},
     {"title": S, "attendees": P, "start": P}, "calendar.googleapis.com", DP, "")
host("calendar_create_event", {"title": "Quarterly planning", "attendees": ["Maria Lopez", "Jonas Becker"], "start": "2024-06-03T09:00"},
     {"title": P, "attendees": PE, "start": P}, "graph.microsoft.com", DP, "")
host("notes_lookup", {"query": "moving checklist"}, {"query": P}, "local-notes", DT, "")
host("notes_lookup", {"query": "questions for my oncologist"}, {"query": I}, "local-notes", DT, "")
