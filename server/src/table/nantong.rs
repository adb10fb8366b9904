//! Nantong: deal after deal (the next seat dealing a deck shuffled by the last deal's
//! generator), with running totals of the settlements.

use arbiter_core::nantong::{Nantong, Options};
use arbiter_core::options::{Description, Kind};
use arbiter_core::{Budget, Engine, Game, Rng};
use serde_json::{json, Value};

use super::{read_options, to_value, Ending, Input, Played, Refusal};

/// What `welcome` has said of Nantong's options since before the core described them.
pub fn summary(d: &Description) -> Value {
    let max = d.option("deals").and_then(|o| match o.kind {
        Kind::Number { max, .. } => max,
        _ => None,
    });
    json!({"max_deals": max})
}

#[derive(Clone)]
pub struct HostedNantong {
    deal: Nantong,
    deals: u32,
    /// Each finished deal's settlement.
    results: Vec<[i64; 3]>,
}

impl HostedNantong {
    pub fn new(options: &Value, seed: u64) -> Result<HostedNantong, String> {
        let (o, _): (Options, _) = read_options(options, &[])?;
        let deals = o.deals().map_err(|e| e.message().to_owned())?;
        Ok(HostedNantong {
            deal: Nantong::new(seed),
            deals,
            results: Vec::new(),
        })
    }

    fn over(&self) -> bool {
        self.results.len() as u32 >= self.deals
    }

    pub fn to_move(&self) -> Option<usize> {
        self.deal.to_move().map(Nantong::player_index)
    }

    pub fn play(&mut self, input: &Input) -> Result<Played, Refusal> {
        if self.over() {
            return Err(Refusal::over());
        }
        let p = super::play_game(&mut self.deal, input)?;
        if let Some(score) = self.deal.score() {
            self.results.push(score.settlement);
            if !self.over() {
                self.deal = self.deal.next_deal();
            }
        }
        Ok(p)
    }

    pub fn timeout_move(&self) -> Option<String> {
        self.deal.timeout_move().map(|m| m.to_string())
    }

    pub fn choose(&self, level: &str, rng: &mut Rng, budget: Budget<'_>) -> Option<String> {
        super::choose(&self.deal, level, rng, budget)
    }

    fn totals(&self) -> [i64; 3] {
        let mut t = [0; 3];
        for r in &self.results {
            for (t, r) in t.iter_mut().zip(r) {
                *t += r;
            }
        }
        t
    }

    fn frame(&self, observation: Value) -> Value {
        json!({
            "deal": self.results.len() as u32 + u32::from(!self.over()),
            "deals": self.deals,
            "totals": self.totals(),
            "deal_results": self.results,
            "observation": observation,
        })
    }

    pub fn seat_view(&self, seat: usize) -> Value {
        self.frame(to_value(self.deal.observation(Nantong::PLAYERS[seat])))
    }

    /// What no seat hides: the core's public observation.
    pub fn public_view(&self) -> Value {
        self.frame(to_value(self.deal.public_observation()))
    }

    pub fn ending(&self) -> Option<Ending> {
        if !self.over() {
            return None;
        }
        let totals = self.totals();
        let best = totals.iter().copied().max().unwrap_or(0);
        let winners = if totals.iter().all(|&t| t == best) {
            vec![]
        } else {
            (0..3).filter(|&s| totals[s] == best).collect()
        };
        Some(Ending::finished(3, winners, Some(totals.to_vec())))
    }
}
