//! Lint levels for `stpc check` and `stpc compile`: the project file
//! `stpc.toml` and the `--allow`/`--warn`/`--deny` flags.
//!
//! The project file is found upward from each contract's directory, like
//! `.regal/config.yaml` or `clippy.toml` (the first `stpc.toml` wins; one
//! named with `--config` replaces the search):
//!
//! ```toml
//! [lints]
//! warnings = "warn"        # every warning; a code's own setting wins
//! W0001 = "allow"
//! W0602 = "deny"
//!
//! [[overrides]]            # later entries win over earlier ones
//! paths = ["legacy/**", "examples/*.stpc"]   # relative to this file
//! lints = { W0002 = "allow" }
//! ```
//!
//! Layers, later winning: the file's `[lints]`, its matching `overrides`
//! in order, then the command line (`--warn`, then `--allow`, then
//! `--deny`); how a code's own settings and `warnings` combine is
//! [`stpc_compiler::lint::Levels`]'s. Inline suppressions
//! (`// stpc: allow(W0002) -- reason`) are the compiler's
//! ([`stpc_compiler::lint`]) and win over every level.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use globset::{GlobSet, GlobSetBuilder};
use stpc_compiler::lint::{Level, Levels, Target};
use stpc_compiler::{Diagnostic, FileId, SourceMap};

/// The project file's name.
pub const FILE_NAME: &str = "stpc.toml";

/// The lint flags shared by `check` and `compile`.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct LintArgs {
    /// Drop a warning: a code such as `W0002`, or `warnings` for all.
    #[arg(long, value_name = "LINT")]
    pub allow: Vec<String>,
    /// Report a warning as a warning (overrides `stpc.toml`).
    #[arg(long, value_name = "LINT")]
    pub warn: Vec<String>,
    /// Report a warning as an error: a code, or `warnings` for all.
    #[arg(long, value_name = "LINT")]
    pub deny: Vec<String>,
    /// The lint configuration to use instead of the `stpc.toml` found
    /// upward from each contract.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// A parsed project file.
#[derive(Debug)]
struct Config {
    /// The directory override paths are relative to.
    dir: PathBuf,
    global: Vec<(Target, Level)>,
    overrides: Vec<(GlobSet, Vec<(Target, Level)>)>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    lints: BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
    #[serde(default)]
    overrides: Vec<RawOverride>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOverride {
    paths: Vec<toml::Spanned<String>>,
    #[serde(default)]
    lints: BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
}

/// 1-based line and column of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

impl Config {
    fn load(path: &Path) -> Result<Config, String> {
        let shown = path.display();
        // Override paths are relative to the file's real directory, so a
        // relative `--config stpc.toml` (whose parent is "") still matches.
        let absolute =
            std::fs::canonicalize(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
        let at = |offset: usize| {
            let (l, c) = line_col(&text, offset);
            format!("{shown}:{l}:{c}")
        };
        let raw: RawConfig = toml::from_str(&text).map_err(|e| {
            let place = e.span().map_or_else(|| shown.to_string(), |s| at(s.start));
            format!("{place}: invalid lint configuration: {}", e.message())
        })?;
        let settings = |table: &BTreeMap<toml::Spanned<String>, toml::Spanned<String>>| {
            table
                .iter()
                .map(|(k, v)| {
                    let target = Target::parse(k.get_ref())
                        .map_err(|e| format!("{}: {e}", at(k.span().start)))?;
                    let level = Level::parse(v.get_ref()).ok_or_else(|| {
                        format!(
                            "{}: `{}` is not a level: use `allow`, `warn` or `deny`",
                            at(v.span().start),
                            v.get_ref()
                        )
                    })?;
                    Ok((target, level))
                })
                .collect::<Result<Vec<_>, String>>()
        };
        let global = settings(&raw.lints)?;
        let mut overrides = Vec::new();
        for o in &raw.overrides {
            let mut set = GlobSetBuilder::new();
            for p in &o.paths {
                let glob = globset::GlobBuilder::new(p.get_ref())
                    .literal_separator(true)
                    .build()
                    .map_err(|e| format!("{}: invalid path pattern: {e}", at(p.span().start)))?;
                set.add(glob);
            }
            let set = set
                .build()
                .map_err(|e| format!("{shown}: invalid path patterns: {e}"))?;
            overrides.push((set, settings(&o.lints)?));
        }
        let dir = absolute
            .parent()
            .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
        Ok(Config {
            dir,
            global,
            overrides,
        })
    }

    /// Its levels for a contract at `file` (canonical).
    fn levels(&self, file: &Path, into: &mut Levels) {
        into.layer(self.global.iter().copied());
        let rel = file.strip_prefix(&self.dir).unwrap_or(file);
        for (set, settings) in &self.overrides {
            if set.is_match(rel) {
                into.layer(settings.iter().copied());
            }
        }
    }
}

/// The levels of a run: the command line's, and the project files found.
pub struct Lints {
    cli: Vec<Vec<(Target, Level)>>,
    explicit: Option<Config>,
    /// Project files by directory searched (`None`: none found upward).
    found: HashMap<PathBuf, Option<std::rc::Rc<Config>>>,
}

impl Lints {
    /// Parses the flags and the `--config` file.
    ///
    /// # Errors
    ///
    /// A message naming the bad flag value or the file's bad line.
    pub fn new(args: &LintArgs) -> Result<Lints, String> {
        let parse = |values: &[String], level: Level, flag: &str| {
            values
                .iter()
                .map(|v| {
                    Target::parse(v)
                        .map(|t| (t, level))
                        .map_err(|e| format!("--{flag} {v}: {e}"))
                })
                .collect::<Result<Vec<_>, String>>()
        };
        let cli = vec![
            parse(&args.warn, Level::Warn, "warn")?,
            parse(&args.allow, Level::Allow, "allow")?,
            parse(&args.deny, Level::Deny, "deny")?,
        ];
        let explicit = args.config.as_deref().map(Config::load).transpose()?;
        Ok(Lints {
            cli,
            explicit,
            found: HashMap::new(),
        })
    }

    /// The project file that governs `dir`, searching upward.
    fn config_for(&mut self, dir: &Path) -> Result<Option<std::rc::Rc<Config>>, String> {
        if let Some(found) = self.found.get(dir) {
            return Ok(found.clone());
        }
        let candidate = dir.join(FILE_NAME);
        let found = if candidate.is_file() {
            Some(std::rc::Rc::new(Config::load(&candidate)?))
        } else {
            match dir.parent() {
                Some(parent) => self.config_for(parent)?,
                None => None,
            }
        };
        self.found.insert(dir.to_path_buf(), found.clone());
        Ok(found)
    }

    /// The levels for a contract read from `name` (as given on the command
    /// line; `<stdin>` and anything unreadable use the working directory).
    ///
    /// # Errors
    ///
    /// A project file that cannot be read or parsed.
    pub fn levels(&mut self, name: &str) -> Result<Levels, String> {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let file = std::fs::canonicalize(name).unwrap_or_else(|_| cwd.join(name));
        let dir = file.parent().map_or_else(|| cwd.clone(), Path::to_path_buf);
        let mut levels = Levels::new();
        if let Some(config) = &self.explicit {
            config.levels(&file, &mut levels);
        } else if let Some(config) = self.config_for(&dir)? {
            config.levels(&file, &mut levels);
        }
        for layer in &self.cli {
            levels.layer(layer.iter().copied());
        }
        Ok(levels)
    }

    /// Applies levels and inline suppressions to `diagnostics` of the
    /// files `from` onward in `map` (a root and the files its check read):
    /// each user file among them (not std) has its own project file's
    /// levels and its suppressions. Unused suppressions are reported when
    /// `every_stage_ran` (see [`stpc_compiler::lint::apply`]).
    ///
    /// # Errors
    ///
    /// A project file that cannot be read or parsed.
    pub fn apply(
        &mut self,
        map: &SourceMap,
        from: FileId,
        diagnostics: Vec<Diagnostic>,
        every_stage_ran: bool,
    ) -> Result<Vec<Diagnostic>, String> {
        let files: Vec<FileId> = map
            .iter()
            .filter(|(id, f)| id.0 >= from.0 && !f.name().starts_with("<std>/"))
            .map(|(id, _)| id)
            .collect();
        let mut per_file = HashMap::new();
        for file in &files {
            let name = map.get(*file).map_or("<stdin>", |f| f.name());
            per_file.insert(*file, self.levels(name)?);
        }
        let fallback = self.levels("<stdin>")?;
        let levels = |f: FileId| {
            per_file
                .get(&f)
                .cloned()
                .unwrap_or_else(|| fallback.clone())
        };
        Ok(stpc_compiler::lint::apply(
            map,
            &files,
            &levels,
            diagnostics,
            every_stage_ran,
        ))
    }
}
