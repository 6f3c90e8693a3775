from events3 import *
# ---------------- CRM lookup
def crm(customer, cl, acct, al, query, ql, dest="corp.my.salesforce.com", dl=DT, note=""):
    args = {"customer": customer, "account_id": acct, "query": query}
    labs = {"customer": cl, "account_id": al, "query": ql}
    E.append(("crm_lookup", args, dest, labs, dl, note))
crm("Acme Corp", PE, "ACC-00123", PE, "open opportunities", P)
crm("Maria Lopez", PE, "CUST-4411", PE, "last contact date", P)
crm("Globex GmbH", PE, "ACC-88410", PE, "renewal status", P)
crm("Jonas Becker", PE, "CUST-1029", PE, "complaint about late delivery", P)
crm("Initech LLC", PE, "ACC-20931", PE, "outstanding invoices overdue 90 days", P)
crm("Priya Natarajan", PE, "CUST-7781", PE, "customer mentioned bankruptcy filing", S)
crm("Hooli Inc", PE, "ACC-55120", PE, "support tickets this quarter", P)
crm("Sofia García", PE, "CUST-3302", PE, "llamar sobre la renovación", P, note="non-english")
crm("Dupont SARL", PE, "ACC-61200", PE, "relance facture", P, "api.hubapi.com", DT, note="non-english")
crm("Umbrella Ltd", PE, "ACC-40404", PE, "contract renewal pricing", P, "api.hubapi.com")
crm("Klaus Meyer", PE, "CUST-9120", PE, "Kunde hat Insolvenz angemeldet", S, note="non-english")
crm("Wayne Enterprises", PE, "ACC-10001", PE, "churn risk", P)
crm("Lena Fischer", PE, "CUST-2231", PE, "customer on medical leave until June", S)
crm("Stark Industries", PE, "ACC-31337", PE, "legal dispute over SLA credits", S)
crm("Tom Baker", PE, "CUST-5520", PE, "upsell premium plan", P, "api.hubapi.com")
crm("Oscorp", PE, "ACC-77001", PE, "health check of integration", P, note="hard negative")

# ---------------- e-mail search
def mail(query, ql, sender, sl, folder="all", dest="gmail.googleapis.com", dl=DP, note="", after=None):
    args = {"query": query, "sender": sender, "folder": folder}; labs = {"query": ql, "sender": sl, "folder": P}
    if after is not None:
        args["after"] = after; labs["after"] = P
    E.append(("email_search", args, dest, labs, dl, note))
mail("invoice", P, "billing@stripe.com", PE)
mail("flight confirmation", P, "noreply@lufthansa.com", PE, after="2024-05-01")
mail("lease termination", S, "landlord@example.com", PE, note="")
mail("eviction notice", S, "", P)
mail("lab results", S, "portal@clinic.example", S)
mail("biopsy", S, "", P)
mail("termination letter", S, "hr@corp.example", PE, dest="graph.microsoft.com")
mail("severance agreement draft", S, "legal@corp.example", PE, dest="graph.microsoft.com")
mail("meeting notes", P, "Maria Lopez", PE, dest="graph.microsoft.com")
mail("team offsite agenda", P, "", P, dest="graph.microsoft.com")
mail("debt collection", S, "collections@agency.example", PE)
mail("court date", S, "clerk@court.example.gov", PE)
mail("divorce papers", S, "", P)
mail("my therapist", I, "", P)
mail("password reset", P, "no-reply@github.com", PE)
mail("Kündigung", S, "", P, note="non-english")
mail("Mahnung", S, "inkasso@example.de", S, note="non-english")
mail("cita médica", S, "", P, note="non-english")
mail("facture électricité", P, "", P, note="non-english")
mail("résultats d'analyses", S, "labo@example.fr", PE, note="non-english")
mail("newsletter", P, "news@nytimes.com", PE)
mail("photos from the weekend", P, "mom@example.com", PE)
mail("package delivery", P, "", P, after="2024-06-01")
mail("from jane.doe@example.com about the offsite", PE, "", P)
mail("health check alerts", P, "alerts@datadoghq.com", PE, note="hard negative")

# ---------------- loan rates
def loan(q, ql, product, amount, note=""):
    E.append(("loan_rates", {"q": q, "product": product, "amount": amount}, "api.loanrates.example",
              {"q": ql, "product": P, "amount": P}, DS, note))
loan("current personal loan rates", S, "personal_loan", 10000)
loan("payday loan no credit check", S, "personal_loan", 500)
loan("mortgage rates 30 year fixed", P, "mortgage", 300000)
loan("auto loan rates", P, "auto_loan", 25000)
loan("loan to pay off my credit card debt", I, "personal_loan", 15000)
loan("student loan refinance rates", P, "student_loan", 40000)
loan("préstamo personal sin nómina", S, "personal_loan", 3000, "non-english")
loan("Kredit trotz Schufa", S, "personal_loan", 5000, "non-english")
