//! Building the AST from pest pairs, checked at every step.
//!
//! Nothing here unwraps a child by position. Each node's children go into a
//! [`Children`] cursor whose accessors name the rule they expect; a tree of
//! another shape (a grammar change the builder did not follow) becomes a
//! [`BuildError`], reported as the internal-error diagnostic `E0900`, never
//! a panic. Keyword pairs (`kw_*`) are skipped by the cursor unless asked
//! for, because most carry no information beyond the node they sit in.
//!
//! This file holds the cursor, the leaves (names, strings, numbers) and the
//! declarations; `contract.rs` builds contracts and their `decide` guards,
//! `test_block.rs` the `test` blocks.

use super::ast::*;
use super::grammar::Rule;
use crate::source::{FileId, Loc, Span};
use pest::iterators::Pair;

mod contract;
mod test_block;

/// A pest tree of a shape the builder does not expect.
#[derive(Debug)]
pub(crate) struct BuildError {
    pub(crate) span: Span,
    pub(crate) what: String,
}

type Result<T> = std::result::Result<T, BuildError>;

/// Builds AST nodes for one file, shifting spans by `offset` bytes.
pub(crate) struct Builder {
    pub(crate) file: FileId,
    pub(crate) offset: u32,
}

/// A cursor over a node's children.
struct Children<'i> {
    parent: Span,
    rule: Rule,
    items: Vec<Pair<'i, Rule>>,
    next: usize,
}

fn is_keyword(rule: Rule) -> bool {
    format!("{rule:?}").starts_with("kw_")
}

impl<'i> Children<'i> {
    fn peek(&self) -> Option<&Pair<'i, Rule>> {
        self.items.get(self.next)
    }

    /// Skips keywords, then returns the next child if it has this rule.
    fn optional(&mut self, rule: Rule) -> Option<Pair<'i, Rule>> {
        self.skip_keywords_unless(rule);
        match self.peek() {
            Some(p) if p.as_rule() == rule => {
                self.next += 1;
                self.items.get(self.next - 1).cloned()
            }
            _ => None,
        }
    }

    /// Skips keywords, then returns the next child, which must have this rule.
    fn expect(&mut self, rule: Rule) -> Result<Pair<'i, Rule>> {
        self.optional(rule).ok_or_else(|| BuildError {
            span: self.parent,
            what: format!("expected {rule:?} in {:?}", self.rule),
        })
    }

    /// Every remaining child with this rule, skipping keywords.
    fn all(&mut self, rule: Rule) -> Vec<Pair<'i, Rule>> {
        let mut out = Vec::new();
        while let Some(p) = self.optional(rule) {
            out.push(p);
        }
        out
    }

    /// The next non-keyword child, whatever its rule.
    fn next_any(&mut self) -> Option<Pair<'i, Rule>> {
        self.skip_keywords_unless(Rule::EOI);
        let p = self.items.get(self.next).cloned();
        if p.is_some() {
            self.next += 1;
        }
        p
    }

    /// Whether a keyword with this rule is among the children.
    fn has_keyword(&self, rule: Rule) -> bool {
        self.items.iter().any(|p| p.as_rule() == rule)
    }

    fn skip_keywords_unless(&mut self, wanted: Rule) {
        while let Some(p) = self.peek() {
            if p.as_rule() != wanted && is_keyword(p.as_rule()) {
                self.next += 1;
            } else {
                break;
            }
        }
    }

    /// Fails if non-keyword children remain: the tree has an unexpected shape.
    fn finish(mut self) -> Result<()> {
        self.skip_keywords_unless(Rule::EOI);
        match self.peek() {
            None => Ok(()),
            Some(p) => Err(BuildError {
                span: self.parent,
                what: format!("unexpected {:?} in {:?}", p.as_rule(), self.rule),
            }),
        }
    }
}

impl Builder {
    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, s.start(), s.end()).shifted(self.offset)
    }

    fn loc(&self, pair: &Pair<'_, Rule>) -> Loc {
        Loc(self.span(pair))
    }

    fn children<'i>(&self, pair: Pair<'i, Rule>) -> Children<'i> {
        Children {
            parent: self.span(&pair),
            rule: pair.as_rule(),
            items: pair.into_inner().collect(),
            next: 0,
        }
    }

    fn unexpected(&self, pair: &Pair<'_, Rule>, context: &str) -> BuildError {
        BuildError {
            span: self.span(pair),
            what: format!("unexpected {:?} in {context}", pair.as_rule()),
        }
    }

    fn check(&self, pair: &Pair<'_, Rule>, rule: Rule) -> Result<()> {
        if pair.as_rule() == rule {
            Ok(())
        } else {
            Err(BuildError {
                span: self.span(pair),
                what: format!("expected {rule:?}, found {:?}", pair.as_rule()),
            })
        }
    }

    // ------------------------------------------------------------ leaves

    fn ident(&self, pair: Pair<'_, Rule>) -> Result<Ident> {
        self.check(&pair, Rule::ident)?;
        Ok(Ident {
            name: pair.as_str().to_string(),
            loc: self.loc(&pair),
        })
    }

    fn ident_list(&self, pair: Pair<'_, Rule>) -> Result<Vec<Ident>> {
        self.check(&pair, Rule::ident_list)?;
        let mut c = self.children(pair);
        let out = c
            .all(Rule::ident)
            .into_iter()
            .map(|p| self.ident(p))
            .collect();
        c.finish()?;
        out
    }

    fn idents(&self, c: &mut Children<'_>) -> Result<Vec<Ident>> {
        c.all(Rule::ident)
            .into_iter()
            .map(|p| self.ident(p))
            .collect()
    }

    fn number(&self, pair: Pair<'_, Rule>) -> Result<Number> {
        self.check(&pair, Rule::number)?;
        Ok(Number {
            text: pair.as_str().to_string(),
            loc: self.loc(&pair),
        })
    }

    /// A `string` or `raw_string`, unescaped.
    fn text(&self, pair: Pair<'_, Rule>) -> Result<Str> {
        let loc = self.loc(&pair);
        match pair.as_rule() {
            Rule::string => {
                let mut c = self.children(pair);
                let body = c.expect(Rule::string_body)?;
                c.finish()?;
                Ok(Str {
                    value: unescape(body.as_str()),
                    raw: false,
                    loc,
                })
            }
            Rule::raw_string => {
                let mut c = self.children(pair);
                let body = c.expect(Rule::raw_body)?;
                Ok(Str {
                    value: body.as_str().to_string(),
                    raw: true,
                    loc,
                })
            }
            _ => Err(self.unexpected(&pair, "a string")),
        }
    }

    fn next_text(&self, c: &mut Children<'_>) -> Result<Str> {
        match c
            .optional(Rule::string)
            .or_else(|| c.optional(Rule::raw_string))
        {
            Some(p) => self.text(p),
            None => Err(BuildError {
                span: c.parent,
                what: format!("expected a string in {:?}", c.rule),
            }),
        }
    }

    fn subject(&self, pair: Pair<'_, Rule>) -> Result<Subject> {
        let c = self.children(pair);
        if c.has_keyword(Rule::kw_args) {
            Ok(Subject::Args)
        } else {
            Ok(Subject::Destination)
        }
    }

    fn address_kind(&self, pair: Pair<'_, Rule>) -> Result<AddressKind> {
        self.check(&pair, Rule::address_kind)?;
        let c = self.children(pair);
        Ok(if c.has_keyword(Rule::kw_host) {
            AddressKind::Host
        } else if c.has_keyword(Rule::kw_url) {
            AddressKind::Url
        } else {
            AddressKind::Collection
        })
    }

    // ------------------------------------------------------------ items

    pub(crate) fn file(&self, pair: Pair<'_, Rule>) -> Result<File> {
        let mut items = Vec::new();
        for child in pair.into_inner() {
            if child.as_rule() == Rule::EOI {
                continue;
            }
            items.push(self.item(child)?);
        }
        Ok(File { items })
    }

    fn item(&self, pair: Pair<'_, Rule>) -> Result<Item> {
        Ok(match pair.as_rule() {
            Rule::use_decl => Item::Use(self.use_decl(pair)?),
            Rule::lattice_decl => Item::Lattice(self.lattice(pair)?),
            Rule::enum_decl => {
                let loc = self.loc(&pair);
                let mut c = self.children(pair);
                let name = self.ident(c.expect(Rule::ident)?)?;
                let values = self.idents(&mut c)?;
                c.finish()?;
                Item::Enum(Enum { name, values, loc })
            }
            Rule::set_decl => {
                let loc = self.loc(&pair);
                let mut c = self.children(pair);
                let name = self.ident(c.expect(Rule::ident)?)?;
                let members = self.idents(&mut c)?;
                c.finish()?;
                Item::Set(Set { name, members, loc })
            }
            Rule::channels_decl => {
                let loc = self.loc(&pair);
                let mut c = self.children(pair);
                let names = self.idents(&mut c)?;
                c.finish()?;
                Item::Channels(Channels { names, loc })
            }
            Rule::observer_decl => {
                let loc = self.loc(&pair);
                let mut c = self.children(pair);
                let name = self.ident(c.expect(Rule::ident)?)?;
                let loc_pair = c.expect(Rule::locality)?;
                let locality = if self.children(loc_pair).has_keyword(Rule::kw_external) {
                    Locality::External
                } else {
                    Locality::Internal
                };
                let sees = self.ident_list(c.expect(Rule::ident_list)?)?;
                c.finish()?;
                Item::Observer(Observer {
                    name,
                    locality,
                    sees,
                    loc,
                })
            }
            Rule::destination_decl => Item::Destination(self.destination(pair)?),
            Rule::tool_decl => Item::Tool(self.tool(pair)?),
            Rule::substitute_decl => Item::Substitute(self.substitute(pair)?),
            Rule::lexicon_decl => Item::Lexicon(self.lexicon(pair)?),
            Rule::labeler_decl => Item::Labeler(self.labeler(pair)?),
            Rule::transform_decl => Item::Transform(self.transform(pair)?),
            Rule::contract_decl => Item::Contract(self.contract(pair)?),
            _ => return Err(self.unexpected(&pair, "a file")),
        })
    }

    fn use_decl(&self, pair: Pair<'_, Rule>) -> Result<Use> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let mut pc = self.children(c.expect(Rule::path)?);
        let path = self.idents(&mut pc)?;
        pc.finish()?;
        let group = match c.optional(Rule::use_group) {
            Some(g) => {
                let mut gc = self.children(g);
                let names = self.idents(&mut gc)?;
                gc.finish()?;
                Some(names)
            }
            None => None,
        };
        c.finish()?;
        Ok(Use { path, group, loc })
    }

    fn lattice(&self, pair: Pair<'_, Rule>) -> Result<Lattice> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let role = match c.optional(Rule::lattice_role) {
            Some(r) => {
                let rc = self.children(r);
                Some(if rc.has_keyword(Rule::kw_args) {
                    Subject::Args
                } else {
                    Subject::Destination
                })
            }
            None => None,
        };
        let mut chains = Vec::new();
        for chain in c.all(Rule::chain) {
            let mut labels = Vec::new();
            let mut ops = Vec::new();
            for p in chain.into_inner() {
                match p.as_rule() {
                    Rule::ident => labels.push(self.ident(p)?),
                    Rule::op_lt => ops.push(p.as_str().to_string()),
                    _ => return Err(self.unexpected(&p, "a chain")),
                }
            }
            chains.push(Chain { labels, ops });
        }
        c.finish()?;
        Ok(Lattice {
            name,
            role,
            chains,
            loc,
        })
    }

    fn observed_by(&self, pair: Pair<'_, Rule>) -> Result<Vec<Ident>> {
        let mut c = self.children(pair);
        let list = self.ident_list(c.expect(Rule::ident_list)?)?;
        c.finish()?;
        Ok(list)
    }

    fn destination(&self, pair: Pair<'_, Rule>) -> Result<Destination> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let mut stmts = Vec::new();
        while let Some(p) = c.next_any() {
            stmts.push(match p.as_rule() {
                Rule::dest_address => {
                    let mut sc = self.children(p);
                    let kind = self.address_kind(sc.expect(Rule::address_kind)?)?;
                    let value = self.next_text(&mut sc)?;
                    sc.finish()?;
                    DestinationStmt::Address(kind, value)
                }
                Rule::dest_label => {
                    let mut sc = self.children(p);
                    let label = self.ident(sc.expect(Rule::ident)?)?;
                    sc.finish()?;
                    DestinationStmt::Label(label)
                }
                Rule::observed_by => DestinationStmt::ObservedBy(self.observed_by(p)?),
                _ => return Err(self.unexpected(&p, "a destination")),
            });
        }
        Ok(Destination { name, stmts, loc })
    }

    fn field_type(&self, pair: Pair<'_, Rule>) -> Result<FieldType> {
        self.check(&pair, Rule::field_type)?;
        let mut c = self.children(pair);
        let inner = c.next_any().ok_or_else(|| BuildError {
            span: c.parent,
            what: "empty field type".into(),
        })?;
        c.finish()?;
        let loc = self.loc(&inner);
        Ok(match inner.as_rule() {
            Rule::ident => FieldType::Named(self.ident(inner)?),
            Rule::list_type => {
                let mut lc = self.children(inner);
                let elem = self.field_type(lc.expect(Rule::field_type)?)?;
                lc.finish()?;
                FieldType::List(Box::new(elem), loc)
            }
            Rule::enum_type => {
                let mut ec = self.children(inner);
                let values = self.idents(&mut ec)?;
                ec.finish()?;
                FieldType::Enum(values, loc)
            }
            _ => return Err(self.unexpected(&inner, "a field type")),
        })
    }

    fn tool(&self, pair: Pair<'_, Rule>) -> Result<Tool> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let mut stmts = Vec::new();
        while let Some(p) = c.next_any() {
            let mut sc = self.children(p.clone());
            stmts.push(match p.as_rule() {
                Rule::tool_effect => ToolStmt::Effect(self.ident(sc.expect(Rule::ident)?)?),
                Rule::tool_args => {
                    let mut fields = Vec::new();
                    for f in sc.all(Rule::field) {
                        let mut fc = self.children(f);
                        let name = self.ident(fc.expect(Rule::ident)?)?;
                        let ty = self.field_type(fc.expect(Rule::field_type)?)?;
                        fc.finish()?;
                        fields.push(Field { name, ty });
                    }
                    ToolStmt::Args(fields)
                }
                Rule::tool_dests => {
                    ToolStmt::Destinations(self.ident_list(sc.expect(Rule::ident_list)?)?)
                }
                Rule::tool_substitute => ToolStmt::Substitute(self.ident(sc.expect(Rule::ident)?)?),
                _ => return Err(self.unexpected(&p, "a tool")),
            });
            sc.finish()?;
        }
        Ok(Tool { name, stmts, loc })
    }

    fn substitute(&self, pair: Pair<'_, Rule>) -> Result<Substitute> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let tool = self.ident(c.expect(Rule::ident)?)?;
        let mut stmts = Vec::new();
        while let Some(p) = c.next_any() {
            stmts.push(match p.as_rule() {
                Rule::observed_by => SubstituteStmt::ObservedBy(self.observed_by(p)?),
                Rule::on_promote => {
                    let ploc = self.loc(&p);
                    let mut sc = self.children(p);
                    let mode = self.promote_mode(sc.expect(Rule::promote_mode)?)?;
                    sc.finish()?;
                    SubstituteStmt::OnPromote(mode, ploc)
                }
                _ => return Err(self.unexpected(&p, "a substitute")),
            });
        }
        Ok(Substitute {
            name,
            tool,
            stmts,
            loc,
        })
    }

    /// `reuse` or `reissue` (after `on promote`, in a substitute or a rewrite).
    pub(super) fn promote_mode(&self, pair: Pair<'_, Rule>) -> Result<PromoteMode> {
        self.check(&pair, Rule::promote_mode)?;
        Ok(if self.children(pair).has_keyword(Rule::kw_reuse) {
            PromoteMode::Reuse
        } else {
            PromoteMode::Reissue
        })
    }

    fn lexicon(&self, pair: Pair<'_, Rule>) -> Result<Lexicon> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let mut entries = Vec::new();
        for e in c.all(Rule::lexicon_entry) {
            let mut ec = self.children(e);
            let phrase = self.text(ec.expect(Rule::string)?)?;
            let replacement = match ec.optional(Rule::string) {
                Some(p) => Some(self.text(p)?),
                None => None,
            };
            ec.finish()?;
            entries.push(LexiconEntry {
                phrase,
                replacement,
            });
        }
        c.finish()?;
        Ok(Lexicon { name, entries, loc })
    }

    fn matcher(&self, pair: Pair<'_, Rule>) -> Result<Matcher> {
        let mut mc = self.children(pair.clone());
        let Some(inner) = mc.next_any() else {
            return Err(self.unexpected(&pair, "a matcher"));
        };
        mc.finish()?;
        let rule = inner.as_rule();
        let mut c = self.children(inner.clone());
        let m = match rule {
            Rule::match_lexicon => Matcher::Lexicon(self.ident_list(c.expect(Rule::ident_list)?)?),
            Rule::match_terms => Matcher::Terms(self.ident_list(c.expect(Rule::ident_list)?)?),
            Rule::match_parts => Matcher::Parts(self.ident_list(c.expect(Rule::ident_list)?)?),
            Rule::match_pattern => Matcher::Pattern(self.next_text(&mut c)?),
            Rule::match_entity => Matcher::Entity(self.ident(c.expect(Rule::ident)?)?),
            Rule::match_address => Matcher::Address(
                self.address_kind(c.expect(Rule::address_kind)?)?,
                self.next_text(&mut c)?,
            ),
            _ => return Err(self.unexpected(&inner, "a matcher")),
        };
        c.finish()?;
        Ok(m)
    }

    fn match_rule(&self, pair: Pair<'_, Rule>) -> Result<MatchRule> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let (mut tools, mut fields) = (Vec::new(), Vec::new());
        if let Some(scope) = c.optional(Rule::rule_scope) {
            let mut sc = self.children(scope);
            if let Some(t) = sc.optional(Rule::scope_tools) {
                let mut tc = self.children(t);
                tools = self.ident_list(tc.expect(Rule::ident_list)?)?;
                tc.finish()?;
            }
            if let Some(f) = sc.optional(Rule::scope_fields) {
                let mut fc = self.children(f);
                fields = self.ident_list(fc.expect(Rule::ident_list)?)?;
                fc.finish()?;
            }
            sc.finish()?;
        }
        let mut when = Vec::new();
        while let Some(m) = c.optional(Rule::matcher) {
            when.push(self.matcher(m)?);
        }
        let label = self.ident(c.expect(Rule::ident)?)?;
        let mut unless = Vec::new();
        if let Some(e) = c.optional(Rule::except_clause) {
            let mut ec = self.children(e);
            while let Some(m) = ec.optional(Rule::matcher) {
                unless.push(self.matcher(m)?);
            }
            ec.finish()?;
        }
        Ok(MatchRule {
            tools,
            fields,
            when,
            label,
            unless,
            loc,
        })
    }

    fn labeler(&self, pair: Pair<'_, Rule>) -> Result<Labeler> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let subject = if c.has_keyword(Rule::kw_args) {
            Subject::Args
        } else {
            Subject::Destination
        };
        let mut rules = Vec::new();
        while let Some(p) = c.next_any() {
            let loc = self.loc(&p);
            let rule = p.as_rule();
            let mut rc = self.children(p.clone());
            rules.push(match rule {
                Rule::label_rule => LabelRule::Match(self.match_rule(p.clone())?),
                Rule::fallback => LabelRule::Fallback {
                    label: self.ident(rc.expect(Rule::ident)?)?,
                    loc,
                },
                _ => return Err(self.unexpected(&p, "a labeler")),
            });
            if rule == Rule::fallback {
                rc.finish()?;
            }
        }
        Ok(Labeler {
            name,
            subject,
            rules,
            loc,
        })
    }

    fn with_text(&self, c: &mut Children<'_>) -> Result<Option<Str>> {
        match c.optional(Rule::string) {
            Some(p) => Ok(Some(self.text(p)?)),
            None => Ok(None),
        }
    }

    fn transform(&self, pair: Pair<'_, Rule>) -> Result<Transform> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let inputs = c
            .all(Rule::field_type)
            .into_iter()
            .map(|p| self.field_type(p))
            .collect::<Result<Vec<_>>>()?;
        let output = self.ident(c.expect(Rule::ident)?)?;
        let mut steps = Vec::new();
        while let Some(p) = c.next_any() {
            let sloc = self.loc(&p);
            let rule = p.as_rule();
            let mut sc = self.children(p.clone());
            steps.push(match rule {
                Rule::step_replace => TransformStep::ReplaceLexicon(
                    self.ident(sc.expect(Rule::ident)?)?,
                    self.with_text(&mut sc)?,
                    sloc,
                ),
                Rule::step_redact => TransformStep::RedactEntity(
                    self.ident(sc.expect(Rule::ident)?)?,
                    self.with_text(&mut sc)?,
                    sloc,
                ),
                Rule::step_coarsen => {
                    TransformStep::CoarsenTime(self.ident(sc.expect(Rule::ident)?)?, sloc)
                }
                Rule::step_constant => {
                    TransformStep::Constant(self.text(sc.expect(Rule::string)?)?, sloc)
                }
                _ => return Err(self.unexpected(&p, "a transform")),
            });
            sc.finish()?;
        }
        Ok(Transform {
            name,
            inputs,
            output,
            steps,
            loc,
        })
    }
}

/// Our AST's rule type, renamed here to avoid clashing with pest's `Rule`.
type Rule_ = super::ast::Rule;

/// Resolves escapes the grammar accepted; anything else is kept verbatim.
pub(crate) fn unescape(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('u') => {
                let mut hex = String::new();
                if chars.peek() == Some(&'{') {
                    chars.next();
                    for c in chars.by_ref() {
                        if c == '}' {
                            break;
                        }
                        hex.push(c);
                    }
                }
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(c) => out.push(c),
                    None => out.push('\u{fffd}'),
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}
