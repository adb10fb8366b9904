//! The evidence of a placement: each step of the resolution that did something, in the order of
//! the rules file, with the pairs of sides it compared (ranks as that rule reads them: effective
//! under Elemental for Basic and Combo, printed for Same, Plus and Battle, and under FFXIV's
//! Ascension/Descension the typed values for all of them, after a step giving each type's
//! modifier), the walls that counted, Battle's totals, a power wall's pushes, each Combo wave
//! with the cards it took, and which of Reverse or Fallen Ace won a comparison.
//!
//! The placement itself runs on bit masks ([`super::resolve`]); the steps are taken afterwards,
//! on the position before the move, so that play and search pay nothing for them. A test holds
//! the two to the same captures.

use alloc::string::String;
use alloc::vec::Vec;

use super::board::{bits, EDGE};
use super::card::{CardType, Side};
use super::position::{Player, Position, RoundTable};
use super::resolve::{modifiers, rotate, typed_ranks, Captures};
use super::rules::{Rules, Wall};

/// Two sides that a rule compared: the side of the acting card (the placed card, or a card
/// that Combo turned) and what faces it, a neighbour's side or a board edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Pair {
    /// The acting card's cell.
    pub from: u8,
    /// Its side that faces the other.
    pub side: Side,
    /// The neighbour's cell; `None` for a board edge, which shows A (10) under Same Wall and
    /// Plus Wall.
    pub to: Option<u8>,
    /// The acting card's rank on `side`, as the rule reads it.
    pub rank: u8,
    /// The facing rank, as the rule reads it.
    pub other: u8,
    /// For Basic and Combo, when the capture was not "higher takes lower": `"reverse"` (the
    /// lower rank took it) or `"fallen_ace"` (a 1 and an A, the attacker took it). Left out of
    /// JSON otherwise.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub by: Option<&'static str>,
}

/// A type's modifier under Ascension or Descension for one placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Modifier {
    /// The type.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub card_type: CardType,
    /// Cards of that type on the board before the placement.
    pub count: u8,
    /// What that type's ranks gain (negative under Descension), before the clamp to 1..=10.
    pub modifier: i8,
}

/// A Battle fought (step 6): the printed ranks were equal, the rank totals decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Fight {
    /// The sides, printed ranks (equal).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub pair: Pair,
    /// The placed card's rank total.
    pub total: u16,
    /// The neighbour's rank total.
    pub other_total: u16,
    /// Who won: the mover (the neighbour flips), the opponent (the placed card flips), or
    /// nobody on equal totals.
    pub winner: Option<Player>,
}

/// A card that a power wall's rotation moved (step 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Push {
    /// Where the card was.
    pub from: u8,
    /// Where it is now.
    pub to: u8,
}

/// One step of a placement's resolution. As JSON an object tagged by `rule`, e.g.
/// `{"rule": "plus", "pairs": [{"from": 4, "side": "top", "to": 1, "rank": 4, "other": 9, "sum": 13}, …], "captured": [1]}`;
/// `captured` lists the cells that the step turned to the mover, in cell order.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "rule", rename_all = "snake_case"))]
pub enum Step {
    /// Step 1: the card goes from the mover's hand onto `cell`.
    Place {
        /// The cell.
        cell: u8,
        /// The card's name.
        card: String,
        /// The mover.
        owner: Player,
    },
    /// Step 2: the wall by the cell, whose label the card's power activates, rotated its line
    /// one cell away from it; every card of the line moved (`pushes`), the placed card to `cell`.
    Wall {
        /// The wall segment.
        wall: Wall,
        /// The card's power.
        power: u32,
        /// The cards that moved.
        pushes: Vec<Push>,
        /// Where the placed card is now.
        cell: u8,
    },
    /// Ascension, when a type has cards on the board before the move: each such type's modifier
    /// (what every card of the type, the placed one included, adds to its ranks); every pair
    /// after it shows the ranks so modified.
    Ascension {
        /// By type, in type order.
        types: Vec<Modifier>,
    },
    /// Descension: as [`Step::Ascension`], the modifiers negative.
    Descension {
        /// By type, in type order.
        types: Vec<Modifier>,
    },
    /// Step 3, when it fired: the equal sides (printed ranks; own cards count, and under Same
    /// Wall an edge facing an A), and the opponent cards among them.
    Same {
        /// The equal sides.
        pairs: Vec<Pair>,
        /// The cells taken.
        captured: Vec<u8>,
    },
    /// Step 4, when it fired: the sides whose sums (printed ranks) equal another side's, and
    /// the opponent cards among them.
    Plus {
        /// The sides of equal sums, each with its sum.
        pairs: Vec<Summed>,
        /// The cells taken.
        captured: Vec<u8>,
    },
    /// Step 5, when it took a card: each opponent card the placed card beats (effective ranks)
    /// that Same and Plus did not take.
    Basic {
        /// The comparisons won.
        pairs: Vec<Pair>,
        /// The cells taken.
        captured: Vec<u8>,
    },
    /// Step 6, when a battle was fought.
    Battle {
        /// The battles.
        fights: Vec<Fight>,
        /// The cells taken.
        captured: Vec<u8>,
        /// Whether the placed card lost a battle (and turned to the opponent).
        placed_lost: bool,
    },
    /// Step 7, one wave: each card turned by Same or Plus (or by the wave before) takes the
    /// opponent cards it beats (effective ranks).
    Combo {
        /// The wave, from 1.
        wave: u8,
        /// The comparisons won.
        pairs: Vec<Pair>,
        /// The cells taken.
        captured: Vec<u8>,
    },
}

/// A Plus pair and its sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Summed {
    /// The sides (printed ranks; an edge shows A under Plus Wall).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub pair: Pair,
    /// `rank + other`.
    pub sum: u8,
}

/// What the last move did: the captures by rule and the steps that explain them. As JSON the
/// fields of [`Captures`] and `steps`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LastMove {
    /// The captures by rule.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub captures: Captures,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

#[cfg_attr(arbiter_size, optimize(size))]
fn cells(mask: u16) -> Vec<u8> {
    bits(mask).collect()
}

/// The steps of putting card `card` (a table id) on `placed_on` in `before`, for the player to
/// move there.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn steps(t: &RoundTable, before: &Position, card: u8, placed_on: u8) -> Vec<Step> {
    let mut pos = *before;
    let mover = pos.to_move;
    let mut out = Vec::new();
    out.push(Step::Place {
        cell: placed_on,
        card: t.cards[card as usize].name.clone(),
        owner: mover,
    });
    pos.hands &= !(1 << card);
    pos.to_move = mover.other();
    pos.set_card(placed_on, card);
    pos.occupied |= 1 << placed_on;
    own(&mut pos, 1 << placed_on, mover);

    let power = t.cards[card as usize].power;
    let mut cell = placed_on;
    if let Some(wall) = t.wall_at[placed_on as usize].filter(|w| w.label.activated_by(power)) {
        let [a, b, c] = wall.line();
        let pushes = [(a, b), (b, c), (c, a)]
            .into_iter()
            .filter(|&(from, _)| pos.occupied >> from & 1 != 0)
            .map(|(from, to)| Push { from, to })
            .collect();
        rotate(&mut pos, wall.line());
        cell = b;
        out.push(Step::Wall {
            wall,
            power,
            pushes,
            cell,
        });
    }

    let r = &t.rules;
    let mods = modifiers(t, &pos, cell);
    if r.ascension || r.descension {
        let types: Vec<Modifier> = (1..5)
            .filter(|&ty| mods[ty] != 0)
            .map(|ty| Modifier {
                card_type: CardType::ALL[ty],
                count: mods[ty].unsigned_abs(),
                modifier: mods[ty],
            })
            .collect();
        if !types.is_empty() {
            out.push(if r.ascension {
                Step::Ascension { types }
            } else {
                Step::Descension { types }
            });
        }
    }
    // The ranks as Same, Plus and Battle read them: printed, or modified by the card's type.
    let ranks = |id: u8| {
        if t.typed {
            typed_ranks(t, &mods, id)
        } else {
            t.cards[id as usize].ranks
        }
    };
    let theirs = |pos: &Position, n: u8| pos.occupied >> n & 1 != 0 && owner(pos, n) != mover;
    let printed = ranks(card);
    // Each side: the neighbour's cell (None at an edge) and, where a card is, its id.
    let sides: [(Option<u8>, Option<u8>); 4] = core::array::from_fn(|s| {
        let n = t.nb[cell as usize][s];
        match n {
            EDGE => (None, None),
            n if pos.occupied >> n & 1 != 0 => (Some(n), Some(pos.card(n))),
            n => (Some(n), None),
        }
    });
    let facing = |id: u8, s: usize| ranks(id)[(s + 2) & 3];
    let pair = |s: usize, rank: u8, other: u8| Pair {
        from: cell,
        side: Side::ALL[s],
        to: sides[s].0,
        rank,
        other,
        by: None,
    };

    let mut same = 0u16;
    if r.same {
        let pairs: Vec<Pair> = (0..4)
            .filter_map(|s| match sides[s] {
                (Some(_), Some(id)) if facing(id, s) == printed[s] => Some(pair(s, printed[s], facing(id, s))),
                (None, _) if r.same_wall && printed[s] == 10 => Some(pair(s, 10, 10)),
                _ => None,
            })
            .collect();
        if pairs.len() >= r.same_min_matches as usize {
            same = taken(&pairs, |n| theirs(&pos, n));
            out.push(Step::Same {
                pairs,
                captured: cells(same),
            });
        }
    }

    let mut plus = 0u16;
    if r.plus {
        let sums: [Option<u8>; 4] = core::array::from_fn(|s| match sides[s] {
            (Some(_), Some(id)) => Some(printed[s] + facing(id, s)),
            (None, _) if r.plus_wall => Some(printed[s] + 10),
            _ => None,
        });
        let pairs: Vec<Summed> = (0..4)
            .filter(|&s| sums[s].is_some() && (0..4).any(|o| o != s && sums[o] == sums[s]))
            .map(|s| Summed {
                pair: pair(s, printed[s], sums[s].unwrap_or(0) - printed[s]),
                sum: sums[s].unwrap_or(0),
            })
            .collect();
        if !pairs.is_empty() {
            let plain: Vec<Pair> = pairs.iter().map(|p| p.pair).collect();
            plus = taken(&plain, |n| theirs(&pos, n));
            out.push(Step::Plus {
                pairs,
                captured: cells(plus),
            });
        }
    }

    let special = same | plus;
    // The ranks as Basic and Combo read them: effective (Elemental, which typed values exclude).
    let eff = |id: u8, at: u8, s: usize| if t.typed { ranks(id)[s] } else { t.effective(id, at)[s] };
    let open = |s: usize| match sides[s] {
        (Some(n), Some(id)) if theirs(&pos, n) && special >> n & 1 == 0 => Some((n, id)),
        _ => None,
    };
    let basic_pairs: Vec<Pair> = (0..4)
        .filter_map(|s| {
            let (n, id) = open(s)?;
            let (mine, other) = (eff(card, cell, s), eff(id, n, (s + 2) & 3));
            r.beats(mine, other).then(|| Pair {
                by: won_by(r, mine, other),
                ..pair(s, mine, other)
            })
        })
        .collect();
    let basic = taken(&basic_pairs, |_| true);
    if !basic_pairs.is_empty() {
        out.push(Step::Basic {
            pairs: basic_pairs,
            captured: cells(basic),
        });
    }

    let (mut battle, mut placed_lost) = (0u16, false);
    if r.battle {
        let fights: Vec<Fight> = (0..4)
            .filter_map(|s| {
                let (_, id) = open(s).filter(|&(n, _)| basic >> n & 1 == 0)?;
                (facing(id, s) == printed[s]).then(|| {
                    let (total, other_total) = (t.sum[card as usize], t.sum[id as usize]);
                    let winner = match total.cmp(&other_total) {
                        core::cmp::Ordering::Greater => Some(mover),
                        core::cmp::Ordering::Less => Some(mover.other()),
                        core::cmp::Ordering::Equal => None,
                    };
                    Fight {
                        pair: pair(s, printed[s], printed[s]),
                        total,
                        other_total,
                        winner,
                    }
                })
            })
            .collect();
        for f in &fights {
            match (f.winner, f.pair.to) {
                (Some(w), Some(n)) if w == mover => battle |= 1 << n,
                (Some(_), _) => placed_lost = true,
                _ => {}
            }
        }
        if !fights.is_empty() {
            out.push(Step::Battle {
                fights,
                captured: cells(battle),
                placed_lost,
            });
        }
    }

    own(&mut pos, same | plus | basic | battle, mover);
    if placed_lost {
        own(&mut pos, 1 << cell, mover.other());
    }
    if r.combo {
        let mut frontier = special | if r.combo_from_basic { basic } else { 0 };
        let mut wave = 0;
        while frontier != 0 {
            let mut pairs = Vec::new();
            for c in bits(frontier) {
                let id = pos.card(c);
                for s in 0..4 {
                    let n = t.nb[c as usize][s];
                    if n == EDGE || !theirs(&pos, n) {
                        continue;
                    }
                    let (mine, other) = (eff(id, c, s), eff(pos.card(n), n, (s + 2) & 3));
                    if r.beats(mine, other) {
                        pairs.push(Pair {
                            from: c,
                            side: Side::ALL[s],
                            to: Some(n),
                            rank: mine,
                            other,
                            by: won_by(r, mine, other),
                        });
                    }
                }
            }
            let next = taken(&pairs, |_| true);
            if next == 0 {
                break;
            }
            own(&mut pos, next, mover);
            wave += 1;
            out.push(Step::Combo {
                wave,
                pairs,
                captured: cells(next),
            });
            frontier = next;
        }
    }
    out
}

/// Which FFXIV rule made `rank` take `other` when "higher takes lower" did not decide it alone.
#[cfg_attr(arbiter_size, optimize(size))]
fn won_by(r: &Rules, rank: u8, other: u8) -> Option<&'static str> {
    if r.fallen_ace && matches!((rank, other), (1, 10) | (10, 1)) && (rank > other) == r.reverse {
        Some("fallen_ace")
    } else {
        r.reverse.then_some("reverse")
    }
}

/// The cells of the pairs' neighbours that `take` accepts, as a mask.
#[cfg_attr(arbiter_size, optimize(size))]
fn taken(pairs: &[Pair], take: impl Fn(u8) -> bool) -> u16 {
    pairs
        .iter()
        .filter_map(|p| p.to)
        .filter(|&n| take(n))
        .fold(0, |m, n| m | 1 << n)
}

#[cfg_attr(arbiter_size, optimize(size))]
fn owner(pos: &Position, cell: u8) -> Player {
    if pos.blue >> cell & 1 != 0 {
        Player::Blue
    } else {
        Player::Red
    }
}

#[cfg_attr(arbiter_size, optimize(size))]
fn own(pos: &mut Position, mask: u16, owner: Player) {
    match owner {
        Player::Blue => pos.blue |= mask,
        Player::Red => pos.blue &= !mask,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::testing::random_setup;
    use crate::tripletriad::TripleTriad;
    use crate::{Game, Rng};

    /// The steps take what the placement took, rule by rule, on random rules, elements and walls.
    #[test]
    fn the_steps_take_what_the_placement_took() {
        let mut rng = Rng::new(22);
        let mut fired = [0usize; 7];
        for _ in 0..3_000 {
            let setup = random_setup(&mut rng);
            let Ok(mut g) = TripleTriad::new(&setup) else { continue };
            while !g.is_over() {
                let moves = g.legal_moves();
                let mv = moves[rng.below(moves.len() as u64) as usize];
                g.play(mv).unwrap();
                let last = g.last_move().unwrap();
                let c = last.captures;
                let mut by_rule = [0u16; 5];
                let (mut lost, mut cell) = (false, c.placed_on);
                for step in &last.steps {
                    let (i, captured) = match step {
                        Step::Place { .. } | Step::Ascension { .. } | Step::Descension { .. } => (0, &Vec::new()),
                        Step::Wall { cell: to, .. } => {
                            cell = *to;
                            (1, &Vec::new())
                        }
                        Step::Same { captured, .. } => (2, captured),
                        Step::Plus { captured, .. } => (3, captured),
                        Step::Basic { captured, .. } => (4, captured),
                        Step::Battle {
                            captured, placed_lost, ..
                        } => {
                            lost = *placed_lost;
                            (5, captured)
                        }
                        Step::Combo { captured, .. } => (6, captured),
                    };
                    fired[i] += 1;
                    let mask = captured.iter().fold(0u16, |m, &n| m | 1 << n);
                    if (2..=6).contains(&i) {
                        by_rule[i.min(6) - 2] |= mask;
                    }
                }
                assert_eq!(
                    (by_rule, lost, cell),
                    ([c.same, c.plus, c.basic, c.battle, c.combo], c.placed_lost, c.cell),
                    "{:?}",
                    last.steps
                );
            }
        }
        assert!(fired.iter().all(|&n| n > 0), "every step kind was seen: {fired:?}");
    }
}
