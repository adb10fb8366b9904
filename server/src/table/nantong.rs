//! Nantong: deal after deal (the next seat dealing a deck shuffled by the last deal's
//! generator), with running totals of the settlements.

use arbiter_core::nantong::{Action, Nantong, Options, Seat};
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
    /// The last finished deal as its end shows it to everyone: every seat's hand (scoring
    /// counts the groups concealed in each, so the table sees them), the win and the score.
    shown: Value,
}

impl HostedNantong {
    pub fn new(options: &Value, seed: u64) -> Result<HostedNantong, String> {
        let (o, _): (Options, _) = read_options(options, &[])?;
        let deals = o.deals().map_err(|e| e.message().to_owned())?;
        let size = o.size().map_err(|e| e.message().to_owned())?;
        Ok(HostedNantong {
            deal: Nantong::sized(seed, size),
            deals,
            results: Vec::new(),
            shown: Value::Null,
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
            self.shown = json!({
                "hands": Seat::ALL.map(|s| self.deal.observation(s).hand),
                "win": self.deal.win(),
                "score": score,
            });
            if !self.over() {
                self.deal = self.deal.next_deal();
            }
        }
        Ok(p)
    }

    /// `pass`, when it is the only answer to the claim question put now.
    pub fn forced_pass(&self) -> Option<String> {
        (!self.over() && self.deal.legal_moves() == [Action::Pass]).then(|| Action::Pass.to_string())
    }

    /// Whether `input` is a `pass` (only ever the answer to a claim question).
    pub fn is_pass(&self, input: &Input) -> bool {
        !self.over() && super::parse(&self.deal, input).is_ok_and(|m| m == Action::Pass)
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
            "last_deal": self.shown,
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

    /// The seats with the best total win; two sharing it both win (the settlement pays each
    /// of them by the third and nothing between them); equal totals are a draw.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ending::SeatOutcome;

    fn ended(results: Vec<[i64; 3]>) -> Ending {
        let mut t = HostedNantong::new(&json!({"deals": results.len()}), 1).unwrap();
        t.results = results;
        t.ending().unwrap()
    }

    #[test]
    fn a_shared_first_place_is_won_by_both_and_equal_totals_are_a_draw() {
        let shared = ended(vec![[20, 20, -40]]);
        assert_eq!(shared.winners, [0, 1]);
        assert_eq!(shared.outcome, [SeatOutcome::Won, SeatOutcome::Won, SeatOutcome::Lost]);
        let alone = ended(vec![[-30, 60, -30]]);
        assert_eq!(alone.outcome, [SeatOutcome::Lost, SeatOutcome::Won, SeatOutcome::Lost]);
        let level = ended(vec![[40, -40, 0], [-40, 40, 0]]);
        assert!(level.winners.is_empty());
        assert_eq!(level.outcome, [SeatOutcome::Drawn; 3]);
    }
}
