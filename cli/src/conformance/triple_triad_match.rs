//! Triple Triad `match` cases: a whole match, its rounds, its winner and the trade.

use super::{check_field, input, Verdict};
use arbiter_core::tripletriad::{
    Card, ElementLayout, Match, MatchConfig, Owned, Player, Rules, SuddenDeath, TradeRule, Transfer, Wall,
};
use arbiter_core::Game;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// Reads an input field into a type; any failure is a refusal (what `"error": true` expects).
fn read<T: DeserializeOwned>(case: &Value, key: &str) -> Result<T, String> {
    serde_json::from_value(input(case, key)?.clone()).map_err(|e| format!("{key}: {e}"))
}

fn read_or_default<T: DeserializeOwned + Default>(case: &Value, key: &str) -> Result<T, String> {
    match case.get(key) {
        None | Some(Value::Null) => Ok(T::default()),
        Some(_) => read(case, key),
    }
}

fn config(case: &Value) -> Result<MatchConfig, String> {
    Ok(MatchConfig {
        rules: read_or_default::<Rules>(case, "rules")?,
        elements: ElementLayout::Given(read_or_default(case, "elements")?),
        walls: read_or_default::<Vec<Wall>>(case, "walls")?,
        sudden_death: read::<SuddenDeath>(case, "sudden_death")?,
        round_limit: read::<Option<u32>>(case, "round_limit")?,
        trade: read::<TradeRule>(case, "trade")?,
        first: Some(read::<Player>(case, "first")?),
        owned: read_or_default::<Option<Owned>>(case, "owned")?,
        ..MatchConfig::default()
    })
}

/// Plays the case's match: the match and its transfers, or why it was refused.
fn play(case: &Value) -> Result<(Match, Vec<Transfer>), String> {
    let blue: Vec<Card> = read(case, "blue")?;
    let red: Vec<Card> = read(case, "red")?;
    let mut m = Match::new(config(case)?, blue, red, 0).map_err(|e| e.to_string())?;
    let rounds = input(case, "rounds")?.as_array().ok_or("rounds is not a list")?;
    for (n, round) in rounds.iter().enumerate() {
        if m.is_over() {
            return Err(format!("round {} after the end of the match", n + 1));
        }
        let moves = round.as_array().ok_or("a round is not a list")?;
        for mv in moves {
            let name = mv
                .get("card")
                .and_then(Value::as_str)
                .ok_or("a move without a card name")?;
            let cell = mv.get("cell").and_then(Value::as_u64).ok_or("a move without a cell")?;
            let game = m.game();
            let mover = game.to_move().ok_or("a move after the end of the round")?;
            let card = game
                .hand_index(mover, name)
                .ok_or_else(|| format!("{mover} holds no {name}"))?;
            let cell = u8::try_from(cell).map_err(|_| format!("no cell {cell}"))?;
            m.play(arbiter_core::tripletriad::Move { card, cell })
                .map_err(|e| e.to_string())?;
        }
        if !m.is_over() && m.round_number() as usize != n + 2 {
            return Err(format!("round {} ends before the board is full", n + 1));
        }
    }
    let result = m.result().ok_or("the rounds end before the match does")?;
    let picks: Vec<String> = read_or_default(case, "picks")?;
    // Picks name cards the loser brought; a match without a winner has no loser to pick from.
    let loser = result.winner.map(Player::other);
    let picks = picks
        .iter()
        .map(|name| {
            loser
                .and_then(|l| m.brought(l).iter().position(|c| &c.name == name))
                .map(|i| i as u8)
                .ok_or_else(|| format!("pick {name:?} is not a card the loser brought"))
        })
        .collect::<Result<Vec<u8>, String>>()?;
    let transfers = m.settle_trade(&picks).map_err(|e| e.to_string())?;
    Ok((m, transfers))
}

fn outcome(winner: Option<Player>) -> Value {
    json!(winner.map_or("draw", Player::name))
}

pub(super) fn run(case: &Value, expect: &Value) -> Verdict {
    let want_error = expect.get("error").and_then(Value::as_bool).unwrap_or(false);
    let (m, transfers) = match (play(case), want_error) {
        (Err(_), true) => return Ok(()),
        (Ok(_), true) => return Err("expected an error, but the match was played and settled".into()),
        (Err(why), false) => return Err(why),
        (Ok(played), false) => played,
    };
    let rounds: Vec<Value> = m
        .rounds()
        .iter()
        .map(|r| json!({"score": {"blue": r.scores[0], "red": r.scores[1]}, "winner": outcome(r.winner)}))
        .collect();
    check_field(expect, "rounds", &Value::Array(rounds))?;
    check_field(expect, "winner", &outcome(m.result().and_then(|r| r.winner)))?;
    if let Some(want) = expect.get("transfers") {
        let key = |v: &Value| v.to_string();
        let mut got: Vec<Value> = transfers
            .iter()
            .map(|t| json!({"card": t.card.name, "from": t.from.name(), "to": t.to.name()}))
            .collect();
        let mut want: Vec<Value> = want
            .as_array()
            .ok_or("malformed case: transfers is not a list")?
            .clone();
        got.sort_by_key(key);
        want.sort_by_key(key);
        if got != want {
            return Err(format!("transfers: expected {want:?}, got {got:?}"));
        }
    }
    Ok(())
}
