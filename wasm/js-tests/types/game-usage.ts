// The per-game entries as a consumer uses them; checked by `tsc -p js-tests/types` (never run).
import initTripleTriad, { ArbiterError, TripleTriad, type TripleTriadNotation } from "arbiter-engine/tripletriad";
import { TripleTriadMatch } from "arbiter-engine/tripletriad-match";
import { Trax, type TraxWin } from "arbiter-engine/trax";
import { Nantong, type NantongSeat } from "arbiter-engine/nantong";
// @ts-expect-error: a game's entry has that game alone
import { Trax as NoTrax } from "arbiter-engine/tripletriad";
// @ts-expect-error: matches have their own entry
import { TripleTriadMatch as NoMatch } from "arbiter-engine/tripletriad";

export async function play(): Promise<[TripleTriadNotation | null, TraxWin | null, NantongSeat | null, boolean]> {
  await initTripleTriad();
  const round = TripleTriad.fromPreset("ff8", 1);
  const match = TripleTriadMatch.fromPreset("mush", 2);
  const trax = new Trax("8x8");
  const deal = new Nantong(3n);
  const small: number = new Nantong(3n, { groups: 1, kinds: 5 }).groups + Nantong.deal([], 0, 0).kinds;
  // @ts-expect-error: a deal's size is its groups and kinds, not a match's deals
  void new Nantong(3, { deals: 2 }), small;
  return [round.chooseMove("expert", 1), trax.win(), deal.actor, match.isOver || NoTrax === undefined || NoMatch === undefined || new ArbiterError("BAD_ARGUMENT", "") instanceof Error];
}
