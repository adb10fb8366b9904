//! The hidden-information check: two worlds that differ only in cards one observer never sees,
//! the same actions played in both, and that observer's observation (as JSON and as a tensor)
//! must be identical at every step. Anything else would tell the observer about cards it
//! cannot see, whether through a field, through whose turn it is, or through a question put or
//! held back.
//!
//! One file, two users: the fuzz target `hidden_information` (through `src/lib.rs`) and the
//! stable suite (`core/tests/hidden_information.rs` includes this file), so that both run the
//! same check. It uses nothing but the public API of `arbiter-core` and `serde_json`.

use arbiter_core::nantong::{Nantong, Phase, Seat};
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::{self, ff8_cards, Player, Rules, Setup, TripleTriad};
use arbiter_core::{Engine, Game, Rng};

/// Bytes read front to back; exhausted input reads as zeros.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }

    fn u64(&mut self) -> u64 {
        (0..8).fold(0, |v, _| v << 8 | self.byte() as u64)
    }
}

/// Reads a game byte, a seed, an observer byte and a seed for the hidden swap, then one byte per
/// action (below 160: the game's computer player chooses; otherwise a legal move by index; zeros
/// once the input is exhausted). Plays a game, builds a second world that differs from it only
/// in what the observer never sees, and compares: the number of observation pairs compared, or
/// the first difference.
pub fn check(data: &[u8]) -> Result<usize, String> {
    let mut input = Bytes(data);
    let game = input.byte() % 3;
    let seed = input.u64();
    let observer = input.byte();
    let mut swap = Rng::new(input.u64());
    match game {
        0 => nantong_worlds(seed, Seat::ALL[observer as usize % 3], &mut swap, &mut input),
        1 => triple_triad_worlds(seed, observer, &mut swap, &mut input),
        _ => trax_worlds(seed, observer, &mut input),
    }
}

/// The move for `g` that `byte` asks for: the computer's (at `level`) or a legal one by index.
fn pick<G: Engine>(g: &G, byte: u8, level: &str, rng: &mut Rng) -> Option<G::Move> {
    if byte < 160 {
        return g.choose(level, rng).expect("a built-in level");
    }
    let legal = g.legal_moves();
    (!legal.is_empty()).then(|| legal[byte as usize % legal.len()])
}

/// What `observer` sees of `g`: its observation as JSON and its tensor.
fn seen<G: Engine>(g: &G, observer: G::Player) -> (String, Vec<f32>)
where
    G::Observation: serde::Serialize,
{
    let json = serde_json::to_string(&g.observation(observer)).expect("serialisable");
    (json, g.observation_tensor(observer))
}

/// Plays `moves[..upto]` on `a` and `b` side by side and compares what `observer` sees before
/// each move and after the last. The worlds may part where a move of another player is possible
/// in one and not in the other (that player sees different cards): the comparison stops there.
fn differential<G: Engine>(
    mut a: G,
    mut b: G,
    observer: G::Player,
    moves: &[G::Move],
    upto: usize,
) -> Result<usize, String>
where
    G::Observation: serde::Serialize,
{
    let mut pairs = 0;
    for step in 0..=upto {
        let (x, y) = (seen(&a, observer), seen(&b, observer));
        pairs += 1;
        if x != y {
            return Err(format!(
                "{}: what {observer:?} sees differs after {step} moves between two worlds that differ only in \
                 cards it never sees:\n  {}\n  {}",
                G::NAME,
                x.0,
                y.0
            ));
        }
        let Some(&mv) = moves[..upto].get(step) else { break };
        if a.to_move() != b.to_move() || b.play(mv).is_err() {
            break;
        }
        a.play(mv).expect("a move of the game played");
    }
    Ok(pairs)
}

/// A Nantong deal played out, and the same deck with a few cards swapped among the places the
/// observer never sees (other seats' dealt hands, stock cards the observer never draws), four
/// times.
fn nantong_worlds(seed: u64, observer: Seat, swap: &mut Rng, input: &mut Bytes) -> Result<usize, String> {
    let start = Nantong::new(seed);
    let dealer = start.dealer();
    let mut hidden = [true; 120];
    let dealt = [(dealer, 0..23), (dealer.next(), 23..45), (dealer.next().next(), 45..67)];
    for (seat, places) in dealt {
        if seat == observer {
            places.for_each(|p| hidden[p] = false);
        }
    }
    hidden[67] = false;
    hidden[68] = false;
    // The stock is drawn from both ends: follow them to know which places the observer draws.
    let (mut front, mut back) = (69, 120);
    let mut g = start.clone();
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut moves = Vec::new();
    while let Some(actor) = g.to_move() {
        let level = if input.byte() & 1 == 0 { "strong" } else { "basic" };
        let mv = pick(&g, input.byte(), level, &mut rng).expect("a move while the deal goes on");
        let stock = g.stock_size();
        g.play(mv).expect("a legal move");
        moves.push(mv);
        let (drawer, from_back) = match g.phase() {
            Phase::AfterDraw { seat, replacement, .. } => (seat, replacement),
            // Opening declarations draw their replacements from the back.
            _ => (actor, true),
        };
        for _ in g.stock_size()..stock {
            let place = if from_back {
                back -= 1;
                back
            } else {
                front += 1;
                front - 1
            };
            if drawer == observer {
                hidden[place] = false;
            }
        }
    }
    let places: Vec<usize> = (0..120).filter(|&p| hidden[p]).collect();
    let start = Nantong::deal(start.deck(), dealer).expect("its own deck");
    // Several other worlds: a swap that another seat's play soon contradicts compares little.
    let mut pairs = 0;
    for _ in 0..4 {
        let mut deck = start.deck().to_vec();
        for _ in 0..1 + swap.below(3) {
            let i = places[swap.below(places.len() as u64) as usize];
            let j = places[swap.below(places.len() as u64) as usize];
            deck.swap(i, j);
        }
        let other = Nantong::deal(&deck, dealer).expect("a permutation of a deck");
        pairs += differential(start.clone(), other, observer, &moves, moves.len())?;
    }
    Ok(pairs)
}

/// A Triple Triad round with closed hands, and the same round with one card of the observer's
/// opponent replaced by another, compared until that card is played (then everyone sees it).
fn triple_triad_worlds(seed: u64, observer: u8, swap: &mut Rng, input: &mut Bytes) -> Result<usize, String> {
    let observer = [Player::Blue, Player::Red][observer as usize % 2];
    let flags = swap.next_u64();
    let bit = |n: u32| flags >> n & 1 == 1;
    let rules = Rules {
        same: bit(0),
        plus: bit(1),
        combo: bit(2) && (bit(0) || bit(1)),
        same_wall: bit(3) && bit(0),
        elemental: bit(4),
        open: false,
        ..Rules::default()
    };
    let mut setup = Setup::random_ff8(seed).with_rules(rules);
    if rules.elemental {
        setup.draw_elements(swap);
    }
    let Ok(start) = TripleTriad::new(&setup) else {
        return Ok(0);
    };
    let opponent = observer.other();
    let replaced = swap.below(setup.hands.get(opponent).len() as u64) as usize;
    let name = setup.hands.get(opponent)[replaced].name.clone();
    let cards = ff8_cards();
    let held = |c: &tripletriad::Card| {
        setup
            .hands
            .blue
            .iter()
            .chain(&setup.hands.red)
            .any(|h| h.name == c.name)
    };
    let fresh: Vec<_> = cards.iter().filter(|c| !held(c)).collect();
    let mut other_setup = setup.clone();
    other_setup.hands.get_mut(opponent)[replaced] = fresh[swap.below(fresh.len() as u64) as usize].clone();
    let other = TripleTriad::new(&other_setup).expect("the same shape of setup");
    let mut g = start.clone();
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    let mut upto = None;
    while let Some(mv) = pick(&g, input.byte(), "greedy", &mut rng) {
        g.play(mv).expect("a legal move");
        moves.push(mv);
        if upto.is_none() && g.hand_index(opponent, &name).is_none() {
            // The observation before this move is the last that must agree.
            upto = Some(moves.len() - 1);
        }
    }
    differential(start, other, observer, &moves, upto.unwrap_or(moves.len()))
}

/// Trax hides nothing, so the other world is the same game played again from nothing: what a
/// player sees depends on the moves alone.
fn trax_worlds(seed: u64, observer: u8, input: &mut Bytes) -> Result<usize, String> {
    let variant = [Variant::EightByEight, Variant::Unbounded, Variant::Loop][seed as usize % 3];
    let observer = Trax::PLAYERS[observer as usize % 2];
    let start = Trax::new(variant);
    let mut g = start.clone();
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    while moves.len() < 60 {
        let Some(mv) = pick(&g, input.byte(), "random", &mut rng) else {
            break;
        };
        g.play(mv).expect("a legal move");
        moves.push(mv);
    }
    differential(start, Trax::new(variant), observer, &moves, moves.len())
}
