// The comparable game for boardgame.io: Triple Triad with the basic rule and closed hands, the
// game arbiter-server's load benchmark plays too. Each player holds five cards of four ranks
// (up, right, down, left; 1..10, drawn from the match's seed); a turn places one card of the hand
// on an empty cell of the 3x3 board, and every adjacent card of the opponent whose touching rank is
// lower changes owner. The board full, the player owning more cards (board and hand) wins. Each
// player sees only its own hand: playerView hides the other's, as arbiter-server's observations do.
const { INVALID_MOVE } = require("boardgame.io/core");

const SIDES = 4; // up, right, down, left
const HAND = 5;
// For each cell and side: the neighbouring cell, or -1 at the edge.
const NEIGHBOUR = Array.from({ length: 9 }, (_, cell) => {
  const row = Math.floor(cell / 3);
  const col = cell % 3;
  return [row > 0 ? cell - 3 : -1, col < 2 ? cell + 1 : -1, row < 2 ? cell + 3 : -1, col > 0 ? cell - 1 : -1];
});

function deal(random) {
  return Array.from({ length: HAND }, () => Array.from({ length: SIDES }, () => random.Die(10)));
}

function owned(G, player) {
  return G.board.filter((slot) => slot !== null && slot.owner === player).length + G.hands[player].length;
}

const TripleTriad = {
  name: "triple-triad",
  minPlayers: 2,
  maxPlayers: 2,
  setup: ({ random }) => ({ board: Array(9).fill(null), hands: { 0: deal(random), 1: deal(random) } }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    play: ({ G, playerID }, handIndex, cell) => {
      const hand = G.hands[playerID];
      if (!Number.isInteger(handIndex) || handIndex < 0 || handIndex >= hand.length) return INVALID_MOVE;
      if (!Number.isInteger(cell) || cell < 0 || cell > 8 || G.board[cell] !== null) return INVALID_MOVE;
      const [card] = hand.splice(handIndex, 1);
      G.board[cell] = { card, owner: playerID };
      NEIGHBOUR[cell].forEach((next, side) => {
        const other = next >= 0 ? G.board[next] : null;
        if (other !== null && other.owner !== playerID && card[side] > other.card[(side + 2) % SIDES]) {
          other.owner = playerID;
        }
      });
    },
  },
  endIf: ({ G }) => {
    if (G.board.some((slot) => slot === null)) return undefined;
    const blue = owned(G, "0");
    const red = owned(G, "1");
    return blue === red ? { draw: true } : { winner: blue > red ? "0" : "1" };
  },
  playerView: ({ G, playerID }) => ({
    board: G.board,
    hands: Object.fromEntries(
      Object.entries(G.hands).map(([player, hand]) => [player, player === playerID ? hand : hand.length]),
    ),
  }),
};

module.exports = { TripleTriad };
