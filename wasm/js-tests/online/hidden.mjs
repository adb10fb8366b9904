// What a spectator of a closed-hand Triple Triad match may receive: the public view only, every
// unplayed card closed, and no card named anywhere in a frame unless it lies on that frame's
// board. Used on every frame a spectator's socket received (Node client and browser alike).
import assert from "node:assert/strict";

/** Checks one frame (JSON text) a spectator received; returns whether it held a view. */
export function checkSpectatorFrame(frame) {
  const message = JSON.parse(frame);
  const view = message.view;
  if (!view) {
    assert.doesNotMatch(frame, /"ranks"/, `a frame without a view names no card: ${frame.slice(0, 200)}`);
    return false;
  }
  assert.equal(view.observation, null, "the public view has no seat's observation");
  for (const hand of view.public.hands) {
    for (const card of hand) assert.equal(card, null, "a closed hand shows no face");
  }
  const onBoard = new Set(view.public.board.filter(Boolean).map((p) => p.card.name));
  for (const [, name] of JSON.stringify(view).matchAll(/"name":"([^"]+)"/g)) {
    assert.ok(onBoard.has(name), `${name} is named but not on the board`);
  }
  return true;
}
