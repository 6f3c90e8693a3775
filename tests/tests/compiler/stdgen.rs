//! The generated std lexicons are what the generator makes of the data.

#![allow(clippy::panic, reason = "test code: a stale file is a failed test")]

use stpc_tests::lowering::workspace;

#[test]
fn lexicons_stpc_is_what_the_generator_makes_of_the_data() {
    let root = workspace();
    let files = stpc_stdgen::read_data(&root).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        files.len() > 20,
        "the data files are found ({} read)",
        files.len()
    );
    let fresh = stpc_stdgen::generate(&files).unwrap_or_else(|e| panic!("bad data: {e}"));
    let committed = std::fs::read_to_string(root.join(stpc_stdgen::OUTPUT))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", stpc_stdgen::OUTPUT));
    assert!(
        fresh == committed,
        "{} is stale: run `{}` from the repository root",
        stpc_stdgen::OUTPUT,
        stpc_stdgen::COMMAND
    );
}

/// What `replace lexicon` puts in place of a phrase must itself label at or
/// below the transform's declared output: a replacement that the std
/// labeler reads as sensitive ("a medical condition") turns every rewrite
/// that uses it into a refusal at run time (the output still labels at the
/// cut). Checked for every replacement every std transform can write: the
/// entries' own, the step's `with`, and the default.
#[test]
fn every_std_replacement_labels_at_or_below_its_transforms_output() {
    use stpc_runtime::table::Step;
    let text = "contract probe extends std::policies::rewrite {}\n";
    let compiled = stpc_tests::lowering::compile_text(
        "probe.stpc",
        text,
        &stpc_compiler::CompileOptions::default(),
    );
    assert!(compiled.codes().is_empty(), "{}", compiled.rendered());
    let table = compiled.table();
    let labeler = stpc_runtime::Labeler::new(table).unwrap_or_else(|e| panic!("{e}"));
    let lattice = labeler.args_lattice();
    let mut checked = 0usize;
    let mut wrong = Vec::new();
    for transform in &table.transforms {
        for step in &transform.steps {
            let Step::ReplaceLexicon { lexicon, with } = step else {
                continue;
            };
            let lexicon = &table.lexicons[*lexicon as usize];
            let mut replacements: Vec<&str> = lexicon
                .entries
                .iter()
                .filter_map(|e| e.replacement.as_deref())
                .collect();
            replacements.push(
                with.as_deref()
                    .unwrap_or(stpc_runtime::transform::DEFAULT_REPLACEMENT),
            );
            replacements.sort_unstable();
            replacements.dedup();
            for r in replacements {
                checked += 1;
                let args = serde_json::json!({ "q": r });
                let got = labeler.label("web_search", &args, None, "api.duckduckgo.com");
                let label = got.args.unwrap_or_else(|| panic!("`{r}` is unlabelled"));
                if !lattice.leq(label, transform.output_label) {
                    wrong.push(format!(
                        "{} (lexicon {}): `{r}` labels {}",
                        transform.name,
                        lexicon.name,
                        lattice.label_name(label).unwrap_or("?")
                    ));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "the std transforms' replacements are found ({checked})"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
