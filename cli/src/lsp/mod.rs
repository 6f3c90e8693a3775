//! `stpc lsp`: a language server over stdio, built on the compiler's own
//! stages.
//!
//! The transport is `lsp-server` (rust-analyzer's: framing, the initialize
//! handshake and shutdown), the types are `lsp-types`. The server is one
//! synchronous loop: documents are edited in place as changes arrive and
//! analysed once the client has been quiet for [`DEBOUNCE`] (or a document
//! has waited [`MAX_WAIT`] under continuous typing); a request is answered
//! on the current text, so pending documents are analysed first.
//!
//! Each analysis runs on its own thread with a large stack, so that no
//! contract, however hostile, takes the server down with it: a panic there
//! becomes one diagnostic and the server keeps going.
//!
//! What the server offers: diagnostics with codes, help, notes and related
//! locations (lowering and verification included); hover and go to
//! definition for every declared name, `std` included (std modules are
//! written once to a read-only cache directory, so any editor can open
//! them); completion of keywords and declared names; formatting with
//! `stpc fmt`; quick fixes for the repairs diagnostics carry.

mod analysis;
mod stdlib;
mod text;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionProviderCapability, CompletionItem,
    CompletionItemKind, CompletionOptions, DiagnosticRelatedInformation, DiagnosticSeverity,
    GotoDefinitionResponse, Hover, HoverContents, HoverProviderCapability, InitializeParams,
    Location, MarkupContent, MarkupKind, NumberOrString, OneOf, PositionEncodingKind,
    PublishDiagnosticsParams, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextEdit, Url, WorkspaceEdit,
};
use stpc_compiler::{Diagnostic, FileId, Severity};

use crate::{output, Global, Outcome};
use analysis::Analysis;
use text::{Document, Encoding};

/// Quiet time after a change before the document is analysed.
pub const DEBOUNCE: Duration = Duration::from_millis(15);

/// Longest a changed document waits for analysis while changes keep coming.
pub const MAX_WAIT: Duration = Duration::from_millis(150);

/// Stack of the analysis thread: deep nesting in a hostile contract must
/// not overflow it before the compiler's own limits answer.
const ANALYSIS_STACK: usize = 256 << 20;

/// Arguments of `stpc lsp`.
#[derive(clap::Args, Debug)]
pub struct LspArgs {
    /// Talk LSP over standard input and output (the default and only
    /// transport; accepted because editors pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// Runs `stpc lsp` until the client shuts the server down.
pub fn run(global: &Global, _args: LspArgs) -> Outcome {
    let (connection, io_threads) = Connection::stdio();
    let result = serve(&connection);
    drop(connection);
    let joined = io_threads.join();
    match (result, joined) {
        (Ok(End::Shutdown), Ok(())) => Outcome::Success,
        // The protocol's rule: `exit` before `shutdown` (or the client
        // going away) ends with status 1.
        (Ok(End::Abrupt), Ok(())) => Outcome::Problems,
        (Err(e), _) => {
            output::fail(global, &format!("language server: {e}"));
            Outcome::Failure
        }
        (_, Err(e)) => {
            output::fail(global, &format!("language server transport: {e}"));
            Outcome::Failure
        }
    }
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

/// How the session ended.
enum End {
    /// `shutdown` then `exit`.
    Shutdown,
    /// `exit` without `shutdown`, or the input closed.
    Abrupt,
}

fn serve(connection: &Connection) -> Result<End, Failure> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params)?;
    let utf8 = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
    let encoding = if utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    let capabilities = ServerCapabilities {
        position_encoding: Some(if utf8 {
            PositionEncodingKind::UTF8
        } else {
            PositionEncodingKind::UTF16
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions::default()),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    };
    let result = lsp_types::InitializeResult {
        capabilities,
        server_info: Some(ServerInfo {
            name: "stpc".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    };
    connection.initialize_finish(id, serde_json::to_value(result)?)?;
    Server {
        connection,
        encoding,
        docs: HashMap::new(),
        analyses: HashMap::new(),
        dirty: BTreeMap::new(),
    }
    .main_loop()
}

struct Server<'a> {
    connection: &'a Connection,
    encoding: Encoding,
    docs: HashMap<Url, Document>,
    analyses: HashMap<Url, Analysis>,
    /// Documents changed since their last analysis, with when they first
    /// changed.
    dirty: BTreeMap<Url, Instant>,
}

impl Server<'_> {
    fn main_loop(mut self) -> Result<End, Failure> {
        loop {
            let message = if self.dirty.is_empty() {
                match self.connection.receiver.recv() {
                    Ok(m) => m,
                    Err(_) => return Ok(End::Abrupt),
                }
            } else {
                let oldest = self.dirty.values().min().copied();
                let overdue = oldest.is_some_and(|t| t.elapsed() >= MAX_WAIT);
                let wait = if overdue { Duration::ZERO } else { DEBOUNCE };
                match self.connection.receiver.recv_timeout(wait) {
                    Ok(m) => m,
                    Err(RecvTimeoutError::Timeout) => {
                        self.analyze_dirty()?;
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => return Ok(End::Abrupt),
                }
            };
            match message {
                Message::Request(request) => {
                    if self.connection.handle_shutdown(&request)? {
                        return Ok(End::Shutdown);
                    }
                    // Answer on the current text.
                    self.analyze_dirty()?;
                    let response = self.respond(request);
                    self.connection.sender.send(Message::Response(response))?;
                }
                Message::Notification(n) => {
                    if n.method == note::Exit::METHOD {
                        return Ok(End::Abrupt);
                    }
                    self.notify(n)?;
                }
                Message::Response(_) => {}
            }
            if self
                .dirty
                .values()
                .min()
                .is_some_and(|t| t.elapsed() >= MAX_WAIT)
            {
                self.analyze_dirty()?;
            }
        }
    }

    fn notify(&mut self, n: Notification) -> Result<(), Failure> {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                else {
                    return Ok(());
                };
                let doc = Document::new(p.text_document.text, p.text_document.version);
                self.docs.insert(p.text_document.uri.clone(), doc);
                self.dirty.insert(p.text_document.uri, Instant::now());
            }
            note::DidChangeTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                else {
                    return Ok(());
                };
                let uri = p.text_document.uri;
                if let Some(doc) = self.docs.get_mut(&uri) {
                    for change in p.content_changes {
                        doc.apply(change, self.encoding);
                    }
                    doc.version = p.text_document.version;
                    self.dirty.entry(uri).or_insert_with(Instant::now);
                    // Files that import this one see the change too.
                    let others: Vec<Url> = self.docs.keys().cloned().collect();
                    for other in others {
                        self.dirty.entry(other).or_insert_with(Instant::now);
                    }
                }
            }
            note::DidCloseTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                else {
                    return Ok(());
                };
                let uri = p.text_document.uri;
                self.docs.remove(&uri);
                self.analyses.remove(&uri);
                self.dirty.remove(&uri);
                self.publish(uri, Vec::new(), None)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn analyze_dirty(&mut self) -> Result<(), Failure> {
        let dirty = std::mem::take(&mut self.dirty);
        for uri in dirty.into_keys() {
            let Some(doc) = self.docs.get(&uri) else {
                continue;
            };
            let version = doc.version;
            let analysis = self.analyze(&uri, doc.text().to_owned());
            let diagnostics = match &analysis {
                Ok(a) => a.diagnostics.iter().map(|d| self.to_lsp(a, d)).collect(),
                Err(message) => vec![lsp_types::Diagnostic {
                    severity: Some(DiagnosticSeverity::ERROR),
                    source: Some("stpc".to_owned()),
                    message: message.clone(),
                    ..lsp_types::Diagnostic::default()
                }],
            };
            match analysis {
                Ok(a) => {
                    self.analyses.insert(uri.clone(), a);
                }
                Err(_) => {
                    self.analyses.remove(&uri);
                }
            }
            self.publish(uri, diagnostics, Some(version))?;
        }
        Ok(())
    }

    /// Runs the compiler on a document, on a thread of its own.
    fn analyze(&self, uri: &Url, text: String) -> Result<Analysis, String> {
        let name = file_name(uri);
        // Imports read the editor's unsaved text first, then the disk.
        let open: HashMap<String, String> = self
            .docs
            .iter()
            .filter(|(u, _)| *u != uri)
            .map(|(u, d)| (file_name(u), d.text().to_owned()))
            .collect();
        let worker = std::thread::Builder::new()
            .name("stpc-analysis".to_owned())
            .stack_size(ANALYSIS_STACK)
            .spawn(move || {
                let mut read = |path: &str| {
                    open.get(path)
                        .cloned()
                        .or_else(|| std::fs::read_to_string(path).ok())
                };
                analysis::analyze(&name, &text, &mut read)
            })
            .map_err(|e| format!("stpc could not start an analysis: {e}"))?;
        worker.join().map_err(|_| {
            "internal error: the compiler stopped on this file; please report it".to_owned()
        })
    }

    fn publish(
        &self,
        uri: Url,
        diagnostics: Vec<lsp_types::Diagnostic>,
        version: Option<i32>,
    ) -> Result<(), Failure> {
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        self.connection
            .sender
            .send(Message::Notification(Notification::new(
                note::PublishDiagnostics::METHOD.to_owned(),
                params,
            )))?;
        Ok(())
    }

    /// The URI and range of a byte span of a file the analysis read.
    fn locate(&self, a: &Analysis, file: FileId, start: usize, end: usize) -> Option<Location> {
        let source = a.map.get(file)?;
        let uri = if file == a.root {
            self.docs
                .keys()
                .find(|u| file_name(u) == source.name())
                .cloned()
                .or_else(|| Url::from_file_path(source.name()).ok())?
        } else if let Some(rel) = source.name().strip_prefix("<std>/") {
            Url::from_file_path(stdlib::materialize(rel, source.text())?).ok()?
        } else {
            Url::from_file_path(source.name()).ok()?
        };
        let range = match self.docs.get(&uri).filter(|_| file == a.root) {
            Some(doc) => doc.range(start, end, self.encoding),
            None => Document::new(source.text().to_owned(), 0).range(start, end, self.encoding),
        };
        Some(Location { uri, range })
    }

    fn to_lsp(&self, a: &Analysis, d: &Diagnostic) -> lsp_types::Diagnostic {
        let primary = d
            .labels
            .iter()
            .find(|l| l.style == stpc_compiler::diagnostics::LabelStyle::Primary);
        let mut message = d.message.clone();
        let mut related = Vec::new();
        let range = match primary {
            Some(l) if l.span.file == a.root => {
                if !l.message.is_empty() {
                    message.push_str(&format!(" ({})", l.message));
                }
                self.locate(a, l.span.file, l.span.range().start, l.span.range().end)
                    .map(|loc| loc.range)
            }
            Some(l) => {
                // In an imported file: shown at the top, pointing there.
                if let Some(loc) =
                    self.locate(a, l.span.file, l.span.range().start, l.span.range().end)
                {
                    related.push(DiagnosticRelatedInformation {
                        location: loc,
                        message: if l.message.is_empty() {
                            "here".to_owned()
                        } else {
                            l.message.clone()
                        },
                    });
                }
                None
            }
            None => None,
        }
        .unwrap_or_default();
        for l in d
            .labels
            .iter()
            .filter(|l| l.style == stpc_compiler::diagnostics::LabelStyle::Secondary)
        {
            if let Some(location) =
                self.locate(a, l.span.file, l.span.range().start, l.span.range().end)
            {
                related.push(DiagnosticRelatedInformation {
                    location,
                    message: if l.message.is_empty() {
                        "related".to_owned()
                    } else {
                        l.message.clone()
                    },
                });
            }
        }
        for n in &d.notes {
            message.push_str("\nnote: ");
            message.push_str(n);
        }
        if let Some(h) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(h);
        }
        lsp_types::Diagnostic {
            range,
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(d.code.as_str().to_owned())),
            source: Some("stpc".to_owned()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..lsp_types::Diagnostic::default()
        }
    }

    fn respond(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            req::HoverRequest::METHOD => self.json(request, Self::hover),
            req::GotoDefinition::METHOD => self.json(request, Self::definition),
            req::Completion::METHOD => self.json(request, Self::completion),
            req::Formatting::METHOD => self.json(request, Self::formatting),
            req::CodeActionRequest::METHOD => self.json(request, Self::code_actions),
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("stpc lsp does not answer `{}`", request.method),
            )),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    /// Decodes a request's parameters, answers, encodes the answer.
    fn json<P, R>(
        &self,
        request: Request,
        answer: fn(&Self, P) -> Option<R>,
    ) -> Result<serde_json::Value, (ErrorCode, String)>
    where
        P: serde::de::DeserializeOwned,
        R: serde::Serialize,
    {
        let params: P = serde_json::from_value(request.params)
            .map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))?;
        serde_json::to_value(answer(self, params))
            .map_err(|e| (ErrorCode::InternalError, e.to_string()))
    }

    /// The analysis, document and word under a position.
    fn word(
        &self,
        at: &lsp_types::TextDocumentPositionParams,
    ) -> Option<(&Analysis, &Document, usize, String)> {
        let uri = &at.text_document.uri;
        let doc = self.docs.get(uri)?;
        let analysis = self.analyses.get(uri)?;
        let offset = doc.offset(at.position, self.encoding);
        let (start, word) = doc.word_at(offset)?;
        Some((analysis, doc, start, word.to_owned()))
    }

    fn hover(&self, p: lsp_types::HoverParams) -> Option<Hover> {
        let (analysis, doc, start, word) = self.word(&p.text_document_position_params)?;
        let found = analysis.lookup(&word);
        let body = if found.is_empty() {
            keyword_hover(&word)?
        } else {
            found
                .iter()
                .map(|s| s.hover.as_str())
                .collect::<Vec<_>>()
                .join("\n\n---\n\n")
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: body,
            }),
            range: Some(doc.range(start, start + word.len(), self.encoding)),
        })
    }

    fn definition(&self, p: lsp_types::GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
        let (analysis, _, _, word) = self.word(&p.text_document_position_params)?;
        let locations: Vec<Location> = analysis
            .lookup(&word)
            .into_iter()
            .filter_map(|s| self.locate(analysis, s.file, s.start, s.end))
            .collect();
        (!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations))
    }

    fn completion(&self, p: lsp_types::CompletionParams) -> Option<Vec<CompletionItem>> {
        let uri = &p.text_document_position.text_document.uri;
        let mut items: BTreeMap<String, CompletionItem> = keywords()
            .iter()
            .map(|k| {
                (
                    (*k).to_owned(),
                    CompletionItem {
                        label: (*k).to_owned(),
                        kind: Some(CompletionItemKind::KEYWORD),
                        detail: Some("keyword".to_owned()),
                        ..CompletionItem::default()
                    },
                )
            })
            .collect();
        if let Some(analysis) = self.analyses.get(uri) {
            for (name, symbols) in &analysis.symbols {
                let Some(first) = analysis.lookup(name).first().copied() else {
                    continue;
                };
                let kinds: Vec<&str> = symbols.iter().map(|s| s.kind).collect();
                items.insert(
                    name.clone(),
                    CompletionItem {
                        label: name.clone(),
                        kind: Some(completion_kind(first.kind)),
                        detail: Some(kinds.join(", ")),
                        documentation: Some(lsp_types::Documentation::MarkupContent(
                            MarkupContent {
                                kind: MarkupKind::Markdown,
                                value: first.hover.clone(),
                            },
                        )),
                        ..CompletionItem::default()
                    },
                );
            }
        }
        Some(items.into_values().collect())
    }

    fn formatting(&self, p: lsp_types::DocumentFormattingParams) -> Option<Vec<TextEdit>> {
        let doc = self.docs.get(&p.text_document.uri)?;
        let mut diagnostics = stpc_compiler::Diagnostics::new();
        let formatted = stpc_compiler::format(FileId(0), doc.text(), &mut diagnostics)?;
        if formatted == doc.text() {
            return Some(Vec::new());
        }
        Some(vec![TextEdit {
            range: doc.range(0, doc.text().len(), self.encoding),
            new_text: formatted,
        }])
    }

    fn code_actions(&self, p: lsp_types::CodeActionParams) -> Option<Vec<CodeActionOrCommand>> {
        let uri = &p.text_document.uri;
        let doc = self.docs.get(uri)?;
        let analysis = self.analyses.get(uri)?;
        let want_start = doc.offset(p.range.start, self.encoding);
        let want_end = doc.offset(p.range.end, self.encoding);
        let mut actions = Vec::new();
        for d in &analysis.diagnostics {
            if d.fixes.is_empty() || d.fixes.iter().any(|f| f.span.file != analysis.root) {
                continue;
            }
            let touches = d.labels.iter().chain(std::iter::empty()).any(|l| {
                let r = l.span.range();
                l.span.file == analysis.root && r.start <= want_end && want_start <= r.end
            }) || d.fixes.iter().any(|f| {
                let r = f.span.range();
                r.start <= want_end && want_start <= r.end
            });
            if !touches {
                continue;
            }
            let edits: Vec<TextEdit> = d
                .fixes
                .iter()
                .map(|f| TextEdit {
                    range: doc.range(f.span.range().start, f.span.range().end, self.encoding),
                    new_text: f.replacement.clone(),
                })
                .collect();
            let title = d
                .help
                .clone()
                .unwrap_or_else(|| format!("apply the fix for {}", d.code.as_str()));
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![self.to_lsp(analysis, d)]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(d.fixes.len() == 1),
                ..CodeAction::default()
            }));
        }
        Some(actions)
    }
}

/// The name a document has in the compiler's source map: its path for
/// `file:` URIs (so relative imports resolve), the URI itself otherwise.
fn file_name(uri: &Url) -> String {
    uri.to_file_path()
        .ok()
        .and_then(|p: PathBuf| p.to_str().map(str::to_owned))
        .unwrap_or_else(|| uri.to_string())
}

fn completion_kind(kind: &str) -> CompletionItemKind {
    match kind {
        "label" | "mode" | "effect" => CompletionItemKind::ENUM_MEMBER,
        "lattice" | "enum" => CompletionItemKind::ENUM,
        "tool" | "transform" | "substitute" => CompletionItemKind::FUNCTION,
        "destination" | "observer" | "channel" | "set" => CompletionItemKind::CONSTANT,
        "field" | "parameter" | "budget" => CompletionItemKind::FIELD,
        "module" => CompletionItemKind::MODULE,
        "contract" | "labeler" | "lexicon" => CompletionItemKind::CLASS,
        _ => CompletionItemKind::TEXT,
    }
}

/// The language's keywords, read from the one grammar (`kw_* = @{ "word" ...`).
pub fn keywords() -> &'static [&'static str] {
    static KEYWORDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    KEYWORDS.get_or_init(|| {
        let grammar: &'static str = include_str!("../../../grammar/stpc.pest");
        let mut out: Vec<&'static str> = grammar
            .lines()
            .filter(|l| l.starts_with("kw_"))
            .filter_map(|l| l.split('"').nth(1))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    })
}

fn keyword_hover(word: &str) -> Option<String> {
    keywords()
        .contains(&word)
        .then(|| format!("**keyword** `{word}`\n\nSee the syntax reference in the book."))
}
