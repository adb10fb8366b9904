//! The bad-input files (`conformance/bad-input/*.jsonl`) through the core's own readers: each
//! case's kind and message are what Rust says, word for word. The C library
//! (`ffi/c/tests/bad_input.c`) and the npm package (`wasm/js-tests/bad-input-files.test.mjs`) run the
//! same files and must say exactly the same.
#![cfg(feature = "serde")]

use arbiter_core::nantong::{FinishedDeal, Nantong};
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::{Match, TripleTriad};
use arbiter_core::{shorten, Error, ErrorKind, MESSAGE_LIMIT};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A loader's refusal of JSON text: the bindings report serde's words as a `PARSE_ERROR`.
fn load<T: DeserializeOwned>(text: &str) -> Result<(), Error> {
    serde_json::from_str::<T>(text)
        .map(drop)
        .map_err(|e| Error::new(ErrorKind::Parse, e.to_string()))
}

/// What a binding says: the message cut to the length that C keeps and JavaScript throws.
fn said(e: &Error) -> String {
    format!("{} {}", e.kind(), shorten(e.message(), MESSAGE_LIMIT))
}

fn refusal(case: &Value) -> Result<(), Error> {
    let input = case["input"].as_str().expect("input is text");
    match case["load"].as_str().expect("load names a reader") {
        "triple-triad" => load::<TripleTriad>(input),
        "triple-triad-match" => load::<Match>(input),
        "trax" => load::<Trax>(input),
        "trax-record" => {
            let variant: Variant = case["variant"].as_str().expect("a record names its variant").parse()?;
            Trax::from_record(variant, input).map(drop)
        }
        "nantong" => load::<Nantong>(input),
        "nantong-finished-deal" => load::<FinishedDeal>(input),
        other => panic!("unknown reader {other}"),
    }
}

#[test]
fn every_bad_input_is_refused_in_the_words_of_its_file() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/bad-input");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|f| f.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "jsonl"));
    files.sort();
    let (mut cases, mut wrong) = (0, Vec::new());
    for file in &files {
        for line in std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
        {
            let case: Value = serde_json::from_str(line).unwrap();
            cases += 1;
            let got = match refusal(&case) {
                Ok(()) => "accepted".to_string(),
                Err(e) => said(&e),
            };
            let want = format!(
                "{} {}",
                case["code"].as_str().unwrap(),
                case["message"].as_str().unwrap()
            );
            if got != want {
                wrong.push(format!(
                    "{}: {}\n  want {want}\n  got  {got}",
                    file.display(),
                    case["name"]
                ));
            }
        }
    }
    assert!(files.len() >= 3 && cases >= 20, "{} files, {cases} cases", files.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
