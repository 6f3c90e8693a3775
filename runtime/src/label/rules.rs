//! The compiled rules of a labeler: their conditions (`Cond`, with the
//! lexicons a `terms` or `parts` condition names as ids and as a bit set),
//! each rule's evaluation order, and what a rule set needs computed per
//! leaf, built from a table by `Builder`. The labeler (`super::Labeler`)
//! evaluates them.

use super::LoadError;
use crate::table::{AddressKind, Condition, EntityKind, LabelRule, Table};

/// The lexicons a condition names: their indices, and the same as a bit
/// set, so a `terms` condition is tested with a word-wide AND per 64
/// lexicons against the leaf's hit bits ([`LexBits`](super::LexBits)),
/// not a lookup per lexicon named.
#[derive(Debug, Clone)]
pub(super) struct Lexicons {
    ids: Box<[u32]>,
    bits: Box<[u64]>,
}

impl Lexicons {
    pub(super) fn new(ids: &[u32]) -> Lexicons {
        let words = ids.iter().map(|l| *l as usize / 64 + 1).max().unwrap_or(0);
        let mut bits = vec![0u64; words];
        for &l in ids {
            if let Some(w) = bits.get_mut(l as usize / 64) {
                *w |= 1 << (l % 64);
            }
        }
        Lexicons {
            ids: ids.into(),
            bits: bits.into(),
        }
    }

    /// Whether any of the lexicons is in `set`.
    #[inline]
    pub(super) fn any_in(&self, set: &[u64]) -> bool {
        self.bits.iter().zip(set).any(|(a, b)| a & b != 0)
    }
}

impl std::ops::Deref for Lexicons {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        &self.ids
    }
}

/// A compiled condition.
#[derive(Debug, Clone)]
pub(super) enum Cond {
    Exact(Box<[u32]>),
    Terms(Lexicons),
    Parts(Lexicons),
    Pattern(usize),
    Entity(EntityKind),
    Address(AddressKind, Box<str>),
}

impl Cond {
    /// The relative cost of testing the condition on a leaf: the word scan
    /// is done once per leaf for every rule and an address glob is a
    /// comparison (0); the entity set is one pass shared by every entity
    /// condition (1); the `parts` automaton runs only when a rule asks (2);
    /// the pattern set scans for every pattern at once (3).
    fn cost(&self) -> u8 {
        match self {
            Cond::Exact(_) | Cond::Terms(_) | Cond::Address(..) => 0,
            Cond::Entity(_) => 1,
            Cond::Parts(_) => 2,
            Cond::Pattern(_) => 3,
        }
    }
}

/// A compiled rule.
#[derive(Debug)]
pub(super) struct Rule {
    pub(super) when: Vec<Cond>,
    /// Indices of `when`, cheapest first.
    pub(super) eval: Box<[u16]>,
    pub(super) unless: Vec<Cond>,
    pub(super) fields: Vec<Box<str>>,
    pub(super) tools: Vec<Box<str>>,
    pub(super) label: u32,
}

impl Rule {
    pub(super) fn applies(&self, tool: &str, field: Option<&str>) -> bool {
        (self.tools.is_empty() || self.tools.iter().any(|t| &**t == tool))
            && (self.fields.is_empty()
                || field.is_some_and(|f| self.fields.iter().any(|x| &**x == f)))
    }
}

/// The rules of one labeler and what they need computed per leaf.
#[derive(Debug)]
pub(super) struct Rules {
    pub(super) rules: Vec<Rule>,
    /// Rule indices, highest label first (ties in index order).
    pub(super) by_label: Vec<usize>,
    /// The rules of `by_label` that name no tool and no field, in its
    /// order: every field's rules when no rule of `restricted` applies.
    pub(super) unrestricted: Vec<usize>,
    /// The rules that name tools or fields.
    pub(super) restricted: Vec<usize>,
    /// Per rule, when the condition it tests first is `terms` of lexicons
    /// below 128: those lexicons as a mask. A leaf none of whose words is
    /// from them cannot fire the rule, which is then skipped with one AND
    /// on a contiguous array, without reading the rule's conditions (on a
    /// public leaf every rule fails, and reading each one's conditions
    /// missed the cache most of the time: the automata the scan reads in
    /// between evict them).
    pub(super) trigger: Vec<Option<u128>>,
    pub(super) fallback: u32,
    pub(super) exact: bool,
    pub(super) terms: bool,
    pub(super) parts: bool,
    pub(super) patterns: bool,
}

pub(super) struct Builder<'t> {
    pub(super) table: &'t Table,
    /// Each distinct pattern, with the first rule that uses it.
    pub(super) patterns: Vec<(String, (&'static str, usize))>,
    pub(super) exact: Vec<bool>,
    pub(super) terms: Vec<bool>,
    pub(super) parts: Vec<bool>,
}

impl Builder<'_> {
    fn cond(&mut self, c: &Condition, which: &'static str, rule: usize) -> Result<Cond, LoadError> {
        let mark = |v: &mut Vec<bool>, ls: &[u32]| -> Result<Box<[u32]>, LoadError> {
            if ls.is_empty() {
                return Err(LoadError::BadLexicon { lexicon: 0 });
            }
            for &l in ls {
                let slot = v.get_mut(l as usize).ok_or(LoadError::BadLexicon {
                    lexicon: l as usize,
                })?;
                *slot = true;
            }
            Ok(ls.into())
        };
        Ok(match c {
            Condition::Lexicon { lexicons } => Cond::Exact(mark(&mut self.exact, lexicons)?),
            Condition::Terms { lexicons } => {
                Cond::Terms(Lexicons::new(&mark(&mut self.terms, lexicons)?))
            }
            Condition::Parts { lexicons } => {
                Cond::Parts(Lexicons::new(&mark(&mut self.parts, lexicons)?))
            }
            Condition::Pattern { regex } => {
                let i = match self.patterns.iter().position(|(p, _)| p == regex) {
                    Some(i) => i,
                    None => {
                        self.patterns.push((regex.clone(), (which, rule)));
                        self.patterns.len() - 1
                    }
                };
                Cond::Pattern(i)
            }
            Condition::Entity { kind } => Cond::Entity(*kind),
            Condition::Address { kind, glob } => Cond::Address(*kind, glob.as_str().into()),
        })
    }

    pub(super) fn rules(
        &mut self,
        rules: &[LabelRule],
        fallback: u32,
        which: &'static str,
    ) -> Result<Rules, LoadError> {
        let mut out = Vec::with_capacity(rules.len());
        for (i, r) in rules.iter().enumerate() {
            let when = r
                .when
                .iter()
                .map(|c| self.cond(c, which, i))
                .collect::<Result<Vec<_>, _>>()?;
            let unless = r
                .unless
                .iter()
                .map(|c| self.cond(c, which, i))
                .collect::<Result<Vec<_>, _>>()?;
            let mut eval: Vec<u16> = (0..u16::try_from(when.len()).unwrap_or(u16::MAX)).collect();
            eval.sort_by_key(|&i| when.get(usize::from(i)).map_or(u8::MAX, Cond::cost));
            out.push(Rule {
                eval: eval.into(),
                when,
                unless,
                fields: r.fields.iter().map(|f| f.as_str().into()).collect(),
                tools: r.tools.iter().map(|f| f.as_str().into()).collect(),
                label: r.label,
            });
        }
        let uses =
            |f: &dyn Fn(&Cond) -> bool| out.iter().any(|r| r.when.iter().chain(&r.unless).any(f));
        let mut by_label: Vec<usize> = (0..out.len()).collect();
        by_label.sort_by_key(|&i| std::cmp::Reverse(out.get(i).map_or(0, |r| r.label)));
        let free = |i: &usize| {
            out.get(*i)
                .is_some_and(|r| r.tools.is_empty() && r.fields.is_empty())
        };
        let unrestricted = by_label.iter().copied().filter(free).collect();
        let restricted = (0..out.len()).filter(|i| !free(i)).collect();
        let trigger = out
            .iter()
            .map(|r| {
                let first = r.eval.first().and_then(|i| r.when.get(usize::from(*i)));
                match first {
                    Some(Cond::Terms(ls)) if ls.iter().all(|l| *l < 128) => {
                        Some(ls.iter().fold(0u128, |m, l| m | 1 << l))
                    }
                    _ => None,
                }
            })
            .collect();
        Ok(Rules {
            by_label,
            unrestricted,
            restricted,
            trigger,
            exact: uses(&|c| matches!(c, Cond::Exact(_))),
            terms: uses(&|c| matches!(c, Cond::Terms(_))),
            parts: uses(&|c| matches!(c, Cond::Parts(_))),
            patterns: uses(&|c| matches!(c, Cond::Pattern(_))),
            rules: out,
            fallback,
        })
    }
}
