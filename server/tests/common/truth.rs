//! The true state of a match, replayed by the test from the seed the server stored and the
//! moves it told: what every frame is checked against.

use arbiter_core::nantong::Nantong;
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::{Hands, Match, Options, Player, TripleTriad};
use arbiter_core::{Engine, Game, Rng};
use serde_json::{json, Value};

// A handful live at once in a test: their size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum Truth {
    Tt(Match),
    Trax(Trax),
    Nt { deal: Box<Nantong>, deals: u32, done: u32 },
}

impl Truth {
    /// A Triple Triad match under `preset_name` with `round_limit`, with the `hands` the players
    /// brought (the match's record keeps them: [`super::Database::hands`]).
    pub fn tt(preset_name: &str, round_limit: Option<u32>, time: u32, seed: u64, hands: Hands) -> Truth {
        Truth::tt_options(
            &json!({"preset": preset_name, "round_limit": round_limit}),
            time,
            seed,
            hands,
        )
    }

    /// A Triple Triad match under a challenge's core `options`, as [`Truth::tt`].
    pub fn tt_options(options: &Value, time: u32, seed: u64, hands: Hands) -> Truth {
        let options: Options = serde_json::from_value(options.clone()).unwrap();
        let mut config = options.config().unwrap();
        config.time = Some(time);
        Truth::Tt(Match::new(config, hands.blue, hands.red, seed).unwrap())
    }

    pub fn trax(variant: Variant) -> Truth {
        Truth::Trax(Trax::new(variant))
    }

    pub fn nantong(seed: u64, deals: u32) -> Truth {
        Truth::Nt {
            deal: Box::new(Nantong::new(seed)),
            deals,
            done: 0,
        }
    }

    pub fn to_move(&self) -> Option<usize> {
        match self {
            Truth::Tt(m) if m.is_over() => None,
            Truth::Tt(m) => m.game().to_move().map(TripleTriad::player_index),
            Truth::Trax(g) => g.to_move().map(Trax::player_index),
            Truth::Nt { deal, deals, done } if done < deals => deal.to_move().map(Nantong::player_index),
            Truth::Nt { .. } => None,
        }
    }

    /// Every legal move, in notation.
    pub fn legal(&self) -> Vec<String> {
        match self {
            Truth::Tt(m) => m.game().legal_moves().iter().map(|m| m.to_string()).collect(),
            Truth::Trax(g) => g.legal_moves().iter().map(|m| m.to_string()).collect(),
            Truth::Nt { deal, .. } => deal.legal_moves().iter().map(|m| m.to_string()).collect(),
        }
    }

    /// A random legal move.
    pub fn pick(&self, rng: &mut Rng) -> String {
        let legal = self.legal();
        legal[rng.below(legal.len() as u64) as usize].clone()
    }

    pub fn play(&mut self, notation: &str) {
        match self {
            Truth::Tt(m) => {
                m.play(notation.parse().unwrap()).unwrap();
            }
            Truth::Trax(g) => g.play(notation.parse().unwrap()).unwrap(),
            Truth::Nt { deal, deals, done } => {
                deal.play(notation.parse().unwrap()).unwrap();
                if deal.is_over() {
                    *done += 1;
                    if done < deals {
                        **deal = deal.next_deal();
                    }
                }
            }
        }
    }

    /// Checks a frame of a seat (`Some`) or a spectator (`None`) against the truth: the view
    /// is exactly the core's observation for that seat (or what no seat hides), and no hidden
    /// card's name appears anywhere in the frame.
    pub fn check(&self, seat: Option<usize>, frame: &Value) {
        let text = frame.to_string();
        for key in ["\"seed\"", "\"deck\"", "\"rng\"", "\"password", "token_hash"] {
            assert!(!text.contains(key), "a frame carries {key}: {text}");
        }
        let view = &frame["view"];
        match (self, seat) {
            (Truth::Tt(m), Some(s)) => {
                let p = TripleTriad::PLAYERS[s];
                let obs = m.observation(p);
                assert_eq!(
                    view["observation"],
                    serde_json::to_value(&obs).unwrap(),
                    "seat {s}'s observation"
                );
                let mut visible: Vec<String> = obs.hand.iter().map(|c| c.name.clone()).collect();
                visible.extend(obs.board.iter().flatten().map(|c| c.card.name.clone()));
                visible.extend(obs.opponent_hand.iter().flatten().map(|c| c.name.clone()));
                for c in m.game().hand(p.other()) {
                    if !visible.contains(&c.name) {
                        assert!(
                            !text.contains(&format!("\"{}\"", c.name)),
                            "seat {s} sees hidden {}: {text}",
                            c.name
                        );
                    }
                }
            }
            (Truth::Tt(m), None) => {
                let blue = m.observation(Player::Blue);
                let red = m.observation(Player::Red);
                assert!(view["observation"].is_null());
                let public = &view["public"];
                assert_eq!(public["board"], serde_json::to_value(&blue.board).unwrap());
                assert_eq!(public["hands"], json!([red.opponent_hand, blue.opponent_hand]));
                // What neither opponent sees of a hand, no spectator sees.
                let mut visible: Vec<String> = blue.board.iter().flatten().map(|c| c.card.name.clone()).collect();
                for o in [&blue, &red] {
                    visible.extend(o.opponent_hand.iter().flatten().map(|c| c.name.clone()));
                }
                for c in blue.hand.iter().chain(&red.hand) {
                    if !visible.contains(&c.name) {
                        assert!(
                            !text.contains(&format!("\"{}\"", c.name)),
                            "a spectator sees hidden {}: {text}",
                            c.name
                        );
                    }
                }
            }
            (Truth::Trax(g), _) => {
                assert_eq!(view["observation"], serde_json::to_value(g).unwrap());
            }
            (Truth::Nt { deal, .. }, Some(s)) => {
                let obs = deal.observation(Nantong::PLAYERS[s]);
                assert_eq!(
                    view["observation"],
                    serde_json::to_value(&obs).unwrap(),
                    "seat {s}'s observation"
                );
            }
            (Truth::Nt { deal, .. }, None) => {
                let o = &view["observation"];
                assert_eq!(o["hand"], json!([]), "a spectator sees a hand");
                assert!(o["claim"].is_null());
                assert_eq!(o["actions"], json!([]));
                if let Some(draws) = o["last_event"]["draws"].as_array() {
                    assert!(
                        draws.iter().all(|d| d["card"].is_null()),
                        "a spectator sees a drawn card: {o}"
                    );
                }
                let truth = serde_json::to_value(deal.observation(Nantong::PLAYERS[0])).unwrap();
                for k in [
                    "melds",
                    "discards",
                    "indicators",
                    "stock",
                    "ready",
                    "hand_sizes",
                    "dealer",
                    "to_act",
                ] {
                    assert_eq!(o[k], truth[k], "the public {k}");
                }
            }
        }
    }
}

/// Checks every frame of `frames` about match `id` against the truth after as many moves as
/// the frame says were played (`states[ply]`).
pub fn check_frames(frames: &[Value], id: i64, seat: Option<usize>, states: &[Truth]) -> usize {
    let mut checked = 0;
    for f in frames {
        let ply = match f["type"].as_str() {
            Some("moved") if f["match"] == id => f["ply"].as_u64().unwrap() as usize,
            Some("match_state") if f["match"]["id"] == id => f["ply"].as_u64().unwrap() as usize,
            _ => continue,
        };
        assert_eq!(
            f.get("seat")
                .and_then(Value::as_u64)
                .filter(|_| f["type"] == "match_state")
                .map(|s| s as usize),
            seat.filter(|_| f["type"] == "match_state")
        );
        states[ply].check(seat, f);
        checked += 1;
    }
    checked
}

pub fn variant(name: &str) -> Variant {
    name.parse().unwrap()
}

pub fn rng(seed: u64) -> Rng {
    Rng::new(seed)
}
