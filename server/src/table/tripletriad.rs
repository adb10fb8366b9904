//! Triple Triad: the core's whole match layer (rounds, sudden death, FFXIV's draws from the
//! seed), with the hands the people bring (picked or drawn from their collections) and a
//! computer's FF8 hand drawn from the match's seed; under FFXIV's cards every hand is dealt.
//! Every seat sees the match's observation (what the core's match shows it: Three Open's three
//! cards, its own Chaos draw), a computer seat chooses from it too. Trades move cards between
//! collections: they come with the card economy.

use arbiter_core::options::{Description, Kind};
use arbiter_core::tripletriad::{ai, dealt_hands, CardSet, Match, Options, Player, TripleTriad};
use arbiter_core::{Budget, Engine, Game, Rng};
use arbiter_economy::Party;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{parse, played, read_options, to_value, Ending, Input, Played, Refusal};

/// The fields of a challenge's options that the server adds to the core's [`Options`].
const SERVER_FIELDS: [&str; 4] = ["stake", "deck", "words", "hands"];

/// The server's fields of a challenge's options ([`SERVER_FIELDS`]).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ServerFields {
    /// What is at stake (the card economy): the winner rule, a gil bet, whose customs.
    stake: Option<arbiter_economy::Stake>,
    /// The challenger's deck, for a game that plays picked hands (the economy reads it).
    deck: Option<String>,
    /// The rules as the text game wrote them, for the text game to show.
    #[serde(rename = "words")]
    _words: Option<serde::de::IgnoredAny>,
    /// The hands the people bring, put in by the server when the match starts (stripped
    /// from every view: the options a client sees never hold them).
    hands: Option<HandsBrought>,
}

/// A challenge's options: the core's, then the server's own fields.
fn read(options: &Value) -> Result<(Options, ServerFields), String> {
    let (core, server): (Options, _) = read_options(options, &SERVER_FIELDS)?;
    let server: ServerFields = serde_json::from_value(server).map_err(|e| format!("options: {e}"))?;
    if core.trade.is_some() && server.stake.is_some() {
        return Err("options.trade: with a stake, the stake names the trade".into());
    }
    Ok((core, server))
}

/// Checks a challenge's options as the challenge is made: what [`HostedTt::new`] checks, and what
/// only a match's start may bring or only stakes use; then, with stakes, that every end of the
/// match is one the settlement takes (a match must always have a legal way to end).
pub fn check_challenge(options: &Value, time: u32) -> Result<(), String> {
    let (core, o) = read(options)?;
    if o.hands.is_some() {
        return Err("options.hands is the server's: the hands come from the decks at stake".into());
    }
    // An option accepted is an option played: the core's winner rule moves no card without
    // stakes (the stake names it), and no deck is played when the hands are drawn.
    if core.trade.is_some() {
        return Err(
            "options.trade: cards move only when they are at stake: name the winner rule in options.stake".into(),
        );
    }
    if ffxiv_dealt(options) {
        // The collections hold FF8 cards: under FFXIV's cards the hands are dealt from the
        // seed (the core's deal), owned by no one, so no deck of anyone's is played and no
        // card can be at stake.
        if o.deck.is_some() {
            return Err(
                "options.deck: under FFXIV's cards (the ffxiv preset) each hand is a FFXIV deck dealt from the seed: no deck of yours is played"
                    .into(),
            );
        }
        if o.stake.is_some() {
            return Err(
                "options.stake: under FFXIV's cards (the ffxiv preset) the hands are dealt from the seed and belong to no one: no card can be at stake (the collections hold FF8 cards)"
                    .into(),
            );
        }
    }
    let random = core.config().is_ok_and(|c| c.rules.random);
    if random && o.deck.is_some() {
        return Err(
            "options.deck: under the random rule each hand is drawn from its player's collection: no deck is played"
                .into(),
        );
    }
    if let Some(deck) = &o.deck {
        crate::economy::check_deck_name(deck.trim()).map_err(|f| format!("options.deck: {}", f.message))?
    }
    let table = HostedTt::new(options, 0, time)?;
    if let Some(stake) = o.stake {
        // What no two players could ever meet (a rule their customs do not offer) is refused
        // now; what depends on the players is checked when the match starts.
        let anyone = Party {
            computer: false,
            experience: u32::MAX,
            gils: u32::MAX,
            cards: u32::MAX,
        };
        stake.check(&anyone, &anyone).map_err(|e| format!("stake: {e}"))?;
        crate::economy::check_settles(table.core())?;
    }
    Ok(())
}

/// The deck level limit random hands are drawn within, when the options play the random rule
/// (`Some(None)`: random, no limit); `None` without it. The options are a stored match's or a
/// checked challenge's.
pub fn random_hands(options: &Value) -> Option<Option<u32>> {
    let config = read(options).ok()?.0.config().ok()?;
    (config.rules.random && config.cards == CardSet::Ff8).then_some(config.deck_level_limit)
}

/// Whether the options play FFXIV's cards (the ffxiv preset): then every hand, a person's too,
/// is a FFXIV deck the core deals from the match's seed ([`dealt_hands`]), since the collections
/// hold FF8 cards. The options are a stored match's or a checked challenge's.
pub fn ffxiv_dealt(options: &Value) -> bool {
    read(options)
        .ok()
        .and_then(|(core, _)| core.config().ok())
        .is_some_and(|c| c.cards == CardSet::Ffxiv)
}

/// The match a challenge's or a match's options make, its winner rule the stake's, and the
/// stake (none: nothing at stake); `None` for options that make no match.
pub fn resolved(options: &Value) -> Option<(arbiter_core::tripletriad::MatchConfig, Option<arbiter_economy::Stake>)> {
    let (core, server) = read(options).ok()?;
    let mut config = core.config().ok()?;
    if let Some(stake) = server.stake {
        config.trade = stake.trade;
    }
    Some((config, server.stake))
}

/// The cards each seat brought (`None`: a computer seat, dealt from the seed).
#[derive(Deserialize, serde::Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct HandsBrought {
    pub blue: Option<Vec<arbiter_core::tripletriad::Card>>,
    pub red: Option<Vec<arbiter_core::tripletriad::Card>>,
}

/// What `welcome` has said of Triple Triad's options since before the core described them.
pub fn summary(d: &Description) -> Value {
    let values = |name| d.option(name).map(|o| o.kind.values());
    let rules = d.option("rules").map(|o| match &o.kind {
        Kind::Flags { values, numbers, .. } => values.iter().copied().chain(numbers.iter().map(|n| n.name)).collect(),
        _ => Vec::new(),
    });
    json!({"presets": values("preset"), "sudden_death": values("sudden_death"), "rules": rules})
}

/// The finished rounds a view lists (the last ones).
const ROUNDS_SHOWN: usize = 8;

#[derive(Clone)]
pub struct HostedTt {
    game: Match,
}

impl HostedTt {
    pub fn new(options: &Value, seed: u64, time: u32) -> Result<HostedTt, String> {
        let (o, server) = read(options)?;
        let mut config = o.config().map_err(|e| e.message().to_owned())?;
        config.time = Some(time);
        if let Some(stake) = server.stake {
            config.trade = stake.trade;
        }
        let dealt = dealt_hands(&config, seed).map_err(|e| e.message().to_owned())?;
        let brought = server.hands.unwrap_or_default();
        let (blue, red) = (brought.blue.unwrap_or(dealt.blue), brought.red.unwrap_or(dealt.red));
        let game = Match::new(config, blue, red, seed).map_err(|e| e.to_string())?;
        Ok(HostedTt { game })
    }

    /// The core's match (its trade settles the stakes).
    pub fn core(&self) -> &Match {
        &self.game
    }

    fn round(&self) -> &TripleTriad {
        self.game.game()
    }

    pub fn to_move(&self) -> Option<usize> {
        if self.game.is_over() {
            return None;
        }
        self.round().to_move().map(TripleTriad::player_index)
    }

    pub fn play(&mut self, input: &Input) -> Result<Played, Refusal> {
        if self.game.is_over() {
            return Err(Refusal::over());
        }
        let mv = parse(self.round(), input)?;
        let p = played(self.round(), mv);
        self.game.play(mv).map_err(Refusal::illegal)?;
        Ok(p)
    }

    pub fn timeout_move(&self) -> Option<String> {
        self.game
            .timeout_move()
            .filter(|_| !self.game.is_over())
            .map(|m| m.to_string())
    }

    pub fn choose(&self, level: &str, rng: &mut Rng, budget: Budget<'_>) -> Option<String> {
        if self.game.is_over() {
            return None;
        }
        let level: ai::Level = level.parse().ok()?;
        let seat = self.round().to_move()?;
        ai::choose_within(&self.game.observation(seat), level, rng, budget).map(|m| m.to_string())
    }

    fn frame(&self, observation: Value, public: Value) -> Value {
        // Every round but a match's last is a draw (a win ends it): a long sudden death shows
        // its last rounds and counts the draws before them, so that no frame grows with it.
        let rounds = self.game.rounds();
        let before = rounds.len().saturating_sub(ROUNDS_SHOWN);
        // The ranks each placed card plays with, as the core reckons them (Elemental's +1/-1):
        // front ends show them rather than work them out.
        let effective: Vec<Option<[u8; 4]>> = (0..9).map(|c| self.round().effective_ranks(c)).collect();
        json!({
            "round": self.game.round_number(),
            "rounds": to_value(&rounds[before..]),
            "rounds_before": before,
            "effective": effective,
            "observation": observation,
            "public": public,
        })
    }

    pub fn seat_view(&self, seat: usize) -> Value {
        let player = TripleTriad::PLAYERS[seat];
        self.frame(to_value(self.game.observation(player)), Value::Null)
    }

    /// The board and both hands as the other player sees each (faces under the open rules, and
    /// Three Open's three).
    pub fn public_view(&self) -> Value {
        let blue = self.game.observation(Player::Blue);
        let red = self.game.observation(Player::Red);
        let public = json!({
            "board": to_value(&blue.board),
            "rules": to_value(blue.rules),
            "elements": to_value(blue.elements),
            "walls": to_value(&blue.walls),
            "to_move": to_value(blue.to_move),
            "hands": [to_value(&red.opponent_hand), to_value(&blue.opponent_hand)],
        });
        self.frame(Value::Null, public)
    }

    pub fn ending(&self) -> Option<Ending> {
        let r = self.game.result()?;
        let winners = r.winner.map(TripleTriad::player_index).into_iter().collect();
        Some(Ending::finished(
            2,
            winners,
            Some(r.scores.iter().map(|&s| s as i64).collect()),
        ))
    }
}
