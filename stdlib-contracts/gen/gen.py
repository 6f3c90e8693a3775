import re, sys
sys.path.insert(0, '/tmp/stpcgen')
from data_topics import TOPICS, HARD_NEG, EXCLUDE, EXTRA, HARD_NEG_EXTRA
for _k,_v in EXTRA.items(): TOPICS[_k] += _v
from data_topics import MORE, MORE2, MORE3, HARD_NEG_EXTRA2
for _k,_v in MORE.items(): TOPICS[_k] += _v
for _k,_v in MORE2.items(): TOPICS[_k] += _v
for _k,_v in MORE3.items(): TOPICS[_k] += _v
for _k,_v in HARD_NEG_EXTRA.items(): HARD_NEG[_k] += ' | ' + _v
for _k,_v in HARD_NEG_EXTRA2.items(): HARD_NEG[_k] += ' | ' + _v
from data_intent import INTENT_PHRASES, INTENT_TOPIC, PERSONAL_CONTEXT, PROPER_PUBLIC
import regexes as R

TECH = ("kill process | child process | parent process | zombie process | orphan process | background process | process id | process exited | "
        "process on port | running process | process manager | process tree | processes in linux | list processes | thread | threads | "
        "kubernetes | k8s | docker | container | pod | pods | python | javascript | typescript | "
        "rust | golang | java | npm | pip install | cargo build | cargo run | cargo test | cargo.toml | git | github | gitlab | api | sdk | regex | sql | postgres | database | "
        "cache | redis | server | kubernetes cluster | k8s cluster | database cluster | cluster node | compile | compiler | exception | stack trace | segfault | unit test | unit tests | "
        "build failed | build error | build pipeline | build system | build script | docker build | npm run build | gradle build | build job | "
        "deploy | deployment | ci | pipeline | function call | function pointer | lambda function | arrow function | async function | callback function | "
        "cleanup function | serverless function | function signature | variable | browser | css | html | svg | json | yaml | dataset | "
        "linux | bash | terminal emulator | terminal command | linux terminal | mac terminal | terminal window | windows terminal | in the terminal | "
        "vim | emacs | vscode | react | node.js | nodejs | node js | node_modules | node modules | node version | tree node | k8s node | kubernetes node | "
        "node pool | webpack | dhcp | etcd | lru | doctor who | dr who | "
        "minecraft | video game | videogame | board game | game engine | game dev | gamedev | game design | in-game | game mod | game character | "
        "game boss | pc game | mobile game | card game | game console | game of thrones | movie | film | tv show | tv series | time series | "
        "netflix series | book series | world series | series finale | novel | song | lyrics | album | rubber band | boy band | rock band | "
        "band members | band tour | band practice | recipe | weather | forecast | ownership model | borrow checker | lifetimes | goroutine | async | "
        "what we know about | what do we know about | what we know so far | what we learned about")

def esc(s):
    return s.replace('\\', '\\\\').replace('"', '\\"')

def parse_groups(text):
    out = []
    for line in text.strip().splitlines():
        line = line.strip()
        if not line:
            continue
        rep, phrases = line.split(':', 1)
        ps = [p.strip() for p in phrases.split('|') if p.strip()]
        out.append((rep.strip(), ps))
    return out

def uniq(seq):
    seen = set(); out = []
    for p in seq:
        k = ''.join(c.lower() if c.isascii() else c for c in p) if p is not None else None
        if k in seen: continue
        seen.add(k); out.append(p)
    return out

def lex_block(name, comment, groups):
    lines = [f"// {c}" for c in comment]
    lines.append(f"lexicon {name} {{")
    entries = []
    seen = set()
    for rep, ps in groups:
        for p in ps:
            if p in EXCLUDE: continue
            k = ''.join(c.lower() if c.isascii() else c for c in p) if p is not None else None
            if k in seen: continue
            seen.add(k)
            entries.append((p, rep))
    body = []
    for rep_group in uniq([r for _, r in entries]):
        items = [p for p, r in entries if r == rep_group]
        if rep_group is None:
            chunk = ", ".join(f'"{esc(p)}"' for p in items)
        else:
            chunk = ", ".join(f'"{esc(p)}" => "{esc(rep_group)}"' for p in items)
        body.append(chunk)
    # wrap long lines
    text = ",\n".join(body)
    wrapped = []
    for para in text.split("\n"):
        cur = "   "
        for tok in re.split(r'(?<=,) ', para):
            if len(cur) + len(tok) + 1 > 110:
                wrapped.append(cur.rstrip()); cur = "    " + tok
            else:
                cur += " " + tok
        wrapped.append(cur.rstrip())
    lines += wrapped
    lines.append("}")
    return "\n".join(lines), len(entries)

def plain_block(name, comment, text):
    ps = [p.strip() for p in text.replace("\n", " ").split("|") if p.strip()]
    ps = [p for p in uniq(ps) if p not in EXCLUDE and not p.endswith('?')]
    groups = [(None, ps)]
    return lex_block(name, comment, groups)

counts = {}
parts = []
parts.append("""// std::lexicons — phrase lists for the std labelers and rewrite transforms.
//
// Matching (runtime): ASCII case-insensitive, whole words only (a phrase must
// start and end at word boundaries), overlapping. Non-ASCII letters match
// case-sensitively, so phrases starting with an umlaut are listed in both
// cases. Inflections are listed explicitly (`evict`, `evicted`, `eviction`...);
// the regex patterns of `std::labelers` add stems and German compounds.
//
// Topic lexicons (`*_terms`) mark a field `sensitive`; each phrase carries a
// generic replacement (`=>`), so the same lexicon is the rewrite dictionary of
// `std::transforms`. Replacements are chosen so that they are not themselves
// in any topic lexicon: a rewritten field relabels below `sensitive` (A3).
// Hard-negative lexicons (`*_public`) are public contexts that reuse a topic
// word ("cache eviction", "legal tender", "technical debt", "health check");
// labelers use them with `unless lexicon`.
//
// Languages: English, plus the most common phrasings in German, Spanish and
// French. This file is generated from a phrase table and then maintained by
// hand; keep each lexicon's entries lower-case.
""")

topic_comments = {
 "health_terms": ["Health: conditions, treatments, clinicians, tests, mental health, sexual and", "reproductive health, addiction, medications."],
 "legal_terms": ["Legal trouble: lawsuits, lawyers, criminal matters, protection orders,", "immigration status, traffic offences."],
 "employment_terms": ["Employment disputes and transitions: dismissal, resignation, unemployment,", "workplace harassment and discrimination, leave, work visas."],
 "financial_terms": ["Financial distress: debt, bankruptcy, collections, credit, high-cost loans, benefits."],
 "housing_terms": ["Housing trouble: eviction, lease termination, tenant rights, arrears,", "homelessness, foreclosure; and urgent apartment searches."],
 "security_terms": ["Personal security incidents: hacked accounts, identity theft, stalking,", "extortion, threats, scams and fraud."],
 "relationship_terms": ["Relationships and family: divorce, custody, support, infidelity, domestic", "violence, sexual orientation and gender identity, estrangement."],
}
for name, text in TOPICS.items():
    blk, n = lex_block(name, topic_comments[name], parse_groups(text))
    counts[name] = n
    parts.append(blk)

blk, n = lex_block("intent_topic_phrases",
    ["First-person or situation-specific phrasings of a sensitive topic: the user's own",
     "situation or plan. Labelled intent_revealing; rewritten to a neutral phrase."],
    parse_groups(INTENT_TOPIC))
counts["intent_topic_phrases"] = n; parts.append(blk)

blk, n = lex_block("intent_phrases",
    ["Bare intent framings (\"how do I\", \"should I\", \"my\"). Not a label on their own",
     "(\"how do I install numpy\" is public); the rewrite transforms use them to turn",
     "first-person questions into impersonal ones after the topic phrases are gone."],
    parse_groups(INTENT_PHRASES))
counts["intent_phrases"] = n; parts.append(blk)

blk, n = plain_block("personal_context",
    ["First-person references to the user's own people, accounts and schedule, with no", "sensitive topic: personal."],
    PERSONAL_CONTEXT)
counts["personal_context"] = n; parts.append(blk)

hn_comments = {
 "health_public": "Public contexts of health words: game health bars, service health checks, SVG strokes, the Great Depression.",
 "legal_public": "Public contexts of legal words: legal tender, basketball courts, free trials, Moore's law.",
 "employment_public": "Public contexts of employment words: cron jobs, fired events, process termination.",
 "financial_public": "Public contexts of financial words: technical debt, stock market indices, default values, the national debt.",
 "housing_public": "Public contexts of housing words: cache eviction, DHCP and etcd leases.",
 "security_public": "Public contexts of security words: hackathons, life hacks, fraud-detection models, CTFs.",
 "relationship_public": "Public contexts of relationship words: separation of concerns, crypto custody, current affairs.",
}
all_neg = []
for name, text in HARD_NEG.items():
    blk, n = plain_block(name, [hn_comments[name]], text)
    counts[name] = n; parts.append(blk)
    all_neg += [p.strip() for p in text.split("|")]
blk, n = plain_block("intent_public",
    ["Hard negatives for the intent rules: every topic's public contexts plus technical,",
     "entertainment and everyday contexts in which \"my ... lease/court/fired\" is not about the user."],
    " | ".join(all_neg) + " | " + TECH)
counts["intent_public"] = n; parts.append(blk)

blk, n = plain_block("gov_public",
    ["Public-information government services (weather, statistics, parks, science):",
     "hard negatives for the `regulated` government-host rule of `std_destinations`."],
    " | ".join(R.GOV_PUBLIC))
counts["gov_public"] = n; parts.append(blk)

blk, n = plain_block("bank_public",
    ["Host words that contain \"bank\" but are not banks (food banks, data banks, rate",
     "comparison sites, bank holidays): hard negatives for the bank-host rule."],
    " | ".join(R.BANK_PUBLIC))
counts["bank_public"] = n; parts.append(blk)

blk, n = plain_block("proper_nouns_public",
    ["Capitalised multi-word names that are places, products, organisations or public figures,",
     "not private persons: hard negatives for the person-name pattern."],
    PROPER_PUBLIC)
counts["proper_nouns_public"] = n; parts.append(blk)

open('/work/main/stdlib-contracts/lexicons.stpc', 'w').write("\n\n".join(parts) + "\n")
print(counts, sum(counts[k] for k in TOPICS))

# ------------------------------------------------------------ labelers
def alt(xs):
    return "|".join(xs)
intent_words = alt(sorted(set(re.escape(w).replace("\\ ", " ").replace("\\-", "-").replace("\\'", "'") for w in R.INTENT_WORDS), key=lambda w: (-len(w), w)))
apos = alt(R.INTENT_APOS)
def split_stems(stems):
    """Stems ending in \\w* become prefix matches (no right boundary); the rest keep one."""
    pre, whole = [], []
    for s in stems:
        if s.endswith("\\w*"):
            pre.append(s[:-3])
        elif s.endswith("\\b"):
            whole.append(s[:-2])
        else:
            whole.append(s)
    return sorted(set(pre)), sorted(set(whole))
def cap1(s):
    """Case-insensitive first letter only: "krebs" -> "[Kk]rebs" (smaller than (?i))."""
    out = []
    for alt_ in s.split("|") if False else [s]:
        pass
    if s and s[0].isalpha() and s[0].lower() != s[0].upper():
        return f"[{s[0].upper()}{s[0].lower()}]" + s[1:]
    return s
def stem_re(stems, right=True):
    stems = [cap1(s) for s in stems]
    pre, whole = split_stems(stems)
    parts = []
    if whole:
        parts.append(rf"\b(?:{alt(whole)})" + (r"\b" if right else ""))
    if pre:
        parts.append(rf"\b(?:{alt(pre)})")
    return "(?:" + "|".join(parts) + ")"
def _translit(stems):
    """German umlauts also spelled ae/oe/ue/ss (ASCII keyboards, URLs), and
    acronyms also in capitals."""
    out = list(stems)
    for s in stems:
        t = s
        for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("Ä", "Ae"), ("Ö", "Oe"), ("Ü", "Ue"), ("ß", "ss")):
            t = t.replace(a, b)
        if t != s and "[" not in s:
            out.append(t)
    for a in R.ACRONYMS:
        if a in stems or a.replace("\\w*", "") in stems:
            out.append(a.replace("\\w*", "").upper() + ("\\w*" if a.endswith("\\w*") else ""))
    return out
R.TOPIC_STEMS = _translit(R.TOPIC_STEMS)
R.SENS_STEMS = _translit(R.SENS_STEMS + [a for a in R.ACRONYMS if a not in R.SENS_STEMS])
TOPIC = stem_re(R.TOPIC_STEMS + R.SENS_STEMS, right=False)
# The topic alternation is split in two halves, each in its own pair of intent
# patterns: the same matches, but every pattern stays well below the runtime's
# 1 MiB per-pattern limit.
_all_topic = sorted(set(R.TOPIC_STEMS + R.SENS_STEMS))
TOPIC_A = stem_re(_all_topic[: len(_all_topic) // 2], right=False)
TOPIC_B = stem_re(_all_topic[len(_all_topic) // 2 :], right=False)
intent_words_c = alt(sorted(set(cap1(re.escape(w).replace("\\ ", " ").replace("\\-", "-").replace("\\'", "'")) for w in R.INTENT_WORDS), key=lambda w: (-len(w), w)))
INTENT = rf"(?:\b(?:{intent_words_c})\b|\b(?:{alt(cap1(a) for a in R.INTENT_APOS)}))"
intent_re1 = rf"{INTENT}.*{TOPIC}"
intent_re2 = rf"{TOPIC}.*{INTENT}"
intent_re1a = rf"{INTENT}.*{TOPIC_A}"
intent_re1b = rf"{INTENT}.*{TOPIC_B}"
intent_re2a = rf"{TOPIC_A}.*{INTENT}"
intent_re2b = rf"{TOPIC_B}.*{INTENT}"
sens_re = stem_re(R.SENS_STEMS)
intent_re = intent_re1
def sep(xs, tail=True):
    return rf"(?i)(?:^|[^a-z0-9])(?:{alt(xs)})" + (r"(?:[^a-z0-9]|$)" if tail else "")
open('/tmp/stpcgen/intent_re.txt','w').write(intent_re)

def ascii_w(x):
    return x.replace("\\w*", "[a-z0-9]*").replace("\\w+", "[a-z0-9]+")
def sep_a(xs, tail=True):
    """Words of a destination, delimited by non-alphanumerics: ASCII-only
    case folding and classes keep the compiled pattern small."""
    body = alt(ascii_w(x) for x in xs)
    return r"(?:^|[^A-Za-z0-9])(?i:" + body + r")" + (r"(?:[^A-Za-z]|$)" if tail else "")
GOV_RE = (r"(?i:^(?:[a-z][a-z0-9+.-]*://)?(?:[^/?#]*@)?(?:[a-z0-9-]+\.)*"
          r"(?:gov|mil|gov\.[a-z]{2,3}|gouv\.fr|gob\.[a-z]{2}|bund\.de|nhs\.uk|gc\.ca|gv\.at|admin\.ch|govt\.nz)(?::[0-9]+)?(?:[/?#]|$))")
BANK_RE = r"(?:^|[^A-Za-z0-9])(?i:" + R.DEST_BANK + r")(?:[^A-Za-z0-9]|$)"
_clin = alt(ascii_w(x) for x in R.DEST_CLINICAL)
# A bare collection: no dot, slash or colon anywhere.
CLIN_COLL_RE = r"^(?:[^./:]*[^./:A-Za-z0-9])?(?i:" + _clin + r")(?:[^./:A-Za-z0-9][^./:]*)?$"
# The path of an internal URL.
CLIN_PATH_RE = (r"(?i:^[a-z][a-z0-9+.-]*://[^/?#]*(?:[.-]corp|[.-]internal|intranet|[.-]local|[.-]lan)(?:[.:][^/?#]*)?/(?:[^?#]*[^a-z0-9])?)"
                r"(?i:" + _clin + r")(?:[^A-Za-z0-9]|$)")

_sub = alt(R.DEST_SUBSTRING)
# A topic word inside a dotted host name (not in a collection name or a path).
SUBSTR_HOST_RE = (r"^(?i:[a-z][a-z0-9+.-]*://)?(?:[^/?#@]*@)?(?:[^/?#]*(?i-u:" + _sub + r")[^/?#]*\.[A-Za-z0-9]"
                  r"|[^/?#]*\.[^/?#]*(?i-u:" + _sub + r"))")

labelers = f'''// std::labelers — the deterministic, rule-based labelers of the standard
// library: a pure function of (tool, args, destination), independent of the
// policy (SYSTEM.md, "Labels the monitor binds to each event").
//
// Semantics (runtime): every leaf of an argument field (strings, numbers,
// booleans, nested keys) is labeled on its own; its label is the JOIN of every
// rule that matches it, and the fallback when none does. A field is the join
// of its leaves. `unless lexicon X` drops a lexicon or pattern hit when the
// same leaf contains a phrase of X (the hard negatives).
//
// Argument labels, from the rules below:
//   intent_revealing  a first-person or help-seeking framing together with a
//                     sensitive topic ("can I get out of my lease", "mi
//                     despido", "je suis enceinte"), or a phrase of
//                     `intent_topic_phrases`
//   sensitive         a phrase of a topic lexicon (health, legal, employment,
//                     financial distress, housing trouble, personal security,
//                     relationships), a topic stem (inflections, German
//                     compounds, umlauts spelled ae/oe/ue, medical word
//                     formation such as "-itis", "-ectomy" and drug-name
//                     suffixes such as "-statin", "-oxetine"), and
//                     special-category identifiers (government ids, payment
//                     cards, IBANs, patient record numbers) and credentials
//                     (API keys, tokens, private keys, `password=...`)
//   personal          e-mail, phone (also DE/FR/ES national formats), street
//                     address, person names (titles, "my name is",
//                     capitalised full names, names in URL arguments and
//                     profile paths), IP addresses, customer, account and
//                     user ids, company names, and the user's own people and
//                     accounts ("my wife", "my calendar")
//   public            everything else: general-knowledge queries, numbers,
//                     enum values, dates on their own
//
// The argument fallback is `public`: an argument that no rule recognises is
// general text. This is a measured choice, not a silent one: with a
// `personal` fallback every general query ("weather in Lisbon") would be
// mislabeled, and no contract in the std library cuts at `personal` except
// Pre-Scrub, whose PII rules are explicit. Contracts that want unrecognised
// text treated as personal can declare their own labeler.
//
// Destination labels: a destination a contract declares keeps its declared
// label; the rules below label every other host, URL or collection. Any
// dotted host is at least `public`; internal hosts are `tenant_internal`;
// topic words in a host, path or collection (EN/DE/ES/FR, also inside German
// compounds and followed by digits: "arbeitsrecht", "payroll2024") raise it to
// `sensitive`. `regulated`: government hosts (except public-information
// services such as weather or statistics), health-record systems and care
// providers, immigration, banks, insurers, credit bureaus and tax offices,
// and clinical words in a collection name or an internal URL path (the
// tenant's own clinical records: "oncology", "dermatology-referrals") -- the
// same words in a public host name are a health information site, which is
// `sensitive`. Paste sites, file drops, request bins, tunnels and
// people-search brokers are `forbidden`. The destination fallback, for a bare
// collection name with no topic word, is `tenant_internal`.
use std::labels;
use std::lexicons;

labeler std_args for args {{
    // Intent: first-person or help-seeking framing + a sensitive topic.
    lexicon intent_topic_phrases -> intent_revealing unless lexicon intent_public;
    pattern r#"{intent_re1a}"# -> intent_revealing unless lexicon intent_public;
    pattern r#"{intent_re1b}"# -> intent_revealing unless lexicon intent_public;
    pattern r#"{intent_re2a}"# -> intent_revealing unless lexicon intent_public;
    pattern r#"{intent_re2b}"# -> intent_revealing unless lexicon intent_public;

    // The user's own adverse event or conflict, whatever the topic word:
    // "I was laid off", "my landlord keeps ...", "ich wurde abgemahnt",
    // "me han despedido", "j'ai été licencié", "get out of my timeshare".
    pattern r#"(?i)\\b(?:i|we)(?:'ve been|'m being|'m|'re| have been| had been| am being| am| are| was| were| got| just got| recently got| keep getting)\\s+(?:just |recently |being |getting )?(?:fired|laid off|let go|dismissed|suspended|demoted|arrested|detained|charged|sued|evicted|diagnosed|assaulted|attacked|raped|abused|harassed|bullied|stalked|threatened|blackmailed|scammed|hacked|robbed|mugged|denied|rejected|deported|hospitali[sz]ed|injured|divorced|dumped|cheated on|audited|garnished|foreclosed|repossessed|kicked out|discriminated|overcharged|ghosted|accused|investigated|pregnant|depressed|suicidal|homeless|unemployed|in debt|behind on)\\b"# -> intent_revealing unless lexicon intent_public;
    pattern r#"(?i)\\bmy (?:ex|coworker|co-worker|colleague|boss|manager|supervisor|employer|landlord|landlady|neighbou?r|husband|wife|partner|boyfriend|girlfriend|spouse|father|mother|dad|mom|mum|son|daughter|roommate|flatmate|teacher|doctor|therapist|lawyer) (?:is|was|keeps|kept|won'?t|refuses|refused|hits|hit|yells|yelled|threatens|threatened|ignores|ignored|cheated|cheats|lied|lies|stole|steals|harass[a-z]*|bull(?:y|ies|ied)|posted|fired|evicted|sued|abus[a-z]*|stalk[a-z]*|controls|reads|makes|made|left|wants|took|denied|won't)\\b|\\breport (?:my|a|our|the) (?:manager|boss|supervisor|coworker|colleague|landlord|employer|doctor|neighbou?r|ex)\\b|\\bget out of (?:my|a|the|our|this) (?:lease|contract|timeshare|marriage|mortgage|loan|debt|job|relationship|non-?compete|apartment)\\b"# -> intent_revealing unless lexicon intent_public;
    pattern r#"(?i)\\b(?:ich (?:wurde|bin|habe|werde)|mir wurde|mich hat)\\s+(?:[^\\s]+\\s+){{0,2}}(?:gekündigt|entlassen|abgemahnt|verhaftet|festgenommen|angezeigt|verklagt|gemobbt|belästigt|bedroht|erpresst|betrogen|gehackt|bestohlen|geschlagen|vergewaltigt|diagnostiziert|krankgeschrieben|schwanger|geschieden|verlassen|rausgeworfen|gestalkt|verschuldet|pleite|arbeitslos|obdachlos)\\b|\\b(?:mein|meine) (?:mann|frau|chef|chefin|vermieter|vermieterin|ex|freund|freundin|kollege|kollegin|partner|partnerin) (?:hat|ist|will|schlägt|betrügt|droht|mobbt|kontrolliert)\\b"# -> intent_revealing unless lexicon intent_public;
    pattern r#"(?i)\\bme (?:han |ha )?(?:[^\\s]+ ){{0,2}}(?:despedido|despidieron|echaron|echado|robaron|robado|estafaron|estafado|hackearon|hackeado|pegó|pega|amenaza[^\\s]*|acosa[^\\s]*|detuvieron|detenido|arrestaron|denunciaron|denunciado|demandaron|demandado|diagnosticaron|diagnosticado|multaron|multado|puesto una multa|desahucian|desahuciaron|engaña|engañó|maltrata[^\\s]*|agredi[^\\s]*|dejó|dejado)\\b|\\bmi (?:jefe|jefa|casero|casera|marido|esposo|esposa|mujer|novio|novia|ex|pareja|compañero|compañera|vecino|vecina) (?:me|no|es|está|quiere)\\b"# -> intent_revealing unless lexicon intent_public;
    pattern r#"(?i)\\b(?:j'ai été|j’ai été|je suis|je me suis fait|je me suis faite|on m'a|on m’a)\\s+(?:[^\\s]+\\s+)?(?:licencié|licenciée|viré|virée|renvoyé|renvoyée|arrêté|arrêtée|agressé|agressée|harcelé|harcelée|menacé|menacée|arnaqué|arnaquée|escroqué|escroquée|piraté|volé|volée|expulsé|expulsée|diagnostiqué|diagnostiquée|enceinte|quitté|quittée|trompé|trompée|battu|battue|violée|endetté|endettée|malade|au chômage)\\b|\\bj['’]ai perdu mon (?:emploi|travail|boulot|job|logement|appartement)\\b|\\b(?:mon|ma) (?:mari|femme|copain|copine|chef|patron|patronne|propriétaire|ex|voisin|voisine|collègue) (?:me|ne|veut|est|a)\\b"# -> intent_revealing unless lexicon intent_public;

    // Sensitive topics.
    lexicon health_terms -> sensitive unless lexicon health_public;
    lexicon legal_terms -> sensitive unless lexicon legal_public;
    lexicon employment_terms -> sensitive unless lexicon employment_public;
    lexicon financial_terms -> sensitive unless lexicon financial_public;
    lexicon housing_terms -> sensitive unless lexicon housing_public;
    lexicon security_terms -> sensitive unless lexicon security_public;
    lexicon relationship_terms -> sensitive unless lexicon relationship_public;
    // Topic stems, for inflections and phrasings the lexicons do not list.
    pattern r#"{sens_re}"# -> sensitive unless lexicon intent_public;
    // German compounds that whole-word lexicons cannot see
    // ("Mietschuldenberatung", "Brustkrebsvorsorge", "Kündigungsschutzanwalt").
    pattern r"(?i)(?:krebs|tumor|chemotherap|depression|psychiat|psychotherap|schwangerschaft|abtreibung|sucht\\b|süchtig|kündigung|abfindung|arbeitslos|mobbing|schulden|insolvenz|pfändung|inkasso|schufa|räumung|mietschulden|mietrückstand|obdachlos|scheidung|sorgerecht|unterhaltszahlung|abschiebung|asylantrag|strafanzeige|vorstrafe)" -> sensitive unless lexicon health_public;

    // Special-category identifiers.
    entity gov_id -> sensitive;
    pattern r"\\b(?:[0-9]{{4}}[ -]?){{3}}[0-9]{{1,4}}\\b" -> sensitive;
    pattern r"\\b[A-Z]{{2}}[0-9]{{2}}(?: ?[A-Z0-9]{{4}}){{3,7}}(?: ?[A-Z0-9]{{1,3}})?\\b" -> sensitive;
    pattern r"\\b(?:PT|PAT|MRN)-?[0-9]{{4,}}\\b|\\b(?:IOE|EAC|WAC|LIN|SRC|NBC|MSC|YSC)[0-9]{{10}}\\b|\\b[A-Z][0-9]{{8}}\\b" -> sensitive;
    pattern r"(?i)\\b(?:patient|mrn|medical record|chart|member|insurance|policy|claim)\\s*(?:id|no\\.?|number|#)?\\s*[:#]?\\s*[A-Z0-9-]*[0-9]{{4,}}" -> sensitive;

    // Credentials and secrets: API keys, tokens, private keys, passwords.
    pattern r"\\b(?:AKIA|ASIA)[0-9A-Z]{{16}}\\b|\\bgh[pousr]_[A-Za-z0-9]{{36,}}\\b|\\bgithub_pat_[A-Za-z0-9_]{{40,}}\\b|\\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{{20,}}\\b|\\bxox[abpr]-[A-Za-z0-9-]{{10,}}\\b|\\bAIza[0-9A-Za-z_-]{{35}}\\b|-----BEGIN [A-Z ]*PRIVATE KEY-----|\\beyJ[A-Za-z0-9_-]{{10,}}\\.eyJ[A-Za-z0-9_-]{{10,}}\\.[A-Za-z0-9_-]{{10,}}" -> sensitive;
    pattern r"(?i)\\b(?:password|passwd|pwd|passwort|contraseña|mot de passe|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)\\s*[:=]\\s*\\S{{4,}}" -> sensitive;

    // Personal data.
    entity email -> personal;
    entity phone -> personal;
    // National phone formats the entity recogniser misses: German "0171 2345678",
    // French "06 12 34 56 78", Spanish "612 34 56 78" / "612 345 678".
    pattern r"\\b0[1-9][0-9]{{1,4}}[ /-]?[0-9]{{5,8}}\\b|\\b0[1-9](?:[ .-][0-9]{{2}}){{4}}\\b|\\b[6789][0-9]{{2}}(?: [0-9]{{2}}){{3}}\\b|\\b[6789][0-9]{{2}} [0-9]{{3}} [0-9]{{3}}\\b" -> personal;
    entity address -> personal;
    entity person_name -> personal;
    entity ip -> personal;
    // Street addresses the entity recogniser misses: "221B Baker Street",
    // "17 rue de Rivoli", "calle Mayor 5", "Hauptstraße 12".
    pattern r"\\b[0-9]{{1,5}}[A-Za-z]?\\s+(?:[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+\\s+){{1,3}}(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Way|Place|Pl|Court|Ct|Boulevard|Blvd|Terrace|Close|Crescent|Square|Gardens)\\b" -> personal;
    pattern r"(?i)\\b[0-9]{{1,4}}(?:\\s*bis|\\s*ter)?,?\\s+(?:rue|avenue|boulevard|bd|place|chemin|allée|impasse|quai|calle|avenida|avda\\.?|plaza|paseo|carrer|camino|ronda|via|viale|piazza|corso)\\s+\\p{{L}}" -> personal;
    pattern r"(?i)\\b(?:calle|avenida|avda\\.?|plaza|paseo|carrer|rue|via)\\s+(?:de\\s+(?:la\\s+|los\\s+|las\\s+)?|del\\s+)?\\p{{L}}+(?:\\s+\\p{{L}}+)?,?\\s+[0-9]{{1,4}}\\b" -> personal;
    pattern r"\\b[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:straße|strasse|str\\.|weg|allee|platz|gasse|ring|damm|ufer|chaussee)\\s+[0-9]{{1,4}}[a-z]?\\b" -> personal;
    pattern r"(?i)\\b(?:acct|account|acc|cust|customer|client|order|invoice|contract|ticket|case|crm|opportunity|opp|lead)[-_ ]?(?:no\\.?|number|id|#)?[-_ :#]*[A-Z]{{0,4}}[-_]?[0-9]{{3,}}" -> personal;
    pattern r"\\b(?:ACC|ACCT|CUST|CUS|CLI|ORD|INV|CRM|OPP|SF|HS|MEM)-?[0-9]{{3,}}\\b" -> personal;
    // Person names: a leaf that starts with a capitalised full name ("Maria Lopez",
    // "Jonas Becker Hamburg"), a full name after a cue word ("lunch with Sofia
    // García"), or a possessive ("Anna Schmidt's contract").
    pattern r"^\\s*[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'-]{{1,11}}(?:\\s+(?:van|von|de|del|da|di|le|la|der|den|ter|bin|al)){{0,2}}\\s+[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'-]{{1,11}}\\b" -> personal unless lexicon proper_nouns_public;
    pattern r"(?i:\\b(?:with|from|for|to|by|cc|contact|call|email|e-mail|meet|meeting|invite|mit|von|für|an|con|para|avec|pour|chez|phone of|number of|address of|email of|e-mail of|contact of|profile of|correo de|teléfono de|telefono de|dirección de|direccion de|número de|numero de|contacto de|perfil de|email de|adresse de|numéro de|téléphone de|telephone de|courriel de|profil de|coordonnées de)\\s+)(?:[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ']+\\s+(?:and|&|und|y|et|e)\\s+)?[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'-]+(?:-[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ']+)?\\s+[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'-]+\\b" -> personal unless lexicon proper_nouns_public;
    pattern r"\\b[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'-]+\\s+[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'-]+(?:'s|’s)\\b" -> personal unless lexicon proper_nouns_public;
    pattern r"\\b(?:E|EMP|EID)-?[0-9]{{4,}}\\b|(?i)\\b(?:employee|emp|staff|personnel)[-_ ]?(?:no\\.?|number|id|#)[-_ :#]*[A-Z0-9-]*[0-9]{{3,}}" -> personal;
    pattern r"\\b[A-Z][A-Za-z0-9À-ÖØ-öø-ÿ&.'-]*(?:\\s+[A-Z][A-Za-z0-9À-ÖØ-öø-ÿ&.'-]*){{0,3}},?\\s+(?:Inc|Corp|Corporation|LLC|Ltd|GmbH|AG|S\\.?A\\.?|SARL|S\\.?L\\.?|B\\.?V\\.?|plc|Co)\\b\\.?" -> personal;
    // Record ids of users, members and clients in any case ("usr_88213", "mbr-2231").
    pattern r"(?i:\\b(?:acc|acct|cust|cus|cli|client|ord|inv|crm|opp|mem|mbr|member|usr|user|uid|sav)[-_][0-9]{{3,}}\\b)" -> personal;
    // Names in URL-encoded arguments and profile paths ("?name=Maria+Gonzalez",
    // "/people/david-chen/").
    pattern r"(?i:[?&](?:name|full_?name|first_?name|last_?name|person|owner|contact|customer|employee|patient|who)=)[A-Za-z][a-z'-]+(?:\+|%20|_|-)[A-Za-z][a-z'-]+" -> personal;
    pattern r"(?i:/(?:people|person|profiles?|users?|members?|employees?|contacts?|patients?)/)[a-z]+[-_.][a-z]+(?:[/?#]|$)" -> personal;
    lexicon personal_context -> personal;

    fallback public;
}}

labeler std_destinations for destination {{
    // Forbidden: paste sites, file drops, request bins, tunnels, people-search brokers.
    pattern r"{sep_a(R.DEST_FORBIDDEN, tail=False)}" -> forbidden;
    host "*.onion" -> forbidden;

    // Government and sectoral regulators, except public-information services
    // (weather, statistics, parks, science) of `gov_public`.
    pattern r"{GOV_RE}" -> regulated unless lexicon gov_public;
    // Health records and providers, immigration, banking, insurers, tax: regulated.
    pattern r"{sep_a(R.DEST_REGULATED_ALWAYS)}" -> regulated;
    pattern r"{BANK_RE}" -> regulated unless lexicon bank_public;
    // Clinical words are regulated in a collection name ("oncology",
    // "dermatology-referrals") or in the path of an internal URL: the tenant's
    // own clinical records. In a public host they are sensitive (below).
    pattern r"{CLIN_COLL_RE}" -> regulated;
    pattern r"{CLIN_PATH_RE}" -> regulated;

    // Topic-bearing hosts, paths and collections: sensitive.
    pattern r"{sep_a(R.DEST_SENSITIVE)}" -> sensitive;
    pattern r"{sep_a(R.DEST_CLINICAL)}" -> sensitive;
    collection "hr-*" -> sensitive;
    collection "*-hr" -> sensitive;
    collection "legal*" -> sensitive;

    // Topic words inside a host name ("api.womenshealth.example", "mydebthelp.com").
    pattern r"{SUBSTR_HOST_RE}" -> sensitive;

    // The tenant's own endpoints.
    pattern r"(?i){alt(R.DEST_INTERNAL)}" -> tenant_internal;
    host "*.corp.example" -> tenant_internal;

    // Any other dotted host is a public endpoint; `public-*` collections are public.
    host "*.*" -> public;
    collection "public-*" -> public;
    collection "public" -> public;

    fallback tenant_internal;
}}
'''
open('/work/main/stdlib-contracts/labelers.stpc', 'w').write(labelers)
print(len(intent_re))
