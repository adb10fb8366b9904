//! Nantong input from outside: scoring input that no deal can produce, seats out of range,
//! crafted saves. Every one is refused with an error, never a panic.

use arbiter_core::nantong::{NoSuchSeat, Seat};
use arbiter_core::{Error, ErrorKind};

const S0: Seat = Seat::ALL[0];
const S1: Seat = Seat::ALL[1];
const S2: Seat = Seat::ALL[2];

#[test]
fn seats_exist_only_in_range() {
    assert_eq!(Seat::new(3), None);
    assert_eq!(Seat::try_from(255), Err(NoSuchSeat(255)));
    assert_eq!(Seat::ALL.map(|s| s.next()), [S1, S2, S0]);
    assert_eq!(Seat::ALL.map(u8::from), [0, 1, 2]);
    let e: Error = NoSuchSeat(7).into();
    assert_eq!(e.kind(), ErrorKind::BadArgument);
}

#[cfg(feature = "serde")]
mod json {
    use super::*;
    use arbiter_core::nantong::{Nantong, Observation};
    use arbiter_core::Game;
    use serde_json::json;

    #[test]
    fn seats_from_json_are_checked() {
        // Issue: a seat read from outside was trusted, and `Seat(3)` indexed out of bounds.
        assert_eq!(serde_json::from_str::<Seat>("2").unwrap(), S2);
        for bad in ["3", "255", "256", "-1", "\"1\""] {
            assert!(serde_json::from_str::<Seat>(bad).is_err(), "{bad}");
        }
        let g = Nantong::new(4);
        let mut o = serde_json::to_value(g.observation(S0)).unwrap();
        o["seat"] = json!(3);
        assert!(serde_json::from_value::<Observation>(o).is_err());
    }
}
