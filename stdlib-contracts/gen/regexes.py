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
 "housing","tenants?","tenancy","evictions?","rent[-_]?relief","homeless\\w*","shelter",
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
