//! Trax: nothing is hidden, so every seat and every spectator get the same view.

use arbiter_core::trax::{Trax, Variant};
use arbiter_core::{Budget, Engine, Game, Outcome, Rng};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{to_value, Ending, Input, Played, Refusal};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Options {
    variant: Option<String>,
}

pub fn describe() -> Value {
    json!({"variants": [Variant::EightByEight.name(), Variant::Unbounded.name(), Variant::Loop.name()]})
}

#[derive(Clone)]
pub struct TraxTable {
    game: Trax,
}

impl TraxTable {
    pub fn new(options: &Value) -> Result<TraxTable, String> {
        let o: Options = serde_json::from_value(options.clone()).map_err(|e| format!("options: {e}"))?;
        let variant = match o.variant {
            Some(v) => v.parse::<Variant>().map_err(|e| format!("variant: {e}"))?,
            None => Variant::EightByEight,
        };
        Ok(TraxTable {
            game: Trax::new(variant),
        })
    }

    pub fn to_move(&self) -> Option<usize> {
        self.game.to_move().map(Trax::player_index)
    }

    pub fn play(&mut self, input: &Input) -> Result<Played, Refusal> {
        if self.game.is_over() {
            return Err(Refusal::over());
        }
        super::play_game(&mut self.game, input)
    }

    pub fn timeout_move(&self) -> Option<String> {
        self.game.timeout_move().map(|m| m.to_string())
    }

    pub fn choose(&self, level: &str, rng: &mut Rng, budget: Budget<'_>) -> Option<String> {
        super::choose(&self.game, level, rng, budget)
    }

    pub fn view(&self) -> Value {
        json!({
            "observation": to_value(self.game.observation(self.game.next_player())),
            "last_turn": to_value(self.game.last_turn()),
            "winner": to_value(self.game.win()),
        })
    }

    pub fn ending(&self) -> Option<Ending> {
        let winners = match self.game.outcome()? {
            Outcome::Winner(c) => vec![Trax::player_index(c)],
            Outcome::Draw => vec![],
        };
        Some(Ending::finished(2, winners, None))
    }
}
