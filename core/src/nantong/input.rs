//! The end of a deal as a host gives it (the conformance `score` input): the checks that make it
//! one the rules allow.

use super::card::{Kind, KINDS};
use super::score::{best_win, Best, Meld, MeldType, PlayerHand, ScoreError, Win, WinSource};
use super::state::Seat;

/// Concealed cards plus three per group declared that the deal leaves a seat: the dealer's 23
/// less a discard, or 22 dealt; every kong's fourth card came with a replacement and a Tiandi
/// Hezi's two cards with two, so melds never change it. The winner holds one more card.
const HAND: usize = 22;

/// Why `meld` cannot be one of `seat`'s at the end of a deal, whatever else it holds.
fn check_meld(indicators: [Kind; 2], meld: Meld, ready: bool) -> Result<(), &'static str> {
    match meld.kind {
        MeldType::OpeningTriple if !indicators.contains(&meld.card) => {
            Err("an opening triple is three dealt cards of an indicator's kind")
        }
        MeldType::Hezi if indicators != [meld.card; 2] => {
            Err("a Tiandi Hezi is the other two copies of two identical indicators")
        }
        _ if ready && !meld.is_opening() => Err("a ready hand is locked: it cannot pong or kong"),
        _ => Ok(()),
    }
}

/// The checks one hand allows alone: copies with the indicators, melds, ready.
fn check_player(
    indicators: [Kind; 2],
    seat: Seat,
    p: &PlayerHand,
    copies: &mut [u32; KINDS],
) -> Result<(), ScoreError> {
    for (c, &n) in copies.iter_mut().zip(&p.hand) {
        *c += u32::from(n);
    }
    for &meld in &p.melds {
        let c = &mut copies[meld.card.index()];
        *c = c.saturating_add(u32::from(meld.kind.cards()));
        check_meld(indicators, meld, p.ready).map_err(|why| ScoreError::BadMeld { seat, meld, why })?;
    }
    Ok(())
}

fn check_copies(copies: &[u32; KINDS]) -> Result<(), ScoreError> {
    match Kind::all().find(|k| copies[k.index()] > 4) {
        Some(k) => Err(ScoreError::TooManyCopies(k)),
        None => Ok(()),
    }
}

fn indicator_copies(indicators: [Kind; 2]) -> [u32; KINDS] {
    let mut copies = [0u32; KINDS];
    for k in indicators {
        copies[k.index()] += 1;
    }
    copies
}

/// Concealed cards plus three per group declared.
fn hand_size(p: &PlayerHand) -> usize {
    let concealed: usize = p.hand.iter().map(|&n| n as usize).sum();
    let groups = p.melds.iter().filter(|m| m.kind != MeldType::Hezi).count();
    concealed.saturating_add(groups.saturating_mul(3))
}

/// What a win needs of the rest of the deal, apart from the winning hand itself.
fn check_win(dealer: Seat, players: &[PlayerHand; 3], win: &Win) -> Result<(), &'static str> {
    let all_opening = || players.iter().all(|p| p.melds.iter().all(|m| m.is_opening()));
    let winner = &players[win.seat.index()];
    if win.heavenly {
        if win.seat != dealer {
            return Err("only the dealer's dealt hand wins a heavenly hand");
        }
        if !all_opening() {
            return Err("a heavenly win comes before any pong or kong");
        }
        return Ok(());
    }
    if win.dealer_first_discard && (win.source != WinSource::Discard || win.seat == dealer || !all_opening()) {
        return Err("a win on the dealer's first discard is another seat's, on that discard, before any pong or kong");
    }
    match win.source {
        WinSource::RobbedKong => {
            let pong = |p: &PlayerHand| p.melds.iter().any(|m| m.kind == MeldType::Pong && m.card == win.card);
            let adder = players
                .iter()
                .enumerate()
                .any(|(i, p)| i != win.seat.index() && pong(p));
            if !adder {
                return Err("a robbed kong is added to another seat's pong of the card, which it keeps");
            }
            if win.last_card {
                return Err("a kong needs a card left in the stock, so a robbed kong is never the last card");
            }
        }
        WinSource::KongReplacement => {
            let kong = winner
                .melds
                .iter()
                .any(|m| matches!(m.kind, MeldType::ConcealedKong | MeldType::ExposedKong));
            if !kong {
                return Err("a kong replacement is drawn for a kong of the winner's");
            }
        }
        WinSource::Discard | WinSource::SelfDraw => {}
    }
    Ok(())
}

/// Checks that the cards are the end of a deal the rules allow; the winner's best partition.
pub(crate) fn check_deal(
    indicators: [Kind; 2],
    dealer: Seat,
    players: &[PlayerHand; 3],
    win: Option<&Win>,
) -> Result<Option<Best>, ScoreError> {
    let mut copies = indicator_copies(indicators);
    for (seat, p) in Seat::ALL.into_iter().zip(players) {
        check_player(indicators, seat, p, &mut copies)?;
    }
    check_copies(&copies)?;
    for (seat, p) in Seat::ALL.into_iter().zip(players) {
        if p.ready && seat == dealer {
            return Err(ScoreError::ReadyDealer(seat));
        }
        let expected = HAND + usize::from(win.is_some_and(|w| w.seat == seat));
        let cards = hand_size(p);
        if cards != expected {
            return Err(ScoreError::HandSize { seat, cards, expected });
        }
    }
    let Some(win) = win else { return Ok(None) };
    check_win(dealer, players, win).map_err(|why| ScoreError::BadWin { seat: win.seat, why })?;
    let p = &players[win.seat.index()];
    if !win.heavenly && p.hand[win.card.index()] == 0 {
        return Err(ScoreError::NotWinning(win.seat));
    }
    match best_win(p, win, indicators) {
        Some((_, best)) => Ok(Some(best)),
        None => Err(ScoreError::NotWinning(win.seat)),
    }
}

/// The checks of [`check_deal`] that the winner's hand allows alone. The fast path of
/// [`winner_total`](super::winner_total): one pass over the kinds that the compiler vectorises,
/// and the itemised checks only when something is wrong.
pub(crate) fn check_hand(indicators: [Kind; 2], p: &PlayerHand, win: &Win) -> Result<(), ScoreError> {
    let mut left = [4u8; KINDS];
    for k in indicators {
        left[k.index()] -= 1;
    }
    let mut bad = false;
    for &meld in &p.melds {
        let l = &mut left[meld.card.index()];
        bad |= meld.kind.cards() > *l || check_meld(indicators, meld, p.ready).is_err();
        *l = l.saturating_sub(meld.kind.cards());
    }
    bad |= p.hand.iter().zip(&left).fold(false, |b, (&h, &l)| b | (h > l));
    if bad {
        let mut copies = indicator_copies(indicators);
        check_player(indicators, win.seat, p, &mut copies)?;
        check_copies(&copies)?;
    }
    if !win.heavenly && p.hand[win.card.index()] == 0 {
        return Err(ScoreError::NotWinning(win.seat));
    }
    Ok(())
}
