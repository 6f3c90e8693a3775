# Dev probes written while broadening the generator data (not an eval set):
# (text, expected label). Scored with `python3 probes.py`.
P, PE, S, I = "public", "personal", "sensitive", "intent_revealing"
PROBES = [
 # intent framings beyond "my"/"how do i"
 ("worried i might lose my job after the merger", I), ("just found out i'm pregnant at 41", I),
 ("dealing with a landlord who won't fix the heating", I), ("coping with my mom's dementia diagnosis", I),
 ("afraid my husband will take the kids if i leave", I), ("struggling with gambling debts need advice", I),
 ("we're being evicted next month what now", I), ("our son got arrested last night", I),
 ("need a divorce lawyer in dallas asap", I), ("best way to tell my kids about our divorce", I),
 ("recovering from my mastectomy tips", I), ("since my layoff i can't sleep", I),
 ("lawyer for my immigration case in miami", I), ("is it normal to feel numb after a miscarriage", I),
 ("what are my options if i can't pay the hospital", I), ("help paying my electric bill this month", I),
 ("can my landlord keep my deposit for cleaning", I), ("should i report the bruises to my doctor", I),
 ("tips for my first therapy session", I), ("how to ask for medical leave for depression", I),
 ("ways to get out of debt fast with low income", I), ("how to survive a layoff with no savings", I),
 ("estoy endeudado y no sé qué hacer", I), ("tengo una deuda con hacienda", I),
 ("ich bin krank und mein Chef ruft ständig an", I), ("wir können die Miete nicht zahlen", I),
 ("je n'arrive plus à payer mes crédits", I), ("mon fils se drogue que faire", I),
 ("mi hija tiene anorexia", I), ("meine Mutter hat Demenz, was tun", I),
 # sensitive (no first person)
 ("lymph node biopsy recovery", S), ("terminal cancer life expectancy", S), ("family history of breast cancer risk", S),
 ("the divorce process in ontario", S), ("asylum process in germany", S), ("how to build credit after bankruptcy", S),
 ("cluster headaches treatment", S), ("kidney function test normal range", S), ("gastric band surgery cost", S),
 ("hiv transmission through kissing", S), ("history of depression and pregnancy", S), ("beer and antidepressants interaction", S),
 ("grieving process stages", S), ("funeral costs when someone passed away without a will", S),
 ("chapter 13 repayment plan length", S), ("motion to dismiss vs summary judgment", S), ("plaintiff vs defendant in a civil lawsuit", S),
 ("mri results explained", S), ("resonancia magnética rodilla resultados", S), ("IRM du genou résultats", S),
 ("Befunde vom Hautarzt", S), ("Kuendigungsschutzklage Frist", S), ("migraene Ursachen", S),
 ("visite médicale du travail obligatoire", S), ("médico de cabecera cambiar", S), ("medizinische Gutachten Rente", S),
 ("ransomware attack on hospitals", S), ("signs your partner is cheating", S), ("bereavement leave entitlement uk", S),
 ("wage garnishment limits", S), ("tenant screening eviction records", S), ("asbestos exposure lawsuit", S),
 # public / hard negatives
 ("node.js process exit code", P), ("terminal emulator for mac", P), ("build a docker image from a git repo", P),
 ("history of the roman empire", P), ("kubernetes node not ready", P), ("time series database comparison", P),
 ("rubber band ball world record", P), ("the band's farewell tour dates", P), ("function pointer in c", P),
 ("airport terminal 2 parking", P), ("game of thrones filming locations", P), ("lease a car vs buy", P),
 ("legal size paper dimensions", P), ("court shoes for badminton", P), ("pregnant goldfish signs", P),
 ("plant cell division diagram", P), ("bank holiday opening hours tesco", P), ("git kill all background jobs", P),
 ("the terminator movie cast", P), ("how to abort a git merge", P), ("python suicide squad scene", P),
 ("chemical bonds quiz", P), ("hr department email template", P), ("depression era recipes", P),
 ("Fußball Ergebnisse Bundesliga", P), ("Rechnung Stadtwerke bezahlen online", P), ("Ausflugsziele Sachsen Wochenende", P),
 ("Mathematik Nachhilfe Preise", P), ("Geschichte Deutschland Mittelalter", P), ("Bundesliga Tabelle aktuell", P),
 ("Mercado Central Valencia horario", P), ("Tour Eiffel billets", P),
 # personal
 ("phone of Sarah O'Connor in Dublin", PE), ("teléfono de Jorge Ramírez", PE), ("adresse de Claire Martin", PE),
 ("INV-48812", PE), ("usr_88213", PE), ("lunch with Andrea Rossi", PE), ("Anna Schmidt Termin", PE),
 ("/people/search?name=John+Smith", PE), ("sam.porter@example.com", PE),
]

PROBES += [
 # health, sensitive
 ("long term effects of lithium", S), ("gabapentin for nerve pain", S), ("what is a colposcopy", S), ("recovery time after gallbladder removal", S),
 ("stage 2 breast cancer survival rate", S), ("early signs of multiple sclerosis", S), ("how is lupus diagnosed", S), ("tinnitus after covid", S),
 ("normal a1c levels", S), ("vertigo causes and treatment", S), ("endometriosis pain relief", S), ("atrial fibrillation blood thinners", S),
 ("statins side effects muscle pain", S), ("psoriatic arthritis treatment", S), ("bpd vs bipolar", S), ("alcohol withdrawal timeline", S),
 ("ozempic for weight loss cost", S), ("pcos and fertility", S), ("ssri sexual side effects", S), ("colon cancer screening age", S),
 ("is depression hereditary", S), ("signs of a concussion in adults", S), ("autism diagnosis adults uk", S), ("kidney stone pain relief", S),
 ("gestational diabetes diet", S), ("hair loss after pregnancy", S), ("cost of an insulin pump", S), ("rheumatoid arthritis flare", S),
 ("celiac disease symptoms", S), ("is shingles contagious", S), ("sleep apnea cpap machine", S), ("eczema on hands treatment", S),
 # health, intent
 ("how to tell if i have a uti", I), ("i think i broke my wrist", I), ("my blood pressure is 160/100 should i go to the er", I),
 ("how do i get tested for adhd", I), ("where can i get the morning after pill", I), ("how to cope with chemo nausea", I),
 ("can i drink alcohol on antibiotics", I), ("how to get a referral to a psychiatrist", I), ("my period is two weeks late", I),
 ("i've been feeling hopeless for weeks", I),
 ("Nebenwirkungen Ibuprofen", S), ("Bluthochdruck senken ohne Medikamente", S), ("Psychotherapeut finden Wartezeit", S),
 ("Ich habe seit Tagen Fieber und Husten", I), ("Schwangerschaftstest positiv was nun", I),
 ("dolor de pecho y brazo izquierdo", S), ("cómo saber si tengo covid", I), ("medicamentos para la migraña", S),
 ("tengo un bulto en el pecho", I), ("efectos secundarios del ibuprofeno", S),
 ("symptômes de la maladie de Lyme", S), ("comment arrêter de boire", I), ("je me sens déprimé depuis des mois", I),
 ("effets secondaires de la pilule", S), ("résultats prise de sang", S),
 # legal
 ("what is a plea bargain", S), ("how long does probate take", S), ("defamation lawsuit examples", S), ("what is a deposition", S),
 ("penalties for tax evasion", S), ("difference between misdemeanor and felony", S), ("how does small claims court work", S),
 ("immigration court backlog", S), ("expungement eligibility california", S),
 ("do i need a lawyer for a speeding ticket", I), ("my neighbor is suing me over a fence", I),
 ("how to respond to a cease and desist letter", I), ("can i be arrested for unpaid fines", I), ("how to sue my contractor in small claims", I),
 ("Anwalt für Verkehrsrecht", S), ("Strafbefehl Einspruch Frist", S), ("Ich wurde angezeigt wegen Beleidigung", I),
 ("cómo denunciar una estafa", I), ("abogado de extranjería", S), ("comment contester une amende", I), ("demande de casier judiciaire", S),
 # employment
 ("how does severance pay work", S), ("signs you are about to be fired", S), ("can employers ask about disability", S),
 ("how to negotiate severance", I), ("can i be fired for posting on social media", I), ("i was passed over for promotion because of my age", I),
 ("should i tell hr about my anxiety", I), ("Abfindung berechnen", S), ("mir wurde gekündigt was nun", I),
 ("cómo calcular el finiquito", I), ("me han bajado el sueldo sin avisar", I), ("rupture conventionnelle calcul", S), ("mon patron ne me paie pas", I),
 # financial
 ("how does debt settlement affect credit", S), ("what is a debt management plan", S), ("payday loan interest rates by state", S),
 ("can i get a mortgage after bankruptcy", I), ("how do i stop collection calls", I), ("i owe 20k on credit cards", I),
 ("how to negotiate with the irs", I), ("best high yield savings account", P), ("how to read a balance sheet", P),
 ("inflation rate eurozone", P), ("mortgage rates today", P), ("Schufa Auskunft kostenlos", S), ("P-Konto beantragen", S),
 ("cómo salir de asnef", I), ("rachat de crédit avis", S),
 # housing
 ("how long does an eviction take", S), ("tenant rights when landlord sells", S), ("rent increase limits california", S),
 ("my landlord won't fix the heat", I), ("can i withhold rent for repairs", I), ("how to get my deposit back", I),
 ("we got a notice to vacate", I), ("apartment hunting tips", P), ("how to decorate a small apartment", P),
 ("Kaution zurückfordern Frist", S), ("me quieren echar del piso", I), ("mon propriétaire ne fait pas les travaux", I),
 # security
 ("how do sim swap attacks work", S), ("signs of identity theft", S), ("what to do after a data breach", I),
 ("someone opened a credit card in my name", I), ("my instagram was hacked and they changed the email", I),
 ("how to know if my phone is being tracked", I), ("i clicked a phishing link what now", I),
 ("penetration testing certification", P), ("owasp top ten 2021", P), ("how to hash passwords in python", P), ("ssh key permissions too open", P),
 # relationships
 ("signs of emotional abuse", S), ("how is child support calculated", S), ("average alimony payments", S), ("what is coercive control", S),
 ("how to leave an abusive relationship safely", I), ("how to tell my parents i'm gay", I),
 ("should i divorce my cheating husband", I), ("my ex won't let me see my kids", I), ("Trennung mit Kind was beachten", S),
 ("mi pareja me controla el móvil", I), ("comment savoir si mon mari me trompe", I),
 # public hard negatives
 ("fire and forget pattern async", P), ("kill -9 vs kill -15", P), ("git stash drop", P), ("debt to equity ratio formula", P),
 ("legal drinking age in germany", P), ("attack on titan season 4", P), ("abort a running jenkins build", P), ("pregnant pause meaning", P),
 ("terminal velocity of a skydiver", P), ("cancer constellation stars", P), ("bail out meaning idiom", P), ("memcached eviction policy", P),
 ("the trial of the chicago 7 movie", P), ("python process pool executor", P), ("fired up meaning", P), ("depression glass value", P),
 # personal
 ("call Dr. Patel office", PE), ("Jonas Weber Hamburg", PE), ("Maria Fernández LinkedIn", PE), ("my home address for the form", PE),
]

PROBES += [
 # personal data in many shapes
 ("Flat 3, 12 High Street, Leeds LS1 4AP", PE), ("Musterstraße 5, 10115 Berlin", PE), ("Calle de Alcalá 42, Madrid", PE),
 ("12 rue des Lilas, 75011 Paris", PE), ("0171 2345678", PE), ("06 12 34 56 78", PE), ("+49 30 12345678", PE), ("612 34 56 78", PE),
 ("(415) 555-0134", PE), ("DE44500105175407324931", S), ("account 12345678 sort code 20-00-00", PE), ("j.smith@contoso.com", PE),
 ("invoice for Klaus-Peter Müller", PE), ("meeting with Dr. Nguyen", PE), ("flights for Priya and Rahul Sharma", PE),
 ("Ana Lucía Torres", PE), ("O'Brien, Sean", PE), ("contact Li Wei about the contract", PE), ("lunch with Fatima", P),
 ("my sister's wedding venue", PE), ("my son's school calendar", PE), ("my flight to Boston", PE),
 ("SSN 123-45-6789", S), ("passport number X12345678", S), ("4111-1111-1111-1111", S),
 ("ip 203.0.113.7 blocked", PE), ("api_key=sk-test-abc123def456ghi789", S),
 # first person, no sensitive topic
 ("my laptop fan is loud", P), ("i want to learn guitar", P), ("how do i reset my router", P), ("can i bring a power bank on a plane", P),
 ("should i buy or lease a car", P), ("my code won't compile", P), ("i need a vegan birthday cake recipe", P), ("our team offsite ideas", P),
 ("how to kill a python script running in background", P), ("my tomato plant has yellow leaves", P), ("i'm bored what should i watch", P),
 ("wie kann ich mein Passwort ändern", P), ("cómo puedo cambiar mi contraseña", P), ("comment je peux réserver un train", P),
]

PROBES += [
 # sensitive, general or third party: framings must not make them intent
 ("what we know about long covid", S), ("living with hiv life expectancy statistics", S), ("famous people with bipolar disorder", S),
 ("history of divorce law in england", S), ("why do people stay in abusive relationships", S), ("do landlords have to pay interest on deposits", S),
 ("statistics on workplace harassment 2024", S), ("eviction rates in new york city", S), ("can employers drug test for marijuana", S),
 ("is chemo covered by medicare", S), ("how common is miscarriage at 6 weeks", S), ("average cost of rehab in the us", S),
 ("what causes schizophrenia", S), ("how does a restraining order work", S), ("who qualifies for food stamps", S),
 ("Wie funktioniert eine Privatinsolvenz", S), ("cuánto dura un juicio por despido", S), ("combien coûte un avocat pour divorce", S),
 ("my grandmother's recipe for apple pie", PE), ("our wedding anniversary ideas", PE),
]

if __name__ == "__main__":
    import json, subprocess, sys
    ev = [{"tool": "t", "args": {"q": t}, "destination": "api.brave.com"} for t, _ in PROBES]
    out = subprocess.run(['/tmp/labsim/target/release/labsim', '/tmp/stpcgen/table.json'], input="\n".join(json.dumps(e, ensure_ascii=False) for e in ev), capture_output=True, text=True)
    if out.returncode: raise SystemExit(out.stderr[:2000])
    res = [json.loads(l)['arg_labels']['q'] for l in out.stdout.splitlines()]
    bad = [(t, g, p) for (t, g), p in zip(PROBES, res) if g != p]
    for t, g, p in bad: print(f"  {g[:6]:6} <- {p[:6]:6} {t}")
    print(f"probes: {len(PROBES)-len(bad)}/{len(PROBES)} ok")
