//! Actions and their notation (`discard 5m`, `pong`, `declare_triple 2s`, …).

use core::fmt;
use core::str::FromStr;

use super::card::Kind;

/// One player's action.
///
/// ```
/// use arbiter_core::nantong::Action;
/// let a: Action = "concealed_kong 5m".parse().unwrap();
/// assert_eq!(a.to_string(), "concealed_kong 5m");
/// assert!("discard".parse::<Action>().is_err());
/// assert!("discard 5x".parse::<Action>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Discard a card.
    Discard(Kind),
    /// Win (self-draw, heavenly, on a discard or robbing a kong).
    Win,
    /// Decline a claim.
    Pass,
    /// Claim a discard for a pong.
    Pong,
    /// Claim a discard for a kong.
    Kong,
    /// Declare four identical from the hand.
    ConcealedKong(Kind),
    /// Add the fourth card to a pong.
    AddKong(Kind),
    /// Opening declaration of four dealt identical cards.
    DeclareFour(Kind),
    /// Opening declaration of three dealt cards matching an indicator.
    DeclareTriple(Kind),
    /// Opening declaration of a Tiandi Hezi.
    DeclareHezi,
    /// Declare ready (one card from winning) and end preparation.
    Ready,
    /// End preparation.
    Finish,
}

impl Action {
    /// The number of distinct action ids.
    pub const COUNT: usize = 157;

    /// A dense id in `0..Action::COUNT`.
    pub fn id(self) -> usize {
        match self {
            Action::Discard(k) => k.index(),
            Action::ConcealedKong(k) => 30 + k.index(),
            Action::AddKong(k) => 60 + k.index(),
            Action::DeclareFour(k) => 90 + k.index(),
            Action::DeclareTriple(k) => 120 + k.index(),
            Action::Win => 150,
            Action::Pass => 151,
            Action::Pong => 152,
            Action::Kong => 153,
            Action::DeclareHezi => 154,
            Action::Ready => 155,
            Action::Finish => 156,
        }
    }

    /// The action with id `id`.
    pub fn from_id(id: usize) -> Option<Action> {
        let k = |base: usize| Kind::from_index(id - base);
        Some(match id {
            0..30 => Action::Discard(k(0)?),
            30..60 => Action::ConcealedKong(k(30)?),
            60..90 => Action::AddKong(k(60)?),
            90..120 => Action::DeclareFour(k(90)?),
            120..150 => Action::DeclareTriple(k(120)?),
            150 => Action::Win,
            151 => Action::Pass,
            152 => Action::Pong,
            153 => Action::Kong,
            154 => Action::DeclareHezi,
            155 => Action::Ready,
            156 => Action::Finish,
            _ => return None,
        })
    }
}

impl fmt::Display for Action {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard(k) => write!(f, "discard {k}"),
            Action::Win => f.write_str("win"),
            Action::Pass => f.write_str("pass"),
            Action::Pong => f.write_str("pong"),
            Action::Kong => f.write_str("kong"),
            Action::ConcealedKong(k) => write!(f, "concealed_kong {k}"),
            Action::AddKong(k) => write!(f, "add_kong {k}"),
            Action::DeclareFour(k) => write!(f, "declare_four {k}"),
            Action::DeclareTriple(k) => write!(f, "declare_triple {k}"),
            Action::DeclareHezi => f.write_str("declare_hezi"),
            Action::Ready => f.write_str("ready"),
            Action::Finish => f.write_str("finish"),
        }
    }
}

/// Malformed action text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed action {0:?}: expected e.g. `discard 5m`, `win`, `pass`, `pong`, `kong`, `concealed_kong 5m`, `add_kong 5m`, `declare_four 5m`, `declare_triple 2s`, `declare_hezi`, `ready` or `finish`")]
pub struct BadAction(pub alloc::string::String);

impl FromStr for Action {
    type Err = BadAction;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadAction(crate::error::quote(s));
        let mut words = s.split_whitespace();
        let verb = words.next().ok_or_else(bad)?;
        let card = words.next();
        if words.next().is_some() {
            return Err(bad());
        }
        let kind = || -> Result<Kind, BadAction> { card.ok_or_else(bad)?.parse().map_err(|_| bad()) };
        let plain = |a: Action| if card.is_none() { Ok(a) } else { Err(bad()) };
        match verb {
            "discard" => Ok(Action::Discard(kind()?)),
            "concealed_kong" => Ok(Action::ConcealedKong(kind()?)),
            "add_kong" => Ok(Action::AddKong(kind()?)),
            "declare_four" => Ok(Action::DeclareFour(kind()?)),
            "declare_triple" => Ok(Action::DeclareTriple(kind()?)),
            "win" => plain(Action::Win),
            "pass" => plain(Action::Pass),
            "pong" => plain(Action::Pong),
            "kong" => plain(Action::Kong),
            "declare_hezi" => plain(Action::DeclareHezi),
            "ready" => plain(Action::Ready),
            "finish" => plain(Action::Finish),
            _ => Err(bad()),
        }
    }
}

/// As its notation, `"discard 5m"`.
#[cfg(feature = "serde")]
impl serde::Serialize for Action {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Action {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <alloc::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn ids_are_dense_and_round_trip() {
        for id in 0..Action::COUNT {
            let a = Action::from_id(id).unwrap();
            assert_eq!(a.id(), id);
            assert_eq!(a.to_string().parse::<Action>().unwrap(), a);
        }
        assert_eq!(Action::from_id(Action::COUNT), None);
    }
}
