# Regular expressions of the std labelers (kept here, emitted into labelers.stpc).
INTENT_WORDS = [
 # English first person and help-seeking framings
 "my","mine","i","i'm","im","i've","i'd","i'll","me","myself","our","ours","we're","we've",
 "how do i","how can i","how should i","how to","should i","can i","could i","do i","am i","will i",
 "what happens if","what happens at","what happens when","what happens after","what to do if","what to do when","what to do after","what should i do","where to get","where can i get","where to find","where can i find","is it normal to","help me","near me","in my area","close to me",
 # German
 "comment","cómo","como","qué hacer","que hacer","wie","hilfe","help","need help","i need","is it illegal","is it legal","am i entitled","entitled to","required to","allowed to","can they","what are my rights","what rights do i have","mein","meine","meinen","meinem","meiner","meines","ich","mir","mich","unser","unsere","unseren",
 "wie kann ich","soll ich","darf ich","kann ich","muss ich","in meiner nähe","was tun","was kann ich tun","was mache ich",
 # Spanish
 "mi","mis","yo","tengo","estoy","puedo","debo","qué hago","que hago","cerca de mí","cerca de mi","nuestro","nuestra",
 # French
 "mon","ma","mes","je","moi","notre","nos","puis-je","dois-je","que faire","près de chez moi","pres de chez moi",
]
INTENT_APOS = ["j'", "j’", "m'", "m’"]  # French elisions: j'ai, m'a licencié

TOPIC_STEMS = [
 "overtime","employer","boss","bills?","electric bill","fines?","police","record (?:my|a) (?:boss|call|conversation)","baja","plainte",
 # health
 "cancer","tumou?r","chemo","oncolog","biops","diagnos","depress","anxiety","panic attack","ptsd","bipolar","schizo",
 "adhd","autis","suicid","self[- ]harm","addict","alcoholi","overdos","rehab","pregnan","miscarr","abortion","ivf",
 "fertility","infertil","contracept","birth control","std test","hiv","herpes","chlamydia","syphil","gonorr","hepatitis",
 "diabet","insulin","dementia","alzheimer","parkinson","epilep","seizure","heart attack","stroke","asthma","prescription",
 "medication","antidepress","therapist","therapy session","psychiatr","symptom","side effects","surgery","doctors?\\b","doctor's",
 "lab results","blood test","mental health","eating disorder","anorexi","bulimi",
 "krebs","befund","depression","angststörung","panikattack","therapeut","psychotherap","schwanger","abtreib","fehlgeburt",
 "verhütung","alkoholsucht","drogensucht","spielsucht","süchtig","arzt","ärzt","Ärzt","medikament","nebenwirkung","krankheit","erkrank",
 "cáncer","quimio","diagnóstic","depresi","ansiedad","pánico","embaraz","aborto","anticoncep","sida","vih","insulina","adicci",
 "psiquiatr","psicólog","terapia","médic","enfermedad","enferm[oa]","síntoma","sintoma","medicament","receta médica",
 "tumeur","diagnostic","dépression","anxiété","enceinte","grossesse","avortement","ivg","diabète","insuline","psycholog",
 "thérapie","médecin","medecin","maladie","malade","symptôm","médicament","ordonnance",
 # legal
 "lawyer","attorney","sue\\b","sued","suing","lawsuit","courts?\\b","court date","courthouse","judge\\b","arrest","warrants?\\b","charged with","felony","misdemean",
 "dui","dwi","jail","prison","probation","parole","bail\\b","convict","plea\\b","plea deal","plea bargain","expunge","criminal","restraining order",
 "protective order","deport","immigration","visa (?:application|status|interview|denied|expired|renewal|overstay|sponsorship)","work visa","student visa","green card","asylum","undocumented","citizenship","subpoena","summons",
 "speeding ticket","traffic ticket","parking ticket","settlement",
 "anwalt","anwält","klage","verklag","gericht","festnahm","verhaft","vorstraf","strafanzeig","anzeige erstatten","bewährung",
 "haftbefehl","abschieb","aufenthalt","asyl","duldung","einbürger","visum",
 "abogad","demanda","juicio (?:rápido|oral|penal|civil)","ir a juicio","tribunal","juzgado","arrestad","detenid","antecedentes penales","fianza","cárcel","carcel","deportaci",
 "asilo","permiso de residencia","visado","multa",
 "avocat","procès","plainte","garde à vue","casier judiciaire","expuls","titre de séjour","asile","préfecture","amende",
 # employment
 "fired","firing","laid off","layoff","redundan","dismissal","dismissed from","(?:got|was|been|being) terminated","terminated from","termination (?:letter|of employment|penalty|fee)","wrongful termination","employment termination","lease termination","severance","resign","quit (?:my |the |a |this )?job",
 "quitting","harass","discriminat(?:ion|ed|ing)\\b","retaliat","whistleblow","grievance","disciplinary","performance improvement plan",
 "unpaid wage","unpaid overtime","unemploy","maternity","paternity","parental leave","sick leave","medical leave","fmla",
 "workers comp","non-?compete",
 "kündig","gekündigt","entlass","abfindung","aufhebungsvertrag","arbeitslos","mobbing","belästig","diskriminier","abmahnung",
 "elternzeit","mutterschutz","krankgeschrieben","krankschreib","krankmeld","überstunden","Überstunden",
 "despid","despedir","indemnizaci","finiquito","paro\\b","desempleo","renunci","acoso","discriminaci",
 "baja (?:médica|medica|laboral|por)",
 "licenci(?:é|ée|ement|er)","démission","demission","chômage","chomage","harcèlement","harcelement","arrêt maladie","arret maladie",
 "congé mat","congé pat","prud'?hom","rupture conventionnelle",
 # financial
 "debt","bankrupt","insolven","loan","credit score","credit card debt","overdraft","overdrawn","debt collector",
 "garnish","reposs","foreclos","defaulted","default on","owe\\b","owe the","irs\\b","tax debt","back taxes","tax audit",
 "pay (?:my |the )?bills","payday","mortgage","welfare","food stamps","snap benefits","unemployment benefits",
 "schulden","insolven","pfänd","inkasso","mahnung","mahnbescheid","schufa","kredit\\b","kredite\\b","kreditantrag","kreditrate","dispokredit","im dispo","überzieh","gerichtsvollzieh",
 "bürgergeld","hartz","sozialhilfe",
 "deuda","quiebra","bancarrota","préstamo","prestamo","embargo","moroso","impago","hipoteca","asnef",
 "dette","endett","surendett","faillite","prêt personnel","prêt immobilier","mon prêt","credit conso","huissier",
 "découvert","decouvert","impayé","fiché",
 # housing
 "evict","eviction","lease","landlord","landlady","tenant rights","tenants? union","tenant law","as a tenant","tenant protection","tenant's","tenants'","rent (?:increase|payment|arrears|is late|due|assistance|relief)",
 "(?:pay|paying|afford|behind on|owe|back|late|unpaid) (?:my |the )?rent","homeless","shelter bed","security deposit",
 "section 8","housing assistance",
 "miete\\b","mietvertrag","mietschulden","mietrückstand","mieterhöhung","mieter\\b","vermieter","räumung","obdachlos",
 "eigenbedarf","kaution","wohngeld",
 "desahucio","desalojo","alquiler","inquilino","arrendador",
 "expulsion","bail\\b","loyer","propriétaire","proprietaire","locataire","hlm","dépôt de garantie",
 # security
 "hacked","compromised","identity theft","identity stolen","stolen identity","stalk","doxx","blackmail","extort",
 "scam","phish","fraud","data breach","leaked (?:password|photos|nudes|data|credentials|address)","password leaked","data leaked","death threat","threatening me","spyware","stalkerware","tracking me",
 "tracker on","ransomware","malware",
 "gehackt","identitätsdiebstahl","erpress","bedroh","betrug","betrog","datenleck",
 "hacke","estafa","fraude","extorsi","chantaje","acoso","acosad","acosando","acosador","amenaz","robo de identidad","suplantaci",
 "piraté","piratage","arnaq","escroq","chantage","harcel","harcèl","menac","usurpation",
 # relationship
 "divorc","separated","legal separation","trial separation","custody","child support","alimony","affair","cheat(?:ed|ing) on",
 "cheating (?:husband|wife|partner|spouse|boyfriend|girlfriend)","infidel","unfaithful","abusive","abused","domestic (?:violence|abuse)",
 "emotional abuse","prenup","paternity","estranged","breakup","break up with","broke up","coming out (?:as|to)","gay\\b","lesbian","bisexual",
 "transgender","queer",
 "scheid","trennung","sorgerecht","umgangsrecht","unterhalt\\b","unterhaltszahlung","unterhaltspflicht","fremdgeh","affäre","häusliche gewalt","ehevertrag",
 "vaterschaft",
 "separaci","custodia","pensión alimenticia","infiel","infidelidad","maltrat","violencia","paternidad",
 "séparation","garde des enfants","pension alimentaire","infidél","violence","conjugal","paternité",
]

# Destination topic words (matched anywhere in a host, URL or collection name,
# with non-alphanumerics, including `_` and `-`, as separators).
DEST_REGULATED = [
 "prenatal","maternity","obstetric\\w*","pediatric\\w*","paediatric\\w*",
 "clinical\\w*",
 "occupational[-_]?health","employee[-_]?health",
 "onkolog\\w*","oncolog\\w*","krebs\\w*","patienten\\w*","pacientes?","medizin\\w*","salud[-_]?mental","sant[eé][-_]?mentale","psiquiatr\\w*","einwanderung","ausl[aä]nder\\w*","inmigraci[oó]n","extranjer\\w*","migration","plannedparenthood","betterhelp","talkspace",
 "onco\\w*","cancer\\w*","tumou?r\\w*","patients?","patient[-_]?records?","ehr","emr","phi","fhir","mychart","epic",
 "medical[-_]?records?","health[-_]?records?","clinical[-_]?notes","psychiatr\\w*","mental[-_]?health","behavioral[-_]?health",
 "psych","psychology","therapy[-_]?notes","hiv","sexual[-_]?health","reproductive\\w*","abortion","fertility","ivf",
 "substance[-_]?use","addiction","rehab","genetic\\w*","genomics?","dna","lab[-_]?results","radiology","pathology",
 "immigration","visas?","asylum","deportation","uscis","work[-_]?permits?",
 "credit[-_]?bureau","experian","equifax","transunion","schufa","bank[-_]?accounts?","banking","plaid","open[-_]?banking",
 "tax[-_]?records?","tax[-_]?returns?","irs","ssa","social[-_]?security","benefits[-_]?claims?","medicaid","medicare",
]
DEST_SENSITIVE = [
 "audit\\w*",
 "mergers?","acquisitions?","m-and-a","board[-_]?minutes","confidential","restricted","secret","secrets",
 "fitbit","withings","myfitnesspal","ouraring","healthkit","google[-_]?fit",
 "global[-_]?mobility","mobility","relocation","labou?r[-_]?relations","relations","unions?","works[-_]?council","betriebsrat","personal[-_]?abteilung","sindicato","syndicat",
 "rrhh","recursos[-_]?humanos","ressources[-_]?humaines","rh","personalabteilung","personalwesen","droit\\w*","juridique","jur[ií]dico","recht\\w*","arbeitsrecht","abogad\\w*","avocat\\w*","anwalt\\w*","n[oó]mina","paie","gehalt\\w*","finanzas","finances","finanzen","s[eé]curit[eé]","seguridad","sicherheit","vivienda","logement","sant[eé]","salud","gesundheit","m[eé]dic\\w*","mayoclinic","clevelandclinic","medlineplus","drugs\\.com","goodrx","psychologytoday","legalzoom","nolo","avvo","findlaw","justia","lawhelp","rocketlawyer","creditkarma","tinder","bumble","hinge","grindr","okcupid","match\\.com","ashleymadison",
 "hr","human[-_]?resources","leave","leaves","absence","payroll","compensation","comp","salary","salaries","benefits",
 "disciplinary","discipline","grievances?","investigations?","employee[-_]?relations","er[-_]?cases","terminations?",
 "layoffs?","severance","performance[-_]?reviews?","pip","whistleblow\\w*","ethics[-_]?hotline","hotline",
 "legal","litigation","lawsuits?","counsel","disputes?","settlements?","contracts[-_]?disputes?","compliance","lawyers?",
 "attorneys?","courts?\\b","court date","courthouse","courts","criminal","bail","family[-_]?law","divorce","custody","dating","matchmaking",
 "security","secops","soc","incidents?","incident[-_]?response","breach\\w*","threat[-_]?intel","fraud","forensics",
 "finance","treasury","loans?","loanrates","lending","lender","debt","debts","credit","creditcards?","mortgages?","insurance",
 "claims?","collections","bankruptcy","payday",
 "health","healthline","webmd","medic\\w*","clinic\\w*","pharma\\w*","pharmacy","drugs","rx","doctors?","symptoms?",
 "hospital\\w*","nurse\\w*","wellness","counseling","counselling","therapy","therapists?",
 "housing","tenants?[-_]?(?:rights|union|disputes?|cases|complaints|screening|law|advice|help|protection|eviction)","tenancy","evictions?","rent[-_]?relief","homeless\\w*","shelter",
]
DEST_FORBIDDEN = [
 "pastebin\\.com","hastebin","ghostbin","requestbin","webhook\\.site","pipedream\\.net","ngrok","trycloudflare\\.com",
 "localtunnel","serveo\\.net","transfer\\.sh","file\\.io","anonfiles","\\.onion","spokeo","whitepages","beenverified",
 "peoplefinders?","truthfinder","intelius","mylife\\.com","radaris","pipl\\.com","interact\\.sh","oast\\.\\w+","burpcollaborator",
]
DEST_INTERNAL = [
 "\\.my\\.salesforce\\.com","\\.salesforce\\.com","api\\.hubapi\\.com","\\.atlassian\\.net","\\.slack\\.com","\\.sharepoint\\.com","\\.zendesk\\.com","\\.service-now\\.com","\\.servicenow\\.com","\\.okta\\.com",
 "\\.internal","\\.corp","\\.local","\\.lan","\\.intranet","intranet\\.","\\.corp\\.","\\.internal\\.","(?:^|//)10\\.\\d+\\.",
 "(?:^|//)192\\.168\\.","(?:^|//)172\\.(?:1[6-9]|2\\d|3[01])\\.","localhost","\\.svc\\.cluster\\.local",
]

# Stems that mark a sensitive topic on their own (the standalone `sensitive`
# pattern of std_args); the intent pattern uses TOPIC_STEMS + these.
SENS_STEMS = [
 "gemobbt","mobben","robo","roban","robado","robaron","diebstahl","gestohlen","bestohlen","vol de","stolen","theft","burglary","robbed","mugged",
 "pediatric\\w*","paediatric\\w*","pediatrician","orthodont\\w*","ophthalmolog\\w*","optometr\\w*","obstetric\\w*","radiolog\\w*",
 "gastroenterolog\\w*","pulmonolog\\w*","nephrolog\\w*","hematolog\\w*","allergists?","podiatr\\w*","chiropract\\w*","physiotherap\\w*",
 "surgeons?","midwi(?:fe|ves)","hebamme","kinderarzt\\w*","frauenarzt\\w*","hausarzt\\w*","augenarzt\\w*","pediatra",
 "pédiatre","gynécolog\\w*","sage-femme","denied claim","claim denied","claim (?:was )?denied","appeal (?:a|the) denial",
 "elterngeld","krankengeld","arbeitslosengeld","bürgergeld","wohngeld","mutterschaftsgeld","pflegegeld",
 # added after the third batch: generic phrasings of distress and situations
 "legal help","legal advice","employee rights","workers'? rights","employment (?:law|rights|tribunal)","(?:tenant|renter|patient|employee|worker)s?'? rights",
 "rights of (?:employees|workers|tenants|renters|patients)","redundanc(?:y|ies)","job cuts","gay","lesbian","lgbt\\w*","same-sex","queer","bisexual",
 "grief","grieving","bereave\\w*","(?:losing|lost) (?:a|my|your|our) (?:parent|mother|father|child|baby|husband|wife|partner)",
 "cortisol","testosterone","estrogen","hormones?","blood pressure","cholesterol","blood sugar","thyroid","biopsy",
 "std clinic","std testing","sti clinic","sexual health","disabilit(?:y|ies)","wheelchair","lab (?:appointment|work|results?|tests?)",
 "can't (?:afford|pay)","cannot (?:afford|pay)","struggling to pay","unable to pay","n'arrive (?:plus )?à payer","no puedo pagar","kann (?:die |meine )?\\w* ?nicht (?:mehr )?(?:zahlen|bezahlen)",
 "echar(?:me)? (?:del piso|de casa|del trabajo)","echan del piso","controla(?:r)? (?:el|mi) (?:móvil|teléfono|celular)","controlling (?:partner|boyfriend|husband|girlfriend|wife)",
 "(?:checks|reads|tracks) my (?:phone|messages|location)","ne (?:me )?paie pas","doesn't pay me","not paying me","hasn't paid me","no me paga\\w*","zahlt (?:mir )?(?:kein|nicht)",
 "unpaid (?:wages|salary|overtime)","private photos","intimate (?:photos|images|videos)","nudes","revenge porn","leaked (?:photos|nudes|videos)",
 "being followed","followed me","threaten\\w*","menace\\w*","amenaza\\w*","bedroht\\w*",
 "medical","clinic","hospital\\w*","er visit","ambulance","pharmacy","prescri\\w*","dosage","overdose","vaccine injury",
 "police","warrant","searched my","search my (?:car|house|phone)","traffic stop","pulled over","speeding ticket",
 "immigra\\w*","residency permit","work permit","citizenship","passport (?:seized|revoked)",
 "pregnan\\w*","period (?:late|missed)","missed (?:my )?period","morning after","plan b pill",
 # health
 "cancer","cancers","tumou?rs?","chemo\\w*","oncolog\\w*","biops\\w*","metasta\\w*","depress(?:ion|ed|ive)","anxi(?:ety|ous)",
 "panic attacks?","ptsd","bipolar","schizo\\w*","adhd","autis(?:m|tic)","suicid\\w*","self[- ]harm\\w*","addict\\w*",
 "alcoholi\\w*","overdos\\w*","rehab","pregnan\\w*","miscarr\\w*","abortions?","ivf","fertility","infertil\\w*",
 "contracepti\\w*","hiv","herpes","chlamydia","syphil\\w*","gonorr\\w*","hepatitis","diabet\\w*","prediabet\\w*","insulin",
 "dementia","alzheimer\\w*","parkinson\\w*","epilep\\w*","seizures?","asthma","antidepress\\w*","psychiatr\\w*","psycholog(?:ist|ists)",
 "therap(?:y|ies|ist|ists|eutic)","symptoms?","diagnos(?:is|ed|es)","cardiolog\\w*","neurolog\\w*","dermatolog\\w*","gyn(?:a)?ecolog\\w*",
 "urolog\\w*","endocrinolog\\w*","rheumatolog\\w*","genetic test\\w*","brca\\w*","tested positive","positive (?:\\w+ )?test",
 "test (?:came back|was) positive","sexually transmitted","std tests?","sti tests?","(?:using|on|doing|taking) drugs","drug (?:use|abuse|addiction)",
 "postpartum","prenatal","quit drinking","stop drinking","drinking problem","quit smoking","obgyn","mental (?:health|illness|breakdown)","eating disorders?","anorexi\\w*","bulimi\\w*","opioids?",
 "medications?","prescriptions?","side effects","surger(?:y|ies)","cardiologist","oncologist","psychiatrist","therapist",
 # legal
 "lawsuits?","sued","suing","sue (?:my|the|a|them|him|her|someone|for|over)","attorneys?","lawyers?","arrest(?:ed|s)?","felon(?:y|ies)",
 "misdemean\\w*","dui","dwi","jail","prisons?","probation","parole","bail bond\\w*","convict(?:ed|ion)","expunge\\w*","criminal (?:record|charges?|case|defen[cs]e)",
 "restraining orders?","protective orders?","deport\\w*","immigration","asylum","undocumented","visa (?:renewal|status|denied|refus\\w*|overstay|sponsorship|interview|application)",
 "green card","naturali[sz]ation","subpoena\\w*","legal (?:action|dispute|trouble|proceedings|advice|aid)","court (?:date|hearing|case|order|summons)",
 # employment
 "fired","fire (?:me|you|him|her|them|an employee|someone|workers?)","firing (?:me|you|him|her|them|an employee)","laid off","lay ?offs?",
 "severance","unemploy\\w*","harass\\w*","discriminat(?:ion|ed|ing)","retaliat\\w*","whistleblow\\w*","grievances?","maternity","paternity",
 "parental leave","sick leave","medical leave","fmla","wrongful (?:termination|dismissal)","unfair dismissal","constructive dismissal",
 "lose (?:my|your|their) job","losing (?:my|your|their) job","lost (?:my|your|their) job","labou?r unions?","trade unions?","unioni[sz]\\w*","union (?:negotiation|organi[sz]ing|rep)",
 # financial
 "bankrupt\\w*","insolven\\w*","debts?","in debt","foreclos\\w*","garnish\\w*","reposs\\w*","payday loans?","overdraft\\w*","overdrawn",
 "credit scores?","bad credit","collection agenc(?:y|ies)","debt collect\\w*","food stamps","welfare","late payments?","unauthori[sz]ed (?:charges?|transactions?|use)",
 "without (?:my )?permission","card (?:was )?(?:stolen|cloned|skimmed)",
 # housing
 "evict\\w*","homeless\\w*","unlawful detainer","notice to (?:quit|vacate)","tenant(?:'s|s')? rights","renters? rights","rent (?:arrears|assistance|relief)",
 "(?:behind on|can't pay|cant pay|afford) (?:my |the )?rent","section 8",
 # security
 "hacked","identity theft","stolen identity","stalk(?:er|ing|ed|erware)?","doxx\\w*","blackmail\\w*","extort\\w*","scam(?:med|mer|mers)?","phished","phishing (?:attack|scam)",
 "fraud\\w*","data breach\\w*","sextortion","death threats?","spyware","stalkerware",
 # relationship
 "divorc\\w*","custody","alimony","child support","spousal support","cheat(?:ing|ed) on","cheating (?:husband|wife|partner|spouse|boyfriend|girlfriend)",
 "(?:partner|husband|wife|boyfriend|girlfriend|spouse) (?:is )?cheating","infidel\\w*","unfaithful","affairs?","abus(?:ive|ed|er)","domestic (?:violence|abuse)",
 "violent","prenup\\w*","paternity test\\w*","estrange\\w*","break ?ups?","gaslight\\w*","sexual (?:assault|abuse|orientation)","rape","transgender","gender (?:identity|dysphoria|transition)",
 # German
 "krebs\\w*","tumor\\w*","chemotherapie","depression(?:en)?","angststörung\\w*","panikattack\\w*","schwanger\\w*","abtreibung","fehlgeburt","demenz",
 "diabetes","therapeut\\w*","psychotherap\\w*","psychiat\\w*","krankheit\\w*","erkrank\\w*","nebenwirkung\\w*","diagnose\\w*","arzttermin\\w*",
 "kündigung\\w*","gekündigt","entlass\\w*","abfindung\\w*","arbeitslos\\w*","mobbing","belästig\\w*","abmahnung","gewerkschaft\\w*",
 "schulden","schuldner\\w*","insolvenz\\w*","pfändung\\w*","inkasso\\w*","schufa\\w*","mahnung\\w*","räumung\\w*","obdachlos\\w*","eigenbedarf\\w*",
 "scheidung\\w*","sorgerecht\\w*","unterhalt","gewalt","abschiebung\\w*","asyl\\w*","vorstrafe\\w*","anwalt","anwältin","rechtsanwalt\\w*","klage","strafanzeige",
 "betrug\\w*","gehackt","erpress\\w*","job (?:zu )?verlier\\w*","arbeit (?:zu )?verlier\\w*",
 # Spanish
 "cáncer","quimioterapia","depresión","depresion","ansiedad","embarazad\\w*","embarazo","aborto","adicci\\w*","psiquiatr\\w*","psicólog\\w*",
 "enfermedad\\w*","síntomas?","sintomas?","diabetes","despid\\w*","despido\\w*","desempleo","paro","acoso","deudas?","quiebra","bancarrota","embargo",
 "desahucio\\w*","desalojo\\w*","divorci\\w*","custodia","maltrato\\w*","violencia","abogad\\w*","demanda(?:r|do|da)?","detenid\\w*","cárcel","asilo",
 "deportaci\\w*","estafa\\w*","sindicato","perder (?:mi|el) (?:trabajo|empleo)","pagar el alquiler","ayudas? (?:al|para el|para pagar el) alquiler",
 # French
 "tumeur\\w*","chimio\\w*","dépression","anxiété","enceinte","grossesse","avortement","ivg","addiction","psychiatr\\w*","maladie\\w*","symptômes?",
 "licenci(?:é|ée|ement)","chômage","chomage","harcèlement","harcelement","dettes?","surendett\\w*","faillite","expulsion","divorc\\w*",
 "garde des enfants","violences?","violent","avocat","procès","plainte","prison","asile","arnaqu\\w*","escroqu\\w*","piraté\\w*","syndicat",
 "perdre mon (?:emploi|travail|boulot)",
]

# ---------------------------------------------------------------------------
# Generalisation round. Framings that reveal the user's own situation without
# a first-person pronoun ("struggling with", "need a ... lawyer asap"), plural
# first person in four languages, and topic stems for vocabulary the stems
# above missed (procedures, imaging, bereavement, court procedure, tenancy,
# drug use in DE/ES/FR).
INTENT_WORDS += [
 "need a","need an","asap","urgently","struggling with","struggling","dealing with","coping with",
 "suffering from","recovering from","worried about","worried","scared","afraid","just found out","found out",
 "need advice","any advice","seeking advice","advice needed","ways to","best way to","tips for","tips to","what now","what next",
 "what can i do","what are my options","my options","we","wir","uns","nous","nosotros","nosotras","nuestros","nuestras",
 "ayuda","necesito","no sé qué hacer","no se que hacer","qué puedo hacer","que puedo hacer","aide","aidez-moi","besoin d'aide",
 "j'ai besoin","je dois","was nun","was soll ich","ich brauche","brauche","hilfe bei",
]
SENS_STEMS += [
 "befund\\w*","m[ée]dicale?s?","médicaux","medicaux","medizinisch\\w*","médic[oa]s?","arztbrief\\w*","attest vom arzt",
 "mastectom\\w*","lumpectom\\w*","hysterectom\\w*","colostom\\w*","amputat\\w*","bariatric","gastric (?:bypass|band|sleeve)",
 "(?:knee|hip) replacement","mri","resonancia","tomograf\\w*","ecograf\\w*","échograph\\w*","ultraschall\\w*","röntgen\\w*",
 "kidney (?:function|failure|disease|stones?|transplant)","liver (?:function|failure|disease|transplant|enzymes)",
 "(?:lab|blood|lipid|metabolic|thyroid) panel","counsell?ing","psychologists?","drogu\\w*","drogas?","drogen\\w*",
 "migr[aä]ne\\w*","migraña","migraines?",
 "endeudad\\w*","chapter (?:7|11|13)","landlords?","landlady","vermieter\\w*","security deposits?","casero","casera",
 "passed away","death of (?:my|a|her|his|their|our)","verstorben\\w*","fallecid\\w*","fallecimiento","décédée?","décès","deuil",
 "widow(?:ed|er)?","trauerfall","todesfall",
 "motion to (?:dismiss|compel|suppress)","summary judgment","plaintiffs?","defendants?","arraign\\w*",
]
# Acronyms also matched in capitals ("HIV", "MRI", "DUI"): stems are
# case-insensitive on their first letter only.
ACRONYMS = ["hiv","ptsd","adhd","dui","dwi","ivf","ivg","fmla","lgbt\\w*","brca\\w*","mri","irm","vih","sida","tdah","copd","ocd","bpd"]

# ---------------------------------------------------------------------------
# Destinations, generalisation round. `\w` is replaced by `[a-z0-9]` in the
# emitted patterns (ASCII classes keep the patterns small).
#
# Clinical words: `regulated` in a bare collection name or in the path of an
# internal URL (the tenant's own clinical records), `sensitive` in a public
# host (a health information site such as "www.cancer.org"); the regulated
# list above keeps record systems, providers, banks, immigration and tax.
DEST_CLINICAL = [
 "prenatal","maternity","obstetric\\w*","pediatric\\w*","paediatric\\w*","clinical\\w*","occupational[-_]?health","employee[-_]?health",
 "onkolog\\w*","oncolog\\w*","onco\\w*","krebs\\w*","cancer\\w*","tumou?r\\w*","salud[-_]?mental","sant[eé][-_]?mentale","psiquiatr\\w*",
 "psychiatr\\w*","mental[-_]?health","behavioral[-_]?health","behavioural[-_]?health","psych","psych[-_]\\w+","psychology","psycholog\\w*",
 "therap\\w*","counsell?ing","hiv","sexual[-_]?health","reproductive\\w*","abortion","fertility","ivf","substance[-_]?(?:use|abuse)",
 "addiction\\w*","rehab\\w*","detox","genetic\\w*","genomics?","dna","lab[-_]?results","labs","radiolog\\w*","patholog\\w*",
 "cardiolog\\w*","dermatolog\\w*","neurolog\\w*","gastroenterolog\\w*","endocrinolog\\w*","nephrolog\\w*","urolog\\w*","gyn(?:a)?ecolog\\w*",
 "hematolog\\w*","haematolog\\w*","rheumatolog\\w*","pulmonolog\\w*","ophthalmolog\\w*","orthop(?:a)?edic\\w*","anesthesi\\w*","geriatr\\w*",
 "allerg\\w*","immunolog\\w*","infectious[-_]?diseases?","dental","dentist\\w*","orthodont\\w*","optometr\\w*","audiolog\\w*","podiatr\\w*",
 "physiotherap\\w*","psychotherap\\w*","hypnotherap\\w*","chemotherap\\w*","radiotherap\\w*","krank\\w*","maladie\\w*","arr[eê]ts?[-_]maladie","disabilit\\w*","medic\\w*","m[eé]dic\\w*","clinic\\w*","klinik\\w*","cl[ií]nic\\w*","hospital\\w*","nurs(?:e|es|ing)",
 "doctors?","symptoms?","diagnos\\w*","gesundheit\\w*","kranken\\w*","krankheit\\w*","medizin\\w*","salud","sant[eé]","sante[-_]au[-_]travail",
 "m[eé]decine[-_]du[-_]travail","arbeitsmedizin\\w*","betriebsarzt\\w*","salud[-_]laboral","medicina[-_]del[-_]trabajo",
 "health[-_]?(?:records?|notes|files|data|claims?|insurance|plans?|screenings?|checks?[-_]?ups?)",
]
# Always regulated, wherever they appear.
DEST_REGULATED_ALWAYS = [
 "patienten\\w*","pacientes?","patients?","patient[-_]?\\w+","ehr","emr","phi","fhir","mychart","epic[-_]?(?:ehr|emr|mychart|systems)",
 "medical[-_]?records?","health[-_]?records?","clinical[-_]?notes","therapy[-_]?notes","plannedparenthood","betterhelp","talkspace",
 "amwell","mdlive","doctolib","zocdoc","doctorondemand","onemedical","nurx",
 "einwanderung\\w*","ausl[aä]nder\\w*","inmigraci[oó]n","extranjer\\w*","immigration\\w*","visas?","visa[-_]\\w+","asylum\\w*","asyl\\w*","asilo",
 "deportation","uscis","work[-_]?permits?","aufenthalt\\w*","titre[-_]de[-_]s[eé]jour",
 "credit[-_]?bureau\\w*","experian","equifax","transunion","schufa","bank[-_]?accounts?","banking","plaid","open[-_]?banking","truelayer",
 "yodlee","finicity","paypal","venmo","revolut","monzo","starling","wellsfargo","capitalone","hsbc","barclays","lloyds","natwest",
 "santander","bbva","caixabank","sabadell","commerzbank","sparkasse\\w*","volksbank\\w*","postbank","bnpparibas","societegenerale",
 "creditagricole","schwab","fidelity","vanguard","robinhood","etrade","interactivebrokers","coinbase","binance",
 "aetna","cigna","unitedhealthcare","uhc","humana","anthem","bcbs","bluecross\\w*","blueshield\\w*","kaiserpermanente","aok","barmer",
 "krankenkasse\\w*","krankenversicherung\\w*","mutuelle\\w*","cpam","assurance[-_]?maladie","seguridad[-_]?social","securite[-_]?sociale",
 "tax[-_]?records?","tax[-_]?returns?","irs","ssa","hmrc","tributari\\w*","agenciatributaria","hacienda","finanzamt\\w*","impots","social[-_]?security","benefits[-_]?claims?","medicaid","medicare",
]
# Any host label containing "bank" ("bankofamerica", "usbank", "deutsche-bank"),
# unless it is a food bank, a data bank, a rate-comparison site ...
DEST_BANK = "[a-z0-9-]*bank(?:ing)?[a-z0-9-]*"
DEST_SENSITIVE += [
 "contentieux","litige\\w*","juridi\\w*","despido\\w*","despidos","n[oó]minas?","salari\\w*","sueldos?","lohn\\w*","gehalt\\w*",
 "impuestos?","fiscal\\w*","imp[oô]ts?","steuer\\w*","tax","taxes","tax[-_](?:filings?|docs?|documents?|forms?|prep|cases?)",
 "arbeitsrecht\\w*","mietrecht\\w*","recht\\w*","k[üu]ndigung\\w*","kuendigung\\w*","abmahnung\\w*","licenciement\\w*","prud\\w*hom\\w*",
 "personalakte\\w*","pentest\\w*","vuln\\w*","exploit\\w*","red[-_]?team\\w*","appsec","infosec","cyber\\w*","cve","malware",
 "phishing","threat\\w*","forensic\\w*","siem","alcohol\\w*","sober\\w*","crisis","suicide\\w*","abuse","violence","assault",
 "survivors?","disciplin\\w*","harass\\w*","bullying","mobbing","discriminat\\w*","retaliation","misconduct","lgbt\\w*","pregnan\\w*","wellbeing","well-being","ombuds\\w*","speak[-_]?up",
]
# Topic words anywhere inside a host label ("www.alcoholhelp.example").
DEST_SUBSTRING = ["health","medic","clinic","therap","psych","lawyer","legal","loan","debt","credit","dating","divorce","rehab","pharma",
 "cancer","onco","tumor","hospital","doctor","dental","dentist","nurse","alcohol","addict","sober","hotline","crisis","suicid","abuse",
 "violence","attorney","lawfirm","evict","housing","homeless","bankrupt","insolv","payday","salary","payroll","unemploy","custody",
 "lgbt","pregnan","fertility","abortion","breach","diabet","alzheimer","autism","arthritis","kidney","mental","anxiety","depress",
 "bipolar","schizo","epilep","tenantsright","tenantright","tenantsunion","mieterverein","mieterbund"]
DEST_FORBIDDEN += [
 "[a-z]?paste(?:bin|ie|s|board)?","pastie","pastebin\\w*","termbin","filebin","mockbin","hookbin","ghostbin","hastebin","postb\\.in",
 "ngrok\\w*","localtunnel","serveo","localhost\\.run","pagekite","bore\\.pub","telebit","localxpose","tunnelto","tunnelmole","pinggy",
 "transfer\\.sh","file\\.io","sprunge","temp\\.sh","tmpfiles","catbox","litterbox","gofile","bashupload","uguu","keep\\.sh",
 "requestbin","requestcatcher","beeceptor","canarytokens","dnslog","ptsv[23]","webhook\\.cool",
 "instantcheckmate","peoplelooker","\\w*peoplesearch\\w*","people[-_]?search\\w*","people[-_]?finders?","person[-_]?lookup",
 "background[-_]?checks?","zabasearch","thatsthem","usphonebook","nuwber","clustrmaps","familytreenow","192\\.com","pimeyes",
 "facecheck","peekyou","ussearch","checkpeople","searchpeoplefree","publicrecords\\w*",
]
DEST_REGULATED = [x for x in DEST_REGULATED if x not in DEST_CLINICAL and x not in ("migration", "epic", "medizin\\w*", "patienten\\w*", "pacientes?")]
# Words that make a government host public information ("api.weather.gov").
GOV_PUBLIC = ["nps","weather","climate","census","statistics","parks","earthquake","earthquakes","meteo","noaa","usgs","nws","nist","bls",
 "science","museum","museums","library","archives","metoffice","destatis","insee","fueleconomy","data.gov","data.gov.uk","data.gouv.fr","datos.gob.es"]
BANK_PUBLIC = ["bankrupt","bankruptcy","bankruptcies","foodbank","food bank","food-bank","databank","bankrate","bank holiday","bank holidays","bankholidays","riverbank","piggybank",
 "worldbank","world bank","blood bank","bloodbank","west bank","left bank","bankside","bank statement template"]

# Medical word formation: inflammations, surgical procedures, tumours,
# diseases, drug-name suffixes. One stem covers a whole family of terms the
# lexicons cannot list ("tendinitis", "cholecystectomy", "atorvastatin").
MED_SUFFIX_STEMS = [
 "[A-Za-z]{3,}itis",
 "[A-Za-z]{2,}ectom(?:y|ies)","[A-Za-z]{2,}ostom(?:y|ies)","[A-Za-z]{3,}oplast(?:y|ies)",
 "(?:endo|colono|laparo|arthro|broncho|cysto|colpo|gastro|sigmoido|hystero|laryngo)scop(?:y|ies|ic)",
 "(?:an|leuk|glyc|hypoglyc|hyperglyc|lipid|isch|ur|sept|thalass|bacter|vir|hypox|tox|an)a?emia",
 "(?:my|neur|arthr|fibromy|cephal|gastr|ot|od|polymy)algia",
 "(?:melan|carcin|lymph|sarc|gli|blast|myel|aden|lip|fibr|mening|hemangi|glauc|neur|terat|mesotheli|astrocyt)omas?",
 "(?:thromb|fibr|cirrh|psych|neur|scoli|endometri|tubercul|sten|necr|sarcoid|ket|osteopor|arterioscler|atheroscler|scler|diverticul|mononucle|halit|hidr|cyan)osis",
 "(?:neuro|cardiomyo|myo|retino|nephro|encephalo|osteo|radiculo)path(?:y|ies)","(?:dys|a)troph(?:y|ies)",
 "[A-Za-z]{3,}(?:prazole|statins?|pril|sartan|olol|cillin|floxacin|azepam|azolam|oxetine|traline|apine|idone|codone|tidine|afil|gliptin|glutide|formin|thyroxine|triptan|pentin|mycin|isone|olone|cycline|navir|tinib|umab|ximab|zumab|triptyline|ipramine|trigine)",
]
SENS_STEMS += MED_SUFFIX_STEMS + [
 "lithium","ibuprofen","acetaminophen","paracetamol","naproxen","tramadol","morphine","codeine","warfarin","eliquis","xarelto","vyvanse",
 "wellbutrin","bupropion","trazodone","abilify","lamictal","topiramate","depakote","valproate","ambien","zolpidem","accutane",
 "isotretinoin","minoxidil","finasteride","mifepristone","misoprostol","paxlovid","tamiflu","albuterol","inhalers?","antibiotics?",
 "antihistamines?","naloxone","narcan","buprenorphine","estradiol","progesterone","melatonin",
 "vertigo","gallbladder","gallstones?","a1c","hba1c","utis?","urinary tract infections?","yeast infections?","bladder infections?",
 "strep throat","hemorrhoids?","haemorrhoids?","ibs","gerd","acid reflux","ulcers?","polyps?","cysts?","fractur\\w*","sprain\\w*",
 "torn (?:acl|meniscus|ligament|rotator cuff)","broken (?:arm|leg|wrist|ankle|ribs?|bones?|nose|toes?|fingers?|collarbone|hip)",
 "broke (?:my|his|her) (?:arm|leg|wrist|ankle|ribs?|nose|toe|finger|collarbone|hip)",
 "(?:chest|back|joint|knee|neck|stomach|abdominal|pelvic|nerve|tooth|ear|shoulder|hip|wrist|period|lower back|chronic|menstrual) pains?",
 "painkillers?","hopeless(?:ness)?","worthless","can't stop crying","no reason to live","late period","period is (?:\\w+ )?(?:days?|weeks?) late",
 "blood clots?","palpitations","dizz(?:y|iness)","nausea","vomiting","diarrh(?:o)?ea","constipation","allerg(?:y|ies|ic)",
 "weight loss surgery","déprimée?s?","deprimid[oa]s?","deprimiert\\w*","bulto en (?:el|la|mi)","arrêter de boire","dejar de beber",
 "aufhören zu trinken","dolor de (?:pecho|cabeza|espalda|estómago|estomago|muelas|oído|garganta)","douleurs? (?:thoracique|abdominale|dorsale|lombaire|chronique)s?",
 "mal (?:de dos|de tête|au ventre|de gorge)","[A-Za-zäöüß]*schmerz\\w*","[A-Za-zäöüß]*entzündung\\w*",
 "cease and desist","small claims","probate","depositions?","defamation","libel","slander","einspruch","strafbefehl\\w*",
 "passed over for (?:a )?promotion","because of (?:my|her|his|their) (?:age|race|gender|religion|disability|pregnancy|sexuality|skin colou?r|accent|weight|nationality)",
 "(?:alcohol|opioid|opiate|nicotine|benzo|benzodiazepine|drug|heroin|ssri|antidepressant|caffeine) withdrawal","collection calls?","withhold(?:ing)? (?:the |my )?rent","rent withholding","(?:security |rental )?deposit (?:back|returned|refund\\w*)",
 "(?:phone|car|location) (?:is )?(?:being )?tracked","opened (?:a |an )?(?:\\w+ )?(?:credit card|account|loan|card) in my name",
]
# Words that reveal a health situation only with a first-person or
# help-seeking framing ("si tengo covid", "ich habe Fieber"): intent stems only.
TOPIC_STEMS += ["covid\\w*","fever","fevers","fieber","fiebre","fièvre","cough","coughing","husten","toux","flu","grippe","gripe","rash",
 "pain","pains","dolor","douleurs?","schmerzen","lump","bulto","lumps"]
