// The Online tab's notices of what happened away from the player's own clicks: a challenge that
// ended on the other side, a Triple Triad round that ended in a draw.
import { list, t } from "./i18n.js";

/** The players a challenge named, its challenger aside. */
const named = (challenge) => challenge.seats.filter((s) => s.kind === "player" && s.name !== challenge.by.name).map((s) => s.name);

/** What the player `me` is told when `challenge` closes for `reason` (`challenge_closed`), or
 * null: a refusal is told to the challenger, a withdrawal to the players it named, a picking
 * window that ran out to everyone seated; a started match tells itself. */
export function closedNotice(challenge, reason, me) {
  const mine = challenge.by.id === me.id;
  if (reason === "refused" && mine) {
    const who = named(challenge);
    return who.length ? t("notice.refused", { players: list(who), count: who.length }) : t("notice.refused_anyone");
  }
  if (reason === "withdrawn" && !mine && named(challenge).includes(me.name)) return t("notice.withdrawn", { player: challenge.by.name });
  if (reason === "pick_timeout") return t("notice.pick_timeout");
  return null;
}

/** What a Triple Triad match's view says when a new round began after a draw, or null:
 * `before` is the round shown until now, `view` the new view. */
export function roundNotice(before, view) {
  if (!(before >= 1) || !(view?.round > before)) return null;
  const finished = (view.rounds ?? [])[before - 1 - (view.rounds_before ?? 0)];
  if (!finished || finished.winner) return null;
  const first = (view.observation ?? view.public)?.to_move;
  const words = { round: before, scores: finished.scores.join("–"), next: view.round };
  return first ? t("notice.round_drawn_first", { ...words, colour: t(`colour.${first}`) }) : t("notice.round_drawn", words);
}
