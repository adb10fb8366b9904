// The boards of the Online tab: each draws a match from what the server sent this page (a seat's
// own view, or a spectator's public one) with the pieces the offline pages draw with, and hands
// the move a person picks to `onMove` (the server decides whether it is legal). Nothing here
// knows a rule: Trax is replayed by the engine from its public record, Nantong's actions are the
// server's list, a Triple Triad card goes to any empty cell and the server answers.
import { Trax } from "arbiter-engine/web";
import { h, using } from "./ui.js";
import { t } from "./i18n.js";
import { cardFace, cardLabel, elementIcon, wallMarks } from "./tripletriad.js";
import { columnName, tileSvg } from "./trax.js";
import { cardName, describe, handsAtEnd, longCard, meldCards } from "./nantong.js";

const cellName = (cell) => t(`cell.${cell}`);
const TT_PLAYERS = ["blue", "red"];

/** A seat's name as the match lists it. */
export function seatName(summary, seat) {
  const s = summary?.seats?.[seat];
  if (!s) return t("seat.number", { seat });
  if (s.kind === "computer") return t(s.name ? "seat.robot" : "seat.computer", { name: s.name, level: t(`level.${s.level}`) });
  return s.name ?? t("seat.open");
}

/** The rounds line: the round being played, then how each finished one ended (a long sudden
 * death's draws before the last three counted in one, with those the server only counts,
 * `rounds_before`). Once the match is over its last round is among the finished ones (the core's
 * round number stays on it), so only those are listed. */
export function roundsText(view, over) {
  const rounds = view.rounds;
  const drawn = rounds.length > 4 && rounds.slice(0, -3).every((r) => !r.winner) ? rounds.length - 3 : 0;
  const early = (view.rounds_before ?? 0) + drawn;
  const done = [
    ...(early ? [t("rounds.early_draws", { last: early })] : []),
    ...rounds.slice(drawn).map((r, i) =>
      t(r.winner ? "rounds.won" : "rounds.drawn", { round: early + i + 1, colour: r.winner && t(`colour.${r.winner}`), scores: r.scores.join("–") }),
    ),
  ];
  const listed = done.join(", ");
  // The finished rounds alone begin the line: with a capital.
  if (over) return done.length ? t("rounds.over", { rounds: listed[0].toUpperCase() + listed.slice(1) }) : "";
  return done.length ? t("rounds.playing_after", { round: view.round, rounds: listed }) : t("rounds.playing", { round: view.round });
}

export class TripleTriadBoard {
  constructor(onMove) {
    this.onMove = onMove;
    this.selected = null;
    this.board = h("div", { class: "tt-board", role: "grid", "aria-label": t("board.board") });
    this.hands = [h("div", { class: "hand blue" }), h("div", { class: "hand red" })];
    this.titles = [h("h2", {}), h("h2", {})];
    this.rounds = h("p", { class: "online-rounds" });
    this.element = h(
      "div",
      { class: "tt online-tt" },
      h(
        "div",
        { class: "tt-table" },
        h("div", { class: "side blue" }, this.titles[0], this.hands[0]),
        h("div", { class: "centre" }, this.board, this.rounds),
        h("div", { class: "side red" }, this.titles[1], this.hands[1]),
      ),
    );
  }

  update(match) {
    this.match = match;
    const view = match.view;
    const obs = view.observation;
    const you = obs ? TT_PLAYERS.indexOf(obs.player) : -1;
    const table = obs ?? view.public;
    const yourTurn = obs !== null && match.toMove === match.seat && !match.isOver;
    if (!yourTurn) this.selected = null;
    // A seat sees its hand and the other's as the rules show it; a spectator both as the public does.
    const hands = obs ? (you === 0 ? [obs.hand, obs.opponent_hand] : [obs.opponent_hand, obs.hand]) : view.public.hands;
    this.element.dataset.turn = match.isOver ? "over" : TT_PLAYERS[match.toMove] ?? "over";
    for (const p of [0, 1]) {
      this.titles[p].textContent = t("board.title", { name: p === you ? t("board.you") : seatName(match.summary, p), colour: t(`colour.${TT_PLAYERS[p]}`) });
      this.hands[p].setAttribute("aria-label", p === you ? t("board.your_hand") : t("board.hand_of", { colour: t(`colour.${TT_PLAYERS[p]}`) }));
      this.hands[p].replaceChildren(
        ...hands[p].map((card, i) => {
          if (p === you) {
            return h(
              "button",
              {
                type: "button",
                class: `ttcard ${TT_PLAYERS[p]} in-hand${this.selected === i ? " selected" : ""}`,
                "aria-pressed": String(this.selected === i),
                "aria-label": cardLabel(card),
                "aria-disabled": yourTurn ? null : "true",
                dataset: { index: i },
                onclick: () => this.select(i),
              },
              cardFace(card),
            );
          }
          return card
            ? h("div", { class: `ttcard ${TT_PLAYERS[p]} in-hand`, role: "img", "aria-label": cardLabel(card) }, cardFace(card))
            : h("div", { class: "ttcard back in-hand", role: "img", "aria-label": t("board.hidden_card") });
        }),
      );
    }
    this.board.replaceChildren(
      ...table.board.map((placed, cell) => {
        const element = table.rules.elemental ? table.elements[cell] : null;
        const walls = wallMarks(table.walls, cell);
        const target = yourTurn && this.selected !== null && placed === null;
        // The ranks the card fights with, as the server's core reckons them (Elemental's ±1).
        const ranks = placed ? (view.effective?.[cell] ?? placed.card.ranks) : null;
        return h(
          "button",
          {
            type: "button",
            class: `cell${target ? " legal" : ""}${placed ? " taken" : ""}`,
            dataset: { cell },
            "aria-label": `${cellName(cell)}${t("colon")}${placed ? t("board.placed", { colour: t(`colour.${placed.owner}`), card: cardLabel(placed.card, ranks) }) : t("board.empty")}${walls.words}`,
            "aria-disabled": target ? null : "true",
            onclick: () => target && this.onMove(`${this.selected}@${cell}`),
          },
          element ? elementIcon(element, "cell-element") : null,
          ...walls.marks,
          placed ? h("div", { class: `ttcard ${placed.owner}` }, cardFace(placed.card, ranks)) : null,
        );
      }),
    );
    this.rounds.textContent = roundsText(view, match.isOver);
  }

  select(i) {
    this.selected = this.selected === i ? null : i;
    this.update(this.match);
  }
}

export class TraxBoard {
  constructor(onMove) {
    this.onMove = onMove;
    this.board = h("div", { class: "trax-board", role: "grid", "aria-label": t("board.board") });
    this.choices = h("div", { class: "choices", role: "group", "aria-label": t("board.placements"), hidden: true });
    this.element = h("div", { class: "trax online-trax" }, h("div", { class: "trax-stage" }, this.board, this.choices));
  }

  update(match) {
    this.match = match;
    this.game?.free();
    const { variant, moves } = match.view.observation;
    // Nothing in Trax is hidden: the engine replays the public record to draw it and to list
    // the placements (the server still judges the move sent).
    this.game = new Trax(variant);
    for (const move of moves) this.game.play(move);
    const game = this.game;
    const yourTurn = match.seat !== null && match.toMove === match.seat && !match.isOver;
    const targets = new Map();
    if (yourTurn) {
      for (const move of game.legalMoves()) {
        const cell = move.slice(0, -1);
        targets.set(cell, [...(targets.get(cell) ?? []), move]);
      }
    }
    const turn = game.lastTurn();
    const win = game.win();
    // The core names the cells of every winning track.
    const lit = new Set((win?.tracks ?? []).flat().map(({ col, row }) => `${col},${row}`));
    const { cols, rows } = game.size;
    const ring = (n) => (game.tiles === 0 ? [0, 0] : [variant === "8x8" && n >= 8 ? 1 : 0, variant === "8x8" && n >= 8 ? n : n + 1]);
    const [x0, x1] = ring(cols);
    const [y0, y1] = ring(rows);
    this.board.style.gridTemplateColumns = `repeat(${x1 - x0 + 1}, var(--tile))`;
    const cells = [];
    for (let row = y0; row <= y1; row++) {
      for (let col = x0; col <= x1; col++) {
        const tile = col >= 1 && row >= 1 && col <= cols && row <= rows ? game.tileAt(col, row) : null;
        const name = `${columnName(col)}${row}`;
        if (tile) {
          const last = turn && turn.placed.col === col && turn.placed.row === row;
          cells.push(
            h(
              "div",
              { class: `cell tile-cell${last ? " last" : ""}`, role: "gridcell", "aria-label": t("board.tile", { cell: name, shape: tile.shape }) },
              tileSvg(tile, { lit: lit.has(`${col},${row}`) ? win.winner : null }),
            ),
          );
        } else if (targets.has(name)) {
          cells.push(
            h("button", {
              type: "button",
              class: "cell target",
              "aria-label": t("board.cell_placements", { cell: name, count: targets.get(name).length }),
              dataset: { cell: name },
              onclick: (e) => this.openChoices(e.currentTarget, targets.get(name)),
            }),
          );
        } else cells.push(h("div", { class: "cell empty", role: "gridcell" }));
      }
    }
    this.board.replaceChildren(...cells);
    this.choices.hidden = true;
  }

  /** The placements of one cell, each drawn as the engine places it (on a copy). */
  openChoices(cell, moves) {
    this.choices.replaceChildren(
      ...moves.map((move) =>
        using(this.game.clone(), (copy) => {
          copy.play(move);
          const { placed } = copy.lastTurn();
          return h(
            "button",
            { type: "button", class: "choice", dataset: { move }, "aria-label": t("board.play", { move }), onclick: () => this.onMove(move) },
            tileSvg(copy.tileAt(placed.col, placed.row)),
            h("span", {}, move),
          );
        }),
      ),
    );
    const stage = this.choices.parentElement.getBoundingClientRect();
    const box = cell.getBoundingClientRect();
    this.choices.style.left = `${box.right - stage.left + 4}px`;
    this.choices.style.top = `${box.top - stage.top}px`;
    this.choices.hidden = false;
  }
}

export class NantongBoard {
  constructor(onMove) {
    this.onMove = onMove;
    this.table = h("div", { class: "nt-table" });
    this.hand = h("div", { class: "nt-hand", "aria-label": t("board.your_hand") });
    this.actions = h("div", { class: "actions", role: "group", "aria-label": t("board.your_actions") });
    this.totals = h("p", { class: "online-totals" });
    this.last = h("section", { class: "online-last-deal" });
    this.element = h("div", { class: "nt online-nt" }, this.totals, this.table, this.hand, this.actions, this.last);
  }

  update(match) {
    const view = match.view;
    const obs = view.observation;
    const yourTurn = match.seat !== null && !match.isOver;
    this.totals.textContent = t("nantong.totals", { deal: view.deal, deals: view.deals, totals: view.totals.join(" / "), stock: obs.stock, indicators: obs.indicators.map(cardName).join(", ") });
    this.table.replaceChildren(
      ...[0, 1, 2].map((seat) =>
        h(
          "section",
          { class: `seat seat-${seat}${obs.to_act === seat ? " acting" : ""}`, "aria-label": seatName(match.summary, seat) },
          h(
            "h2",
            {},
            seat === match.seat ? t("board.you") : seatName(match.summary, seat),
            obs.dealer === seat ? h("span", { class: "tag dealer" }, t("nantong.dealer")) : null,
            h("span", { class: "count" }, t("nantong.in_hand", { count: obs.hand_sizes[seat] })),
          ),
          h(
            "div",
            { class: "melds", "aria-label": t("nantong.melds") },
            obs.melds[seat].map((m) => h("span", { class: "meld" }, meldCards(m).map((c) => longCard(c, { cls: "small" })))),
          ),
          h(
            "div",
            { class: "discards", "aria-label": t("nantong.discards") },
            obs.discards.filter(([s]) => s === seat).map(([, c]) => longCard(c, { cls: "small" })),
          ),
        ),
      ),
    );
    this.hand.hidden = match.seat === null;
    this.hand.replaceChildren(...obs.hand.map((c) => longCard(c)));
    // A question whose only answer is pass is the server's to answer (PROTOCOL.md, "Forced passes").
    const forced = obs.actions.length === 1 && obs.actions[0] === "pass";
    this.actions.replaceChildren(
      ...(yourTurn && forced
        ? [h("span", { class: "forced" }, t("nantong.forced"))]
        : (yourTurn ? obs.actions : []).map((action) =>
            h("button", { type: "button", class: "action", dataset: { action }, onclick: () => this.onMove(action) }, describe(action)),
          )),
    );
    this.showLastDeal(match);
  }

  /** The last finished deal as the server shows it to everyone once it is over: every hand, who
   * won on what, the settlement. */
  showLastDeal(match) {
    const last = match.view.last_deal;
    this.last.hidden = !last;
    if (!last) return this.last.replaceChildren();
    const names = [0, 1, 2].map((s) => (s === match.seat ? "You" : seatName(match.summary, s)));
    const win = last.win;
    const said = !win ? t("nantong.exhausted") : win.heavenly ? t("nantong.heavenly", { player: names[win.seat] }) : t("nantong.won_on", { player: names[win.seat], card: cardName(win.card) });
    const settlement = last.score.settlement.map((v, s) => `${names[s]} ${v > 0 ? "+" : ""}${v}`).join(", ");
    this.last.replaceChildren(
      h("h3", {}, t("nantong.deal_end", { deal: match.view.deal_results.length })),
      h("p", { class: "final", dataset: { winner: win ? String(win.seat) : "none" } }, said),
      handsAtEnd(last.hands, names, win),
      h("p", {}, t("nantong.settlement", { list: settlement })),
    );
  }
}

/** The board for a match's game. */
export function boardFor(game, onMove) {
  const Board = { "triple-triad": TripleTriadBoard, trax: TraxBoard, nantong: NantongBoard }[game];
  return new Board(onMove);
}
