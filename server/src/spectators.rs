//! Who may watch a match, and how: open (anyone may spectate), broadcast (every card played is
//! also shown to the whole lobby) or private (nobody). Chosen with the challenge, changed by a
//! seated player while the match runs (`live::spectating`), stored with the match so that a
//! restart keeps it: the option as the database stores it.

use arbiter_economy::Spectators;

/// The option as the `private` and `broadcast` columns store it.
pub fn columns(s: Spectators) -> (i64, i64) {
    (
        i64::from(s == Spectators::Private),
        i64::from(s == Spectators::Broadcast),
    )
}

/// The option of the `private` and `broadcast` columns (private wins: it hides more).
pub fn from_columns(private: i64, broadcast: i64) -> Spectators {
    match (private != 0, broadcast != 0) {
        (true, _) => Spectators::Private,
        (false, true) => Spectators::Broadcast,
        (false, false) => Spectators::Open,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_hold_each_option() {
        for s in [Spectators::Open, Spectators::Broadcast, Spectators::Private] {
            let (p, b) = columns(s);
            assert_eq!(from_columns(p, b), s);
        }
        // Both set (never written so) reads as the option that shows less.
        assert_eq!(from_columns(1, 1), Spectators::Private);
    }
}
