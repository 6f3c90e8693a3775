//! `stpc fmt` as a process: exit codes, `--check`, stdin, directories,
//! syntax errors and atomic, change-only writes.

#![expect(
    clippy::unwrap_used,
    reason = "helpers write inputs and drive the process; a failure fails the test"
)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const UGLY: &str = "contract c {   tools a;\n  // keep me\n forbid args >= s at p; }\n";
const PRETTY: &str = "contract c {\n    tools a;\n    // keep me\n    forbid args >= s at p;\n}\n";
const BROKEN: &str = "contract c {\n    tools a\n    forbid args >= s at p;\n}\n";

fn stpc(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stpc"))
        .args(args)
        .current_dir(dir)
        .env_remove("STPC_FORMAT")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn stdin_is_formatted_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let out = stpc(dir.path(), &["fmt", "-"], Some(UGLY));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), PRETTY);
    // An already formatted input comes back unchanged.
    let out = stpc(dir.path(), &["fmt", "-"], Some(PRETTY));
    assert_eq!(text(&out.stdout), PRETTY);
}

#[test]
fn check_on_stdin_prints_nothing_but_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let out = stpc(dir.path(), &["fmt", "--check", "-"], Some(UGLY));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "<stdin>\n");
    let out = stpc(dir.path(), &["fmt", "--check", "-"], Some(PRETTY));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn check_lists_unformatted_files_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("p/.hidden")).unwrap();
    std::fs::write(dir.path().join("p/ugly.stpc"), UGLY).unwrap();
    std::fs::write(dir.path().join("p/pretty.stpc"), PRETTY).unwrap();
    std::fs::write(dir.path().join("p/.hidden/ugly.stpc"), UGLY).unwrap();
    std::fs::write(dir.path().join("p/notes.txt"), UGLY).unwrap();
    let out = stpc(dir.path(), &["fmt", "--check", "p"], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "p/ugly.stpc\n");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("p/ugly.stpc")).unwrap(),
        UGLY
    );

    let out = stpc(dir.path(), &["fmt", "--check", "p/pretty.stpc"], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn check_in_machine_formats() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("u.stpc"), UGLY).unwrap();
    let out = stpc(
        dir.path(),
        &["fmt", "--check", "--format", "json", "u.stpc"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "{\"unformatted\":\"u.stpc\"}\n");
    let out = stpc(
        dir.path(),
        &["fmt", "--check", "--format", "github", "u.stpc"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("::error file=u.stpc,title=stpc fmt::"));
    // SARIF keeps stdout one document; the list goes to stderr.
    let out = stpc(
        dir.path(),
        &["fmt", "--check", "--format", "sarif", "u.stpc"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(text(&out.stderr), "u.stpc\n");
}

#[test]
fn files_are_rewritten_in_place_and_only_when_they_change() {
    let dir = tempfile::tempdir().unwrap();
    let ugly = dir.path().join("ugly.stpc");
    let pretty = dir.path().join("pretty.stpc");
    std::fs::write(&ugly, UGLY).unwrap();
    std::fs::write(&pretty, PRETTY).unwrap();
    let before = std::fs::metadata(&pretty).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let out = stpc(dir.path(), &["fmt", "."], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(std::fs::read_to_string(&ugly).unwrap(), PRETTY);
    assert_eq!(
        std::fs::metadata(&pretty).unwrap().modified().unwrap(),
        before
    );
    // No temporary files are left behind.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    // Formatting again changes nothing.
    let out = stpc(dir.path(), &["fmt", "--check", "."], None);
    assert_eq!(out.status.code(), Some(0));
}

#[cfg(unix)]
#[test]
fn a_symlink_is_followed_and_permissions_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.stpc");
    std::fs::write(&real, UGLY).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink("real.stpc", dir.path().join("link.stpc")).unwrap();
    let out = stpc(dir.path(), &["fmt", "link.stpc"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::symlink_metadata(dir.path().join("link.stpc"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), PRETTY);
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn syntax_errors_are_reported_and_the_file_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.stpc");
    let ugly = dir.path().join("ugly.stpc");
    std::fs::write(&broken, BROKEN).unwrap();
    std::fs::write(&ugly, UGLY).unwrap();
    let out = stpc(dir.path(), &["fmt", "broken.stpc", "ugly.stpc"], None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error[E0102]"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), BROKEN);
    // Other files are still formatted.
    assert_eq!(std::fs::read_to_string(&ugly).unwrap(), PRETTY);

    let out = stpc(dir.path(), &["fmt", "-"], Some(BROKEN));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn missing_paths_are_io_failures() {
    let dir = tempfile::tempdir().unwrap();
    let out = stpc(dir.path(), &["fmt", "nope.stpc"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read `nope.stpc`"));
    let out = stpc(dir.path(), &["fmt"], None);
    assert_eq!(out.status.code(), Some(2), "a path is required");
}

#[test]
fn completions_are_generated_for_each_shell() {
    let dir = tempfile::tempdir().unwrap();
    for (shell, marker) in [
        ("bash", "_stpc()"),
        ("zsh", "#compdef stpc"),
        ("fish", "complete -c stpc"),
    ] {
        let out = stpc(dir.path(), &["completions", shell], None);
        assert_eq!(out.status.code(), Some(0));
        let script = text(&out.stdout);
        assert!(script.contains(marker), "{shell}: {script}");
        assert!(
            script.contains("fmt") && script.contains("check"),
            "{shell}"
        );
    }
    let out = stpc(dir.path(), &["completions", "tcsh"], None);
    assert_eq!(out.status.code(), Some(2));
}
