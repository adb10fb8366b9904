//! The saved form of a game (feature `serde`): its variant, its moves and its tile limit; loading
//! replays them (see the `Serialize` impl of [`Trax`]).

use super::notation::Move;
use super::state::Trax;
use super::variant::{Variant, DEFAULT_MAX_TILES};
use crate::Game;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    variant: Variant,
    moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_tiles: Option<u32>,
}

/// A game saves as its variant, its moves in notation and its tile limit when not the default:
/// `{"variant": "8x8", "moves": ["@0+", "B1/"]}`. Loading replays the moves, so a loaded game is
/// valid by construction: a move the rules (or the limit) refuse is a deserialisation error.
///
/// ```
/// use arbiter_core::Game;
/// use arbiter_core::trax::{Trax, Variant};
/// let g = Trax::replay(Variant::EightByEight, &["@0+".parse().unwrap()]).unwrap();
/// let json = serde_json::to_string(&g).unwrap();
/// assert_eq!(json, r#"{"variant":"8x8","moves":["@0+"]}"#);
/// assert_eq!(serde_json::from_str::<Trax>(&json).unwrap(), g);
/// assert!(serde_json::from_str::<Trax>(r#"{"variant":"8x8","moves":["@0\\"]}"#).is_err());
/// ```
impl Serialize for Trax {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Record {
            variant: self.variant,
            moves: self.history.iter().map(|m| m.to_string()).collect(),
            max_tiles: (self.max_tiles != DEFAULT_MAX_TILES).then_some(self.max_tiles),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Trax {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Trax, D::Error> {
        let r = Record::deserialize(d)?;
        let limit = r.max_tiles.unwrap_or(DEFAULT_MAX_TILES);
        let mut g = Trax::with_max_tiles(r.variant, limit).map_err(de::Error::custom)?;
        for (i, text) in r.moves.iter().enumerate() {
            let mv: Move = text
                .parse()
                .map_err(|e| de::Error::custom(format_args!("move {}: {e}", i + 1)))?;
            g.play(mv)
                .map_err(|e| de::Error::custom(format_args!("move {}: {e}", i + 1)))?;
        }
        Ok(g)
    }
}
