//! Edges, colours, tiles and the three notation shapes.

use core::fmt;

/// Edge numbers: north, east, south, west.
pub(crate) const N: u8 = 0;
pub(crate) const E: u8 = 1;
pub(crate) const S: u8 = 2;
pub(crate) const W: u8 = 3;

/// The opposite edge.
#[inline(always)]
pub(crate) const fn opposite(e: u8) -> u8 {
    e ^ 2
}

/// A track colour, which is also a player: white moves first.
///
/// ```
/// use arbiter_core::trax::Colour;
/// assert_eq!(Colour::White.other(), Colour::Red);
/// assert_eq!(Colour::Red.to_string(), "red");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Colour {
    /// White (moves first).
    White = 0,
    /// Red.
    Red = 1,
}

impl Colour {
    /// The other colour.
    pub const fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Red,
            Colour::Red => Colour::White,
        }
    }

    /// `"white"` or `"red"`.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Red => "red",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The notation symbol of a tile: which way its tracks run, not their colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Shape {
    /// `+`: two straight tracks crossing.
    Straight,
    /// `/`: arcs joining north–west and east–south.
    Slash,
    /// `\`: arcs joining north–east and west–south.
    Backslash,
}

impl Shape {
    /// The three shapes, in notation order `+ / \`.
    pub const ALL: [Shape; 3] = [Shape::Straight, Shape::Slash, Shape::Backslash];

    /// The notation character.
    pub const fn symbol(self) -> char {
        match self {
            Shape::Straight => '+',
            Shape::Slash => '/',
            Shape::Backslash => '\\',
        }
    }

    /// The two tiles (red-edge masks) of this shape.
    pub(crate) const fn tiles(self) -> [Tile; 2] {
        match self {
            Shape::Straight => [Tile(0b0101), Tile(0b1010)],
            Shape::Slash => [Tile(0b1001), Tile(0b0110)],
            Shape::Backslash => [Tile(0b0011), Tile(0b1100)],
        }
    }
}

/// One of the six oriented tiles: the mask of its two red edges (bit `e` = edge `e`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile(pub(crate) u8);

impl Tile {
    /// The tile whose edges of `colour` are exactly `edges` (a mask with two bits set).
    #[inline(always)]
    pub(crate) const fn joining(colour: Colour, edges: u8) -> Tile {
        match colour {
            Colour::Red => Tile(edges),
            Colour::White => Tile(!edges & 0xF),
        }
    }

    /// The colour of edge `e`.
    #[inline(always)]
    pub const fn colour(self, e: u8) -> Colour {
        if self.0 >> e & 1 != 0 {
            Colour::Red
        } else {
            Colour::White
        }
    }

    /// The edges of `colour`, as a mask.
    #[inline(always)]
    pub(crate) const fn edges(self, colour: Colour) -> u8 {
        match colour {
            Colour::Red => self.0,
            Colour::White => !self.0 & 0xF,
        }
    }

    /// The notation shape.
    pub const fn shape(self) -> Shape {
        match self.0 {
            0b0101 | 0b1010 => Shape::Straight,
            0b1001 | 0b0110 => Shape::Slash,
            _ => Shape::Backslash,
        }
    }

    /// Box-drawing picture of the tile's red track (for terminals).
    pub fn red_glyph(self) -> char {
        match self.0 {
            0b0101 => '│',
            0b1010 => '─',
            0b0011 => '└',
            0b0110 => '┌',
            0b1100 => '┐',
            _ => '┘',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_tiles_two_per_shape_with_two_red_edges() {
        let mut all: alloc::vec::Vec<u8> = Shape::ALL.iter().flat_map(|s| s.tiles()).map(|t| t.0).collect();
        all.sort();
        assert_eq!(all, [0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
        for s in Shape::ALL {
            for t in s.tiles() {
                assert_eq!(t.shape(), s);
                assert_eq!(t.0.count_ones(), 2);
            }
        }
        // The first move's tiles: @0+ red west-east, @0/ red east-south.
        assert_eq!(Shape::Straight.tiles()[1].colour(E), Colour::Red);
        assert_eq!(Shape::Slash.tiles()[1].edges(Colour::Red), 1 << E | 1 << S);
        assert_eq!(Tile::joining(Colour::White, 1 << N | 1 << W).0, 0b0110);
    }
}
