//! The chat in the text interface: `say`, `pose`, `page` and `+TT/Silence` carried out in the
//! chat's rooms (a player in a game speaks in the game's), and the chat's frames as lines.

use std::sync::Arc;

use serde_json::Value;

use super::command::Command;
use crate::accounts::User;
use crate::error::{Code, Failure};
use crate::frames::{ChatLine, Frame, Score};
use crate::hub::Hub;
use crate::quiz::Question;

/// Carries out a chat command of `user` on connection `conn`, in the game `game` when they are
/// in one (their seat, `None` when watching): the lines for them alone.
pub(super) async fn run(
    hub: &Arc<Hub>,
    conn: u64,
    user: &User,
    game: Option<(i64, Option<usize>)>,
    command: Command,
) -> Result<Vec<String>, Failure> {
    let room = game.map(|(id, _)| id);
    let replies = match command {
        Command::Say(text) => crate::chat::post(hub, conn, user, room, None, &text, false).await?,
        Command::Pose(text) => crate::chat::post(hub, conn, user, room, None, &text, true).await?,
        Command::Page { to, text } => crate::chat::post(hub, conn, user, None, Some(&to), &text, false).await?,
        Command::Silence(on) => {
            let Some((id, Some(_))) = game else {
                return Err(Failure::new(
                    Code::NotSeated,
                    "you are playing no game: +TT/Silence silences the spectators of yours",
                ));
            };
            // The whole game, this player included, hears it as an event.
            crate::chat::silence(hub, user, id, on).await?;
            Vec::new()
        }
        _ => unreachable!("only chat commands come here"),
    };
    Ok(replies.iter().flat_map(|v| frame_lines(v, &user.name)).collect())
}

/// A frame of the chat as lines (`me`: the name of the player reading).
pub(super) fn frame_lines(frame: &Value, me: &str) -> Vec<String> {
    serde_json::from_value::<Frame>(frame.clone())
        .ok()
        .and_then(|f| lines(&f, me))
        .unwrap_or_default()
}

/// The lines of a chat frame, or `None` when `frame` is not the chat's.
pub(super) fn lines(frame: &Frame, me: &str) -> Option<Vec<String>> {
    let room = |m: &Option<i64>| if m.is_some() { "[game] " } else { "" };
    Some(match frame {
        Frame::Chat(line) => vec![said(line, me)],
        Frame::ChatHistory { match_id, lines } if !lines.is_empty() => {
            let mut out = vec![format!(
                "The last lines said in {}:",
                if match_id.is_some() { "this game" } else { "the lobby" }
            )];
            out.extend(lines.iter().map(|l| said(l, me)));
            out
        }
        Frame::ChatHistory { .. } | Frame::ChatSent {} => Vec::new(),
        Frame::ChatSilenced { silenced, by, .. } => vec![if *silenced {
            format!("[game] {} silences the spectators.", by.name)
        } else {
            format!("[game] {} lets the spectators speak again.", by.name)
        }],
        Frame::ChatCommands { commands } => {
            let mut out = vec!["The server's own commands, typed in a chat (say !quizz):".to_string()];
            out.extend(commands.iter().map(|c| format!("  {c} — {}", command_help(c))));
            out
        }
        Frame::QuizQuestion {
            match_id,
            number,
            question,
            deadline,
        } => {
            let left = (deadline - crate::db::now_ms()).max(0) / 1000;
            vec![format!(
                "{}Quiz, question {number}: {} Answer with say within {left} s.",
                room(match_id),
                asked(question)
            )]
        }
        Frame::QuizAnswered {
            match_id,
            number,
            by,
            answer,
            scores,
        } => vec![format!(
            "{}{} answers question {number} right: {answer}. Scores: {}.",
            room(match_id),
            by.name,
            table(scores)
        )],
        Frame::QuizTimeout {
            match_id,
            number,
            answer,
        } => vec![format!(
            "{}Nobody answered question {number} in time: it was {answer}.",
            room(match_id)
        )],
        Frame::QuizScores { match_id, scores } => vec![format!("{}Quiz scores: {}.", room(match_id), table(scores))],
        _ => return None,
    })
}

fn said(line: &ChatLine, me: &str) -> String {
    let from = &line.from.name;
    match &line.to {
        Some(to) if from == me => format!("You page {to}: {}", line.text),
        Some(_) => format!("{from} pages: {}", line.text),
        None => {
            let room = if line.match_id.is_some() { "[game] " } else { "" };
            if line.pose {
                format!("{room}{from} {}", line.text)
            } else {
                format!("{room}{from} says, \"{}\"", line.text)
            }
        }
    }
}

fn command_help(command: &str) -> &'static str {
    match command {
        "!aide" => "this list",
        "!quizz" => "a question on the cards or the rules; the first right answer said wins a point",
        "!scores" => "the quiz's scores in this room",
        _ => "",
    }
}

fn asked(q: &Question) -> String {
    match q {
        Question::Rank { card, side } => format!("What is {card}'s {side} rank (1 to 9, or A)?"),
        Question::Level { card } => format!("What is {card}'s level?"),
        Question::Element { card } => format!("What is {card}'s element (or none)?"),
        Question::Rule { rule } => match rule.as_str() {
            "same_sides" => "Under Same, at least how many sides must equal their neighbours' to capture?",
            "board_cells" => "How many cells has the board?",
            "hand_cards" => "How many cards has a hand?",
            "elemental_bonus" => "Under Elemental, by how much does a card on a cell of its element gain on each rank?",
            "wall_rank" => "Under Same Wall, what rank does the edge of the board show (1 to 9, or A)?",
            _ => "(a question this interface cannot word)",
        }
        .to_string(),
    }
}

fn table(scores: &[Score]) -> String {
    if scores.is_empty() {
        return "nobody has a point yet".into();
    }
    scores
        .iter()
        .map(|s| format!("{} {}", s.name, s.points))
        .collect::<Vec<_>>()
        .join(", ")
}
