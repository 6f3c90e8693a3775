//! Building the AST from pest pairs, checked at every step.
//!
//! Nothing here unwraps a child by position. Each node's children go into a
//! [`Children`] cursor whose accessors name the rule they expect; a tree of
//! another shape (a grammar change the builder did not follow) becomes a
//! [`BuildError`], reported as the internal-error diagnostic `E0900`, never
//! a panic. Keyword pairs (`kw_*`) are skipped by the cursor unless asked
//! for, because most carry no information beyond the node they sit in.

use super::ast::*;
use super::grammar::Rule;
use crate::source::{FileId, Loc, Span};
use pest::iterators::Pair;

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
                    let mode = sc.expect(Rule::promote_mode)?;
                    sc.finish()?;
                    let reuse = self.children(mode).has_keyword(Rule::kw_reuse);
                    let mode = if reuse {
                        PromoteMode::Reuse
                    } else {
                        PromoteMode::Reissue
                    };
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

    fn except(&self, c: &mut Children<'_>) -> Result<Option<Ident>> {
        match c.optional(Rule::except_clause) {
            Some(p) => {
                let mut ec = self.children(p);
                let id = self.ident(ec.expect(Rule::ident)?)?;
                ec.finish()?;
                Ok(Some(id))
            }
            None => Ok(None),
        }
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
                Rule::match_lexicon => LabelRule::Lexicon {
                    lexicon: self.ident(rc.expect(Rule::ident)?)?,
                    label: self.ident(rc.expect(Rule::ident)?)?,
                    unless: self.except(&mut rc)?,
                    loc,
                },
                Rule::match_pattern => LabelRule::Pattern {
                    regex: self.next_text(&mut rc)?,
                    label: self.ident(rc.expect(Rule::ident)?)?,
                    unless: self.except(&mut rc)?,
                    loc,
                },
                Rule::match_entity => LabelRule::Entity {
                    kind: self.ident(rc.expect(Rule::ident)?)?,
                    label: self.ident(rc.expect(Rule::ident)?)?,
                    loc,
                },
                Rule::match_address => LabelRule::Address {
                    kind: self.address_kind(rc.expect(Rule::address_kind)?)?,
                    pattern: self.next_text(&mut rc)?,
                    label: self.ident(rc.expect(Rule::ident)?)?,
                    loc,
                },
                Rule::fallback => LabelRule::Fallback {
                    label: self.ident(rc.expect(Rule::ident)?)?,
                    loc,
                },
                _ => return Err(self.unexpected(&p, "a labeler")),
            });
            rc.finish()?;
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

    // ------------------------------------------------------------ contracts

    fn contract(&self, pair: Pair<'_, Rule>) -> Result<Contract> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let mut params = Vec::new();
        if let Some(p) = c.optional(Rule::params) {
            let mut pc = self.children(p);
            for param in pc.all(Rule::param) {
                let mut qc = self.children(param);
                let name = self.ident(qc.expect(Rule::ident)?)?;
                let default = self.number(qc.expect(Rule::number)?)?;
                qc.finish()?;
                params.push(Param { name, default });
            }
            pc.finish()?;
        }
        let mut stmts = Vec::new();
        while let Some(p) = c.next_any() {
            stmts.push(self.contract_stmt(p)?);
        }
        Ok(Contract {
            name,
            params,
            stmts,
            loc,
        })
    }

    fn contract_stmt(&self, pair: Pair<'_, Rule>) -> Result<ContractStmt> {
        let loc = self.loc(&pair);
        let rule = pair.as_rule();
        if rule == Rule::decide {
            return Ok(ContractStmt::Decide(self.decide(pair)?));
        }
        if rule == Rule::test_block {
            return Ok(ContractStmt::Test(self.test(pair)?));
        }
        let mut c = self.children(pair.clone());
        let stmt = match rule {
            Rule::allow_tools => {
                ContractStmt::Tools(self.ident_list(c.expect(Rule::ident_list)?)?, loc)
            }
            Rule::allow_dests => {
                ContractStmt::Destinations(self.ident_list(c.expect(Rule::ident_list)?)?, loc)
            }
            Rule::forbid => ContractStmt::Forbid(Forbid {
                subject: self.subject(c.expect(Rule::label_subject)?)?,
                label: self.ident(c.expect(Rule::ident)?)?,
                observers: self.ident_list(c.expect(Rule::ident_list)?)?,
                loc,
            }),
            Rule::threshold => {
                let mode = self.ident(c.expect(Rule::ident)?)?;
                let mut vc = self.children(c.expect(Rule::number_or_param)?);
                let value = match vc.next_any() {
                    Some(p) if p.as_rule() == Rule::number => {
                        NumberOrParam::Number(self.number(p)?)
                    }
                    Some(p) if p.as_rule() == Rule::ident => NumberOrParam::Param(self.ident(p)?),
                    Some(p) => return Err(self.unexpected(&p, "a threshold")),
                    None => return Err(self.unexpected(&pair, "a threshold")),
                };
                vc.finish()?;
                ContractStmt::Threshold(Threshold { mode, value, loc })
            }
            Rule::budget => ContractStmt::Budget(Budget {
                name: self.ident(c.expect(Rule::ident)?)?,
                limit: self.number(c.expect(Rule::number)?)?,
                subject: self.subject(c.expect(Rule::label_subject)?)?,
                label: self.ident(c.expect(Rule::ident)?)?,
                loc,
            }),
            Rule::audit => {
                let none = c.has_keyword(Rule::kw_none);
                let mut audit = Audit {
                    sinks: Vec::new(),
                    raw_args: None,
                    scrub_after_commit: false,
                    none,
                    loc,
                };
                if let Some(to) = c.optional(Rule::audit_to) {
                    let mut tc = self.children(to);
                    audit.sinks = self.ident_list(tc.expect(Rule::ident_list)?)?;
                    if let Some(g) = tc.optional(Rule::raw_grant) {
                        audit.raw_args = Some(self.children(g).has_keyword(Rule::kw_with));
                    }
                    audit.scrub_after_commit = tc.optional(Rule::scrub).is_some();
                    tc.finish()?;
                }
                ContractStmt::Audit(audit)
            }
            _ => return Err(self.unexpected(&pair, "a contract")),
        };
        c.finish()?;
        Ok(stmt)
    }

    fn decide(&self, pair: Pair<'_, Rule>) -> Result<Decide> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let rules = c
            .all(Rule::decide_rule)
            .into_iter()
            .map(|r| self.rule(r))
            .collect::<Result<Vec<_>>>()?;
        c.finish()?;
        Ok(Decide { rules, loc })
    }

    fn rule(&self, pair: Pair<'_, Rule>) -> Result<Rule_> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = match c.optional(Rule::rule_name) {
            Some(p) => {
                let mut nc = self.children(p);
                let id = self.ident(nc.expect(Rule::ident)?)?;
                nc.finish()?;
                Some(id)
            }
            None => None,
        };
        let action = self.action(c.expect(Rule::action)?)?;
        let guard = match c.optional(Rule::guard) {
            Some(g) => {
                let mut gc = self.children(g);
                let negated = gc.has_keyword(Rule::kw_unless);
                let expr = self.expr(gc.expect(Rule::expr)?)?;
                gc.finish()?;
                Some(Guard { negated, expr })
            }
            None => None,
        };
        c.finish()?;
        Ok(Rule_ {
            name,
            action,
            guard,
            loc,
        })
    }

    fn action(&self, pair: Pair<'_, Rule>) -> Result<Action> {
        let mut c = self.children(pair);
        let inner = c.next_any().ok_or_else(|| BuildError {
            span: c.parent,
            what: "empty action".into(),
        })?;
        c.finish()?;
        let loc = self.loc(&inner);
        let rule = inner.as_rule();
        let mut ic = self.children(inner.clone());
        let action = match rule {
            Rule::act_allow => Action::Allow(loc),
            Rule::act_block => Action::Block(loc),
            Rule::act_defer => Action::Defer(loc),
            Rule::act_rewrite => {
                Action::Rewrite(self.ident_list(ic.expect(Rule::ident_list)?)?, loc)
            }
            Rule::act_shadow => Action::Shadow(
                match ic.optional(Rule::ident) {
                    Some(p) => Some(self.ident(p)?),
                    None => None,
                },
                loc,
            ),
            _ => return Err(self.unexpected(&inner, "an action")),
        };
        ic.finish()?;
        Ok(action)
    }

    /// Guards: a Pratt parser over `not` (prefix), `and`, `or` (infix, left).
    fn expr(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        use pest::pratt_parser::{Assoc, Op, PrattParser};
        let pratt = PrattParser::new()
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not));
        pratt
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let loc = Loc(self.span(&op).to(rhs.loc().span()));
                Ok(Expr::Not(Box::new(rhs), loc))
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let loc = Loc(lhs.loc().span().to(rhs.loc().span()));
                match op.as_rule() {
                    Rule::op_and => Ok(Expr::And(Box::new(lhs), Box::new(rhs), loc)),
                    Rule::op_or => Ok(Expr::Or(Box::new(lhs), Box::new(rhs), loc)),
                    _ => Err(self.unexpected(&op, "a condition")),
                }
            })
            .parse(pair.into_inner())
    }

    fn primary(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        let loc = self.loc(&pair);
        let rule = pair.as_rule();
        match rule {
            Rule::expr => Ok(Expr::Paren(Box::new(self.expr(pair)?), loc)),
            Rule::lit_bool => Ok(Expr::Bool(
                self.children(pair).has_keyword(Rule::kw_true),
                loc,
            )),
            Rule::flag => {
                let mut c = self.children(pair);
                let id = self.ident(c.expect(Rule::ident)?)?;
                c.finish()?;
                Ok(Expr::Flag(id))
            }
            Rule::predicate => {
                let mut c = self.children(pair);
                let p = if c.has_keyword(Rule::kw_tool) {
                    Predicate::ToolAllowed
                } else if c.has_keyword(Rule::kw_destination) {
                    if c.has_keyword(Rule::kw_allowed) {
                        Predicate::DestinationAllowed
                    } else {
                        Predicate::DestinationExternal
                    }
                } else if c.has_keyword(Rule::kw_budget) {
                    Predicate::BudgetExhausted(match c.optional(Rule::ident) {
                        Some(p) => Some(self.ident(p)?),
                        None => None,
                    })
                } else if c.has_keyword(Rule::kw_labels) {
                    Predicate::LabelsMissing
                } else {
                    Predicate::SubstituteAvailable
                };
                c.finish()?;
                Ok(Expr::Predicate(p, loc))
            }
            Rule::comparison => Ok(Expr::Compare(self.comparison(pair)?)),
            _ => Err(self.unexpected(&pair, "a condition")),
        }
    }

    fn comparison(&self, pair: Pair<'_, Rule>) -> Result<Compare> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let subject_pair = c.expect(Rule::subject)?;
        let subject_loc = self.loc(&subject_pair);
        let mut sc = self.children(subject_pair);
        let subject = if let Some(a) = sc.optional(Rule::args_subject) {
            let mut ac = self.children(a);
            let field = match ac.optional(Rule::ident) {
                Some(p) => Some(self.ident(p)?),
                None => None,
            };
            ac.finish()?;
            CompareSubject::Args(field)
        } else if sc.has_keyword(Rule::kw_tool) {
            CompareSubject::Tool
        } else if sc.has_keyword(Rule::kw_destination) {
            CompareSubject::Destination
        } else if sc.has_keyword(Rule::kw_mode) {
            CompareSubject::Mode
        } else if sc.has_keyword(Rule::kw_effect) {
            CompareSubject::Effect
        } else {
            CompareSubject::Confidence
        };
        sc.finish()?;
        let test = if let Some(op) = c.optional(Rule::op_cmp) {
            let op = match op.as_str() {
                "==" => CmpOp::Eq,
                "!=" => CmpOp::Ne,
                "<" => CmpOp::Lt,
                "<=" => CmpOp::Le,
                ">" => CmpOp::Gt,
                ">=" => CmpOp::Ge,
                _ => return Err(self.unexpected(&op, "a comparison")),
            };
            let operand_pair = c.expect(Rule::operand)?;
            let oloc = self.loc(&operand_pair);
            let oc = self.children(operand_pair);
            let operand = if oc.has_keyword(Rule::kw_threshold) {
                Operand::Threshold(oloc)
            } else {
                let mut oc = oc;
                match oc.next_any() {
                    Some(p) if p.as_rule() == Rule::number => Operand::Number(self.number(p)?),
                    Some(p) if p.as_rule() == Rule::ident => Operand::Name(self.ident(p)?),
                    Some(p) => return Err(self.unexpected(&p, "an operand")),
                    None => {
                        return Err(BuildError {
                            span: oloc.span(),
                            what: "empty operand".into(),
                        })
                    }
                }
            };
            CompareTest::Op(op, operand)
        } else {
            let mut set = self.children(c.expect(Rule::set)?);
            let names = self.idents(&mut set)?;
            set.finish()?;
            CompareTest::In(names)
        };
        c.finish()?;
        Ok(Compare {
            subject,
            subject_loc,
            test,
            loc,
        })
    }

    // ------------------------------------------------------------ tests

    fn test(&self, pair: Pair<'_, Rule>) -> Result<Test> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.text(c.expect(Rule::string)?)?;
        let mut ec = self.children(c.expect(Rule::test_event)?);
        let tool = self.ident(ec.expect(Rule::ident)?)?;
        let args = ec
            .all(Rule::call_arg)
            .into_iter()
            .map(|a| self.call_arg(a))
            .collect::<Result<Vec<_>>>()?;
        let mut clauses = Vec::new();
        while let Some(p) = ec.next_any() {
            clauses.push(self.event_clause(p)?);
        }
        let mut xc = self.children(c.expect(Rule::expectation)?);
        let action_pair = xc.expect(Rule::expect_action)?;
        let ac = self.children(action_pair);
        let expect = if ac.has_keyword(Rule::kw_allow) {
            ExpectAction::Allow
        } else if ac.has_keyword(Rule::kw_block) {
            ExpectAction::Block
        } else if ac.has_keyword(Rule::kw_defer) {
            ExpectAction::Defer
        } else if ac.has_keyword(Rule::kw_rewrite) {
            ExpectAction::Rewrite
        } else {
            ExpectAction::Shadow
        };
        let expect_rule = match xc.optional(Rule::ident) {
            Some(p) => Some(self.ident(p)?),
            None => None,
        };
        xc.finish()?;
        c.finish()?;
        Ok(Test {
            name,
            tool,
            args,
            clauses,
            expect,
            expect_rule,
            loc,
        })
    }

    fn call_arg(&self, pair: Pair<'_, Rule>) -> Result<CallArg> {
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let value = self.value(c.expect(Rule::value)?)?;
        c.finish()?;
        Ok(CallArg { name, value })
    }

    fn value(&self, pair: Pair<'_, Rule>) -> Result<Value> {
        let mut c = self.children(pair);
        let inner = c.next_any().ok_or_else(|| BuildError {
            span: c.parent,
            what: "empty value".into(),
        })?;
        c.finish()?;
        let loc = self.loc(&inner);
        Ok(match inner.as_rule() {
            Rule::string => Value::Str(self.text(inner)?),
            Rule::number => Value::Number(self.number(inner)?),
            Rule::lit_bool => Value::Bool(self.children(inner).has_keyword(Rule::kw_true), loc),
            Rule::list_value => {
                let mut lc = self.children(inner);
                let items = lc
                    .all(Rule::value)
                    .into_iter()
                    .map(|v| self.value(v))
                    .collect::<Result<Vec<_>>>()?;
                lc.finish()?;
                Value::List(items, loc)
            }
            Rule::object_value => {
                let mut oc = self.children(inner);
                let items = oc
                    .all(Rule::call_arg)
                    .into_iter()
                    .map(|v| self.call_arg(v))
                    .collect::<Result<Vec<_>>>()?;
                oc.finish()?;
                Value::Object(items, loc)
            }
            _ => return Err(self.unexpected(&inner, "a value")),
        })
    }

    fn event_clause(&self, pair: Pair<'_, Rule>) -> Result<EventClause> {
        let rule = pair.as_rule();
        let mut c = self.children(pair.clone());
        let clause = match rule {
            Rule::ev_to => match c.next_any() {
                Some(p) if p.as_rule() == Rule::ident => EventClause::ToName(self.ident(p)?),
                Some(p) if p.as_rule() == Rule::string => EventClause::ToAddress(self.text(p)?),
                _ => return Err(self.unexpected(&pair, "`to`")),
            },
            Rule::ev_mode => {
                let explicit = c.has_keyword(Rule::kw_mode);
                EventClause::Mode(self.ident(c.expect(Rule::ident)?)?, explicit)
            }
            Rule::ev_confidence => EventClause::Confidence(self.number(c.expect(Rule::number)?)?),
            Rule::ev_branch => EventClause::Branch(self.text(c.expect(Rule::string)?)?),
            Rule::ev_budget => EventClause::After(
                self.number(c.expect(Rule::number)?)?,
                self.ident(c.expect(Rule::ident)?)?,
            ),
            Rule::ev_labels => {
                let mut bindings = Vec::new();
                for b in c.all(Rule::label_binding) {
                    let bloc = self.loc(&b);
                    let mut bc = self.children(b);
                    let key = match bc.optional(Rule::kw_destination) {
                        Some(_) => Ident {
                            name: "destination".into(),
                            loc: bloc,
                        },
                        None => self.ident(bc.expect(Rule::ident)?)?,
                    };
                    let key = Ident {
                        loc: key.loc,
                        ..key
                    };
                    let label = self.ident(bc.expect(Rule::ident)?)?;
                    bc.finish()?;
                    bindings.push((key, label));
                }
                EventClause::Labels(bindings)
            }
            _ => return Err(self.unexpected(&pair, "a test event")),
        };
        c.finish()?;
        Ok(clause)
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
