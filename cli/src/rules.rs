//! `arbiter rules GAME`: the rules written for players, laid out for the terminal. (What the
//! engine implements, to the letter, is the specification in the repository's `rules/*.md`.)

use crate::term::fill_hanging;

/// The rules of each game, in plain text: paragraphs of lines, items that start with `- `
/// (their further lines indented by two), examples indented by four.
pub fn source(game: &str) -> &'static str {
    match game {
        "triple-triad" => include_str!("rules/triple-triad.txt"),
        "trax" => include_str!("rules/trax.txt"),
        _ => include_str!("rules/nantong.txt"),
    }
}

/// What a line of the source is part of.
#[derive(PartialEq, Eq)]
enum Block {
    Paragraph,
    Item,
}

/// `source` laid out for `width` columns: each paragraph and item filled to the width (an item's
/// lines hang under its first word), examples kept as they are (they are narrow enough for any
/// terminal of 40 columns).
pub fn flow(source: &str, width: usize) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut open: Option<(Block, String)> = None;
    let close = |open: &mut Option<(Block, String)>, out: &mut Vec<String>| {
        if let Some((kind, text)) = open.take() {
            out.push(fill_hanging(&text, width, if kind == Block::Item { 2 } else { 0 }));
        }
    };
    for line in source.lines() {
        let continues = match &open {
            Some((Block::Item, _)) => line.starts_with("  ") && !line.starts_with("    "),
            Some((Block::Paragraph, _)) => !line.is_empty() && !line.starts_with(' ') && !line.starts_with("- "),
            None => false,
        };
        if continues {
            if let Some((_, text)) = &mut open {
                text.push(' ');
                text.push_str(line.trim_start());
            }
            continue;
        }
        close(&mut open, &mut out);
        if line.starts_with("- ") {
            open = Some((Block::Item, line.to_string()));
        } else if line.is_empty() || line.starts_with(' ') {
            out.push(line.to_string());
        } else {
            open = Some((Block::Paragraph, line.to_string()));
        }
    }
    close(&mut open, &mut out);
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_and_items_fill_the_width_and_examples_stay() {
        let text = "A B C D\nE F\n- one two\n  three four\nG H\n    x  y\n";
        assert_eq!(
            flow(text, 7),
            "A B C D\nE F\n- one\n  two\n  three\n  four\nG H\n    x  y\n"
        );
        assert_eq!(flow(text, 80), "A B C D E F\n- one two three four\nG H\n    x  y\n");
    }
}
