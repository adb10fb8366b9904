//! Every command of the docs that shows what it prints: a line of a ```sh block that ends in
//! `# FIGURE` (a number, as the command prints it) is run by bash, with the `arbiter` of this
//! build first on the PATH, and must print exactly that.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Markdown files a user reads.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [
        "README.md",
        "ffi/README.md",
        "wasm/README.md",
        "python/README.md",
        "server/README.md",
    ]
    .iter()
    .map(|f| root.join(f))
    .collect();
    let docs = std::fs::read_dir(root.join("docs")).expect("docs/ is there");
    files.extend(
        docs.map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "md")),
    );
    files.sort();
    files
}

/// The commands with the figure each shows: lines continued by a trailing `|` or `\` are one
/// command.
fn figures(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut in_sh = false;
    let mut command = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_sh = !in_sh && line.trim_start() == "```sh";
            command.clear();
            continue;
        }
        if !in_sh || line.trim_start().starts_with('#') {
            continue;
        }
        let (code, comment) = line.split_once("  # ").unwrap_or((line, ""));
        command.push_str(code.trim_end());
        command.push('\n');
        let figure = comment.trim();
        if !figure.is_empty() && figure.chars().all(|c| c.is_ascii_digit() || ".,%-+e".contains(c)) {
            found.push((command.clone(), figure.to_string()));
        }
        if !(code.trim_end().ends_with('|') || code.trim_end().ends_with('\\')) {
            command.clear();
        }
    }
    found
}

#[test]
fn every_figure_a_document_shows_is_what_its_command_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_arbiter")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut checked = 0;
    for file in documents(root) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (command, figure) in figures(&text) {
            let out = Command::new("bash")
                .args(["-euo", "pipefail", "-c", &command])
                .env("PATH", &path)
                .current_dir(root)
                .output()
                .unwrap();
            let printed = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && printed.trim() == figure,
                "{}: `{}` printed {printed:?} (want {figure}); stderr: {}",
                file.display(),
                command.trim(),
                String::from_utf8_lossy(&out.stderr)
            );
            checked += 1;
        }
    }
    // The perft loop of docs/cli.md at least: a test that finds nothing checks nothing.
    assert!(checked >= 1, "no documented figure found");
}

#[test]
fn a_figure_is_found_after_its_continued_command() {
    let md = "```sh\n# a comment  # 1\nfoo |\n    bar  # 42\nbaz  # not a figure\n```\n";
    assert_eq!(figures(md), [("foo |\n    bar\n".to_string(), "42".to_string())]);
}
