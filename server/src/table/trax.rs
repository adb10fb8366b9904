//! Trax: nothing is hidden, so every seat and every spectator get the same view.

use arbiter_core::options::Description;
use arbiter_core::trax::{Options, Trax};
use arbiter_core::{Budget, Engine, Game, Outcome, Rng};
use serde_json::{json, Value};

use super::{read_options, to_value, Ending, Input, Played, Refusal};

/// What `welcome` has said of Trax's options since before the core described them.
pub fn summary(d: &Description) -> Value {
    json!({"variants": d.option("variant").map(|o| o.kind.values())})
}

#[derive(Clone)]
pub struct HostedTrax {
    game: Trax,
}

impl HostedTrax {
    pub fn new(options: &Value) -> Result<HostedTrax, String> {
        let (o, _): (Options, _) = read_options(options, &[])?;
        let game = o.game().map_err(|e| format!("max_tiles: {e}"))?;
        Ok(HostedTrax { game })
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
