//! Synthetic frontiers, deterministic from a seed, shaped like the paper's
//! (Table 19): median 8 speculative candidates per task (range 1 to 19),
//! ghost-call rate 82 to 89 %, mean branch confidence 0.35 to 0.39, document
//! retrieval about 40 % of candidates, the rest web search, calendar, CRM and
//! e-mail; six topics (health, legal, employment, financial, security,
//! relationship).
//!
//! A task is a user situation from one topic. Its frontier is a handful of
//! branches (one to three candidates each) of which exactly one is
//! committed. Candidate text is composed from a situation, a phrasing frame
//! and a tool-specific shape, so the same topic surfaces in varied words;
//! some candidates are topic-neutral chores (a calendar check, a CRM
//! lookup), and the committed branch is neutral more often than the ghosts,
//! as an agent's final answer often needs only the generic part.
//! Destinations are the hosts and collections of `std::tools`
//! (`stdlib-contracts/tools.stpc`).
//!
//! Two corpus kinds ([`Kind`]): **static-plan** keeps each task's committed
//! plan fixed across seeds and redraws only the speculative ghosts;
//! **paired-replay** redraws the whole frontier per seed, as a planner
//! re-run would. Either way a task under several seeds shares a `group`, so
//! leave-one-out training never sees the same task.

use std::borrow::Cow;
use std::ops::Range;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::frontier::{Candidate, Commit, Frontier, Task, Tasks};
use crate::stats::Rng;

/// Corpus kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Committed plan fixed across seeds.
    StaticPlan,
    /// Whole frontier redrawn per seed.
    PairedReplay,
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    /// Base tasks.
    pub tasks: usize,
    /// Seeds; each base task appears once per seed.
    pub seeds: Vec<u64>,
    /// Kind.
    pub kind: Kind,
}

/// The six topics.
pub const TOPICS: [&str; 6] = [
    "health",
    "legal",
    "employment",
    "financial",
    "security",
    "relationship",
];

struct Topic {
    /// Situations, as the user might put them.
    situations: &'static [&'static str],
    /// Topical collections (`std::tools` collection names).
    collections: &'static [&'static str],
    /// Who a calendar entry or e-mail would involve.
    contacts: &'static [&'static str],
}

/// The vocabulary of each topic, in the order of [`TOPICS`]
/// (`relationship` last).
const TOPIC_DATA: [Topic; 6] = [
    Topic {
        situations: &[
            "a lump found during a self-exam",
            "persistent migraines with aura",
            "side effects of sertraline",
            "stage 2 breast cancer treatment options",
            "managing type 1 diabetes on night shifts",
            "postpartum depression",
            "an adult ADHD evaluation",
            "insomnia after chemo",
            "IVF success rates after 40",
            "knee replacement recovery",
            "an abnormal pap smear result",
            "panic attacks before meetings",
            "high blood pressure medication",
            "a colonoscopy prep schedule",
            "early signs of Parkinson's",
        ],
        collections: &["oncology", "mental-health"],
        contacts: &[
            "Dr. Okafor",
            "the oncology nurse line",
            "Dr. Lindqvist",
            "the fertility clinic",
        ],
    },
    Topic {
        situations: &[
            "breaking my lease early",
            "a landlord keeping my security deposit",
            "an eviction notice",
            "shared custody after separation",
            "a small claims suit against a contractor",
            "writing a will",
            "a DUI court date",
            "a green card renewal that lapsed",
            "a non-compete clause",
            "a cease and desist letter",
            "a car accident insurance dispute",
            "probate for my father's estate",
            "a noise complaint from the HOA",
            "a visa overstay",
            "a defamation threat over a review",
        ],
        collections: &["legal", "immigration"],
        contacts: &[
            "the tenant union",
            "attorney Ruiz",
            "the legal aid clinic",
            "my paralegal",
        ],
    },
    Topic {
        situations: &[
            "being put on a performance improvement plan",
            "negotiating severance",
            "FMLA leave for surgery",
            "a manager taking credit for my work",
            "quitting without another offer",
            "a counter-offer from my employer",
            "unpaid overtime",
            "reporting harassment by a colleague",
            "a layoff rumor in my team",
            "asking for a raise after a promotion",
            "interviewing with a competitor",
            "returning from parental leave",
            "a reference check from a former boss",
            "remote work being revoked",
            "whistleblower protections",
        ],
        collections: &["hr-leave", "hr-policies", "employee-relations"],
        contacts: &[
            "HR business partner",
            "my skip-level manager",
            "the recruiter",
            "the union steward",
        ],
    },
    Topic {
        situations: &[
            "consolidating credit card debt",
            "a personal loan for a move",
            "missing two mortgage payments",
            "filing for chapter 7 bankruptcy",
            "an IRS audit letter",
            "a collections agency calling",
            "refinancing a car loan",
            "a low credit score after divorce",
            "cashing out a 401k early",
            "an overdraft spiral",
            "a payday loan rollover",
            "student loan forgiveness",
            "back taxes from freelancing",
            "a denied mortgage application",
            "selling stock to cover rent",
        ],
        collections: &["finance"],
        contacts: &[
            "the bank advisor",
            "my accountant",
            "the credit counselor",
            "the loan officer",
        ],
    },
    Topic {
        situations: &[
            "a phishing email that got my password",
            "ransomware on the office laptop",
            "someone logged into my account from abroad",
            "stalkerware on my phone",
            "a leaked customer database",
            "identity theft after a data breach",
            "an unpatched VPN vulnerability",
            "a suspicious wire transfer request",
            "a compromised admin credential",
            "a SIM swap attack",
            "an exposed S3 bucket",
            "a fake invoice scam",
            "malware in a browser extension",
            "a breached vendor portal",
            "two-factor codes I didn't request",
        ],
        collections: &["security-incidents"],
        contacts: &[
            "the incident response lead",
            "the SOC on-call",
            "IT security",
            "the fraud team",
        ],
    },
    Topic {
        situations: &[
            "my partner reading my messages",
            "thinking about a separation",
            "couples counseling",
            "a friend who stopped talking to me",
            "suspecting my spouse is cheating",
            "moving in together too fast",
            "a long-distance breakup",
            "telling my parents I'm gay",
            "a controlling boyfriend",
            "reconnecting with an estranged sister",
            "wedding planning stress",
            "dating after divorce",
            "an in-law conflict over holidays",
            "co-parenting with an ex",
            "feeling lonely after a move",
        ],
        collections: &["employee-relations"],
        contacts: &[
            "the couples therapist",
            "my sister",
            "the family counselor",
            "my ex",
        ],
    },
];

/// The vocabulary of topic `name` (`relationship` for any other name).
fn topic(name: &str) -> &'static Topic {
    let i = TOPICS
        .iter()
        .position(|t| *t == name)
        .unwrap_or(TOPIC_DATA.len() - 1);
    TOPIC_DATA.get(i).unwrap_or(&TOPIC_DATA[5])
}

const FRAMES: &[&str] = &[
    "{s}",
    "what to do about {s}",
    "how to handle {s}",
    "{s} next steps",
    "questions to ask about {s}",
    "{s} what are my options",
    "is it normal: {s}",
    "people who went through {s}",
    "{s} checklist",
    "help with {s} near me",
    "costs of {s}",
    "{s} rights and rules",
    "timeline for {s}",
    "first steps after {s}",
];

const NEUTRAL: &[&str] = &[
    "weather this weekend",
    "team offsite agenda",
    "quarterly planning notes",
    "lunch places near the office",
    "expense report template",
    "all-hands slides",
    "meeting notes from monday",
    "parking at the downtown office",
    "holiday calendar 2026",
    "printer setup guide",
    "project roadmap q3",
    "coffee machine repair",
    "train times to the airport",
    "onboarding checklist for new hires",
    "conference room booking",
    "best laptop bag",
];

const GENERIC_COLLECTIONS: &[&str] = &["general", "public-kb", "product-docs", "engineering"];
const SEARCH_HOSTS: &[&str] = &[
    "api.brave.com",
    "api.duckduckgo.com",
    "api.bing.microsoft.com",
    "customsearch.googleapis.com",
];
const CALENDAR_HOSTS: &[&str] = &["calendar.googleapis.com", "graph.microsoft.com"];
const MAIL_HOSTS: &[&str] = &["gmail.googleapis.com", "graph.microsoft.com"];
const CRM_HOSTS: &[&str] = &["corp.my.salesforce.com", "api.hubapi.com"];
const CUSTOMERS: &[&str] = &[
    "Acme Corp",
    "Globex",
    "Initech",
    "Umbrella Health",
    "Stark Logistics",
    "Wayne Foods",
];

fn fill(rng: &mut Rng, s: &str) -> String {
    rng.pick(FRAMES).copied().unwrap_or("{s}").replace("{s}", s)
}

fn date(rng: &mut Rng) -> String {
    format!("2026-{:02}-{:02}", 1 + rng.below(12), 1 + rng.below(28))
}

/// One candidate's tool, destination and arguments.
fn call(rng: &mut Rng, t: &Topic, topical: bool) -> (String, String, Value) {
    let sit = if topical {
        rng.pick(t.situations).copied().unwrap_or("")
    } else {
        rng.pick(NEUTRAL).copied().unwrap_or("")
    };
    let u = rng.next_f64();
    let pick = |rng: &mut Rng, xs: &[&str]| rng.pick(xs).copied().unwrap_or("").to_owned();
    if u < 0.40 {
        let dest = if topical && rng.chance(0.55) {
            pick(rng, t.collections)
        } else {
            pick(rng, GENERIC_COLLECTIONS)
        };
        let q = if topical {
            fill(rng, sit)
        } else {
            sit.to_owned()
        };
        (
            "doc_retrieval".into(),
            dest,
            json!({ "query": q, "top_k": 3 + rng.below(8) }),
        )
    } else if u < 0.66 {
        let q = if topical {
            fill(rng, sit)
        } else {
            sit.to_owned()
        };
        (
            "web_search".into(),
            pick(rng, SEARCH_HOSTS),
            json!({ "q": q, "count": 10, "lang": "en" }),
        )
    } else if u < 0.78 {
        let who = if topical {
            pick(rng, t.contacts)
        } else {
            "me".to_owned()
        };
        let query = if topical && rng.chance(0.6) {
            format!("appointment about {sit}")
        } else {
            "free slots".to_owned()
        };
        let start = date(rng);
        (
            "calendar_lookup".into(),
            pick(rng, CALENDAR_HOSTS),
            json!({ "who": who, "start": start, "end": start, "query": query }),
        )
    } else if u < 0.88 {
        let query = if topical && rng.chance(0.5) {
            format!("notes mentioning {sit}")
        } else {
            "renewal status".to_owned()
        };
        let account = format!("ACC-{}", 1000 + rng.below(9000));
        (
            "crm_lookup".into(),
            pick(rng, CRM_HOSTS),
            json!({ "customer": pick(rng, CUSTOMERS), "account_id": account, "query": query }),
        )
    } else {
        let (query, sender) = if topical {
            (fill(rng, sit), pick(rng, t.contacts))
        } else {
            (sit.to_owned(), "team@corp.example".to_owned())
        };
        let after = date(rng);
        (
            "email_search".into(),
            pick(rng, MAIL_HOSTS),
            json!({ "query": query, "sender": sender, "after": after, "folder": "all" }),
        )
    }
}

/// Standard normal draw (Box–Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u1 = rng.next_f64().max(1e-12);
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

fn frontier_size(rng: &mut Rng) -> usize {
    let x = (8.0 * (0.42 * normal(rng)).exp()).round();
    (x as usize).clamp(1, 19)
}

fn branch_conf(rng: &mut Rng, committed: bool) -> f64 {
    let u = rng.next_f64();
    // Calibrated-looking: committed branches are usually, not always,
    // confident; ghost branches are usually, not always, unconfident.
    let c = if committed {
        0.35 + 0.6 * u.powf(0.7)
    } else {
        0.04 + 0.9 * u.powf(2.0)
    };
    (c * 100.0).round() / 100.0
}

struct Branch {
    id: String,
    conf: f64,
    calls: Vec<(String, String, Value)>,
}

fn plan_branch(rng: &mut Rng, t: &Topic) -> Branch {
    // The committed branch is neutral more often than the ghosts.
    let n = if rng.chance(0.8) { 1 } else { 2 };
    let calls = (0..n)
        .map(|_| {
            let topical = rng.chance(0.5);
            call(rng, t, topical)
        })
        .collect();
    Branch {
        id: "plan".into(),
        conf: branch_conf(rng, true),
        calls,
    }
}

fn ghost_branches(rng: &mut Rng, t: &Topic, size: usize) -> Vec<Branch> {
    let mut out = Vec::new();
    let mut left = size;
    while left > 0 {
        let n = (1 + rng.below(3)).min(left);
        left -= n;
        let calls = (0..n)
            .map(|_| {
                let topical = rng.chance(0.75);
                call(rng, t, topical)
            })
            .collect();
        out.push(Branch {
            id: format!("b{}", out.len() + 1),
            conf: branch_conf(rng, false),
            calls,
        });
    }
    out
}

/// A corpus generated on demand: task `j` is drawn from its own random
/// streams (seed and base task), so any range of tasks can be generated
/// without the ones before it. An evaluation reads it a chunk at a time
/// ([`Tasks`]) and never holds the whole frontier; [`generate`] collects
/// it into a [`Frontier`].
#[derive(Clone, Debug)]
pub struct Corpus {
    spec: Spec,
    /// The topic of each base task: balanced, in a fixed shuffled order.
    order: Vec<usize>,
}

impl Corpus {
    /// The corpus of `spec`.
    #[must_use]
    pub fn new(spec: Spec) -> Corpus {
        let mut order: Vec<usize> = (0..spec.tasks).map(|k| k % TOPICS.len()).collect();
        Rng::new(0x5EED_0F70_91C5).shuffle(&mut order);
        Corpus { spec, order }
    }

    /// Task `j` (seed-major: every base task of the first seed, then of the
    /// next); `None` past the end.
    #[must_use]
    pub fn task(&self, j: usize) -> Option<Task> {
        let per_seed = self.order.len();
        let seed = *self.spec.seeds.get(j.checked_div(per_seed)?)?;
        let k = j % per_seed;
        let ti = *self.order.get(k)?;
        Some(self.draw(seed, k, ti))
    }

    fn draw(&self, seed: u64, k: usize, ti: usize) -> Task {
        let name = TOPICS.get(ti).copied().unwrap_or("health");
        let t = topic(name);
        let mut base = Rng::stream(0xBA5E, k as u64);
        let mut rng = Rng::stream(seed, k as u64);
        let plan = match self.spec.kind {
            Kind::StaticPlan => plan_branch(&mut base, t),
            Kind::PairedReplay => plan_branch(&mut rng, t),
        };
        let size = frontier_size(&mut rng).max(plan.calls.len());
        let mut branches = ghost_branches(&mut rng, t, size - plan.calls.len());
        let at = rng.below(branches.len() + 1);
        branches.insert(at, plan);
        let mut candidates = Vec::new();
        let mut t_ms = 100;
        // Issue order interleaves branches, as a planner fans out.
        let mut cursors = vec![0usize; branches.len()];
        while candidates.len() < size {
            for (b, cur) in branches.iter().zip(cursors.iter_mut()) {
                if let Some((tool, dest, args)) = b.calls.get(*cur) {
                    *cur += 1;
                    candidates.push(Candidate {
                        id: format!("c{}", candidates.len() + 1),
                        tool: tool.clone(),
                        destination: dest.clone(),
                        args: args.clone(),
                        mode: "speculative".into(),
                        branch: b.id.clone(),
                        confidence: Some(b.conf),
                        t_ms: Some(t_ms),
                    });
                    t_ms += 20 + rng.below(40) as u64;
                }
            }
        }
        Task {
            task: format!("t{k:03}-s{seed}"),
            label: Some(name.to_owned()),
            group: Some(format!("t{k:03}")),
            candidates,
            committed: Commit {
                branches: vec!["plan".into()],
                candidates: Vec::new(),
            },
            commit_t_ms: Some(t_ms + 100 + rng.below(200) as u64),
        }
    }
}

impl Tasks for Corpus {
    fn len(&self) -> usize {
        self.order.len() * self.spec.seeds.len()
    }

    fn chunk(&self, range: Range<usize>) -> Cow<'_, [Task]> {
        Cow::Owned(range.map_while(|j| self.task(j)).collect())
    }
}

/// Generate a corpus, every task in memory.
#[must_use]
pub fn generate(spec: &Spec) -> Frontier {
    let corpus = Corpus::new(spec.clone());
    Frontier {
        tasks: (0..corpus.len()).map_while(|j| corpus.task(j)).collect(),
    }
}
