// Trax against the computer: the real tiles in SVG on a board that grows with the game, the
// placements of a cell offered where the pointer (or focus) is, forced tiles falling in after
// each move, the winning track lit, the moves in official notation, undo.
import { Trax, describe } from "arbiter-engine/web";
import { GameView, h, helpLine, hintButton, labelled, messageLine, pause, randomSeed, howToPlay, say, toolbar, using, words } from "./ui.js";
import { has, onLanguage, t } from "./i18n.js";

// What each variant the engine declares (`describe("trax")`) is called here (`demo.trax.variant.*`;
// a variant the page does not know yet shows its code).
const variantName = (v) => (has(`demo.trax.variant.${v}`) ? t(`demo.trax.variant.${v}`) : v);
const colourName = (c) => t(`demo.trax.colour.${c}`);
const COLOUR = { white: "#f3efe4", red: "#d92b2b" };
// Edge n, e, s, w: where a track meets it.
const EDGE_POINT = [[50, 0], [100, 50], [50, 100], [0, 50]];

/** Column names of the official notation: `@` left of the area, then A..Z, AA.. (bijective). */
export function columnName(col) {
  if (col === 0) return "@";
  let name = "";
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** The two edges each colour's track joins on a tile, from the engine's edge colours. */
function tracks(tile) {
  const by = { white: [], red: [] };
  tile.edges.forEach((c, e) => by[c].push(e));
  return by;
}

/** The SVG path of a track joining edges `a` and `b`: straight across, or a quarter circle
 * around the corner they share. */
function trackPath(a, b) {
  const [[x1, y1], [x2, y2]] = [EDGE_POINT[a], EDGE_POINT[b]];
  if ((a + 2) % 4 === b) return `M${x1},${y1} L${x2},${y2}`;
  const cornerX = [a, b].includes(1) ? 100 : 0;
  const cornerY = [a, b].includes(2) ? 100 : 0;
  const sweep = (x1 - cornerX) * (y2 - cornerY) - (y1 - cornerY) * (x2 - cornerX) > 0 ? 1 : 0;
  return `M${x1},${y1} A50,50 0 0 ${sweep} ${x2},${y2}`;
}

/** A tile as drawn: black, two tracks; `lit` names the colour of a winning track on it. On
 * the straight face the track drawn second passes over the other. */
export function tileSvg(tile, { lit = null, cls = "" } = {}) {
  const by = tracks(tile);
  const order = tile.shape === "+" ? ["white", "red"] : ["white", "red"];
  return h(
    "svg:svg",
    { viewBox: "0 0 100 100", class: `tile ${cls}`, "aria-hidden": "true" },
    h("svg:rect", { x: 1, y: 1, width: 98, height: 98, rx: 6, fill: "#17171a" }),
    ["white", "red"].map((colour) => [
      tile.shape === "+" && colour === "red" ? h("svg:path", { d: trackPath(...by[colour]), stroke: "#17171a", "stroke-width": 30 }) : null,
      lit === colour ? h("svg:path", { d: trackPath(...by[colour]), class: "glow", stroke: "#ffd84a", "stroke-width": 34, "stroke-linecap": "butt", fill: "none" }) : null,
      h("svg:path", { d: trackPath(...by[colour]), stroke: COLOUR[colour], "stroke-width": 20, fill: "none" }),
    ]),
  );
}

class TraxView extends GameView {
  constructor(section) {
    super();
    this.section = section;
    const variants = describe("trax").options.find((o) => o.name === "variant");
    this.variantSelect = h(
      "select",
      { name: "trax-variant", ...labelled("demo.trax.variant") },
      variants.values.map((v) => words(h("option", { value: v, selected: v === variants.default }), () => variantName(v))),
    );
    this.sideSelect = h(
      "select",
      { name: "trax-side", ...labelled("demo.trax.you_play") },
      words(h("option", { value: "white" }), () => t("demo.trax.white_first")),
      words(h("option", { value: "red" }), () => t("demo.trax.red_second")),
    );
    this.undoButton = words(h("button", { type: "button", onclick: () => this.undo() }), () => t("demo.trax.undo"));
    this.tools = toolbar({
      game: "trax",
      levels: Trax.levels,
      level: Trax.levels.at(-1),
      start: (seed) => this.start(seed),
      extra: [
        h("label", {}, say("demo.trax.variant_label"), this.variantSelect),
        h("label", {}, say("demo.trax.you_play_label"), this.sideSelect),
        this.undoButton,
        hintButton(() => !this.game.isOver && this.game.toMove === this.you && this.hint(this.game, Trax.levels, (move) => t("demo.trax.hint", { move }))),
      ],
    });
    this.variantSelect.addEventListener("change", () => this.start(randomSeed()));
    this.sideSelect.addEventListener("change", () => this.start(this.seed));
    this.message = messageLine();
    this.help = helpLine();
    this.board = h("div", { class: "trax-board", role: "grid", ...labelled("board.board") });
    this.choices = h("div", { class: "choices", role: "group", ...labelled("board.placements"), hidden: true });
    this.moveList = h("ol", { class: "move-list trax-moves", ...labelled("match.moves") });
    this.info = h("p", { class: "trax-info" });
    this.result = h("div", { class: "result", "aria-live": "polite" });
    section.append(
      this.tools.bar,
      // The page draws the tiles: the terminal's way of writing them in letters is not for it.
      howToPlay("trax", { leave: ["ON THE SCREEN"] }),
      h(
        "div",
        { class: "trax-table" },
        h("div", { class: "trax-stage" }, this.board, this.choices),
        h("aside", { class: "trax-side" }, this.message, this.help, this.result, this.info, h("h3", {}, say("demo.trax.moves")), this.moveList),
      ),
    );
    addEventListener("resize", () => this.game && this.render());
    // The board's labels are drawn from the position: drawn again in the new words.
    onLanguage(() => this.game && this.render());
    section.addEventListener("keydown", (e) => e.key === "Escape" && this.closeChoices());
    // A click anywhere else closes the open choice.
    document.addEventListener("pointerdown", (e) => !e.target.closest?.(".choices, .cell.target") && this.closeChoices());
    this.game = null;
    this.start(randomSeed());
  }

  start(seed) {
    this.game?.free();
    this.restart(seed);
    this.you = this.sideSelect.value;
    this.game = new Trax(this.variantSelect.value);
    this.result.replaceChildren();
    this.run();
  }

  /** The legal moves grouped by target cell (`"B2"` → `["B2+", "B2/", "B2\\"]`). */
  targets() {
    const byCell = new Map();
    if (this.busy || this.game.toMove !== this.you) return byCell;
    for (const move of this.game.legalMoves()) {
      const cell = move.slice(0, -1);
      byCell.set(cell, [...(byCell.get(cell) ?? []), move]);
    }
    return byCell;
  }

  /** Draws the tiles and a ring of empty cells around them; `fresh` animates the last turn. */
  render({ fresh = false } = {}) {
    const game = this.game;
    const { cols, rows } = game.size;
    const targets = this.targets();
    const [you, variant] = [this.you, game.variant];
    this.explain(targets.size ? () => t(variant === "loop" ? "demo.trax.help_loop" : "demo.trax.help", { colour: colourName(you) }) : null);
    const turn = game.lastTurn();
    const win = game.win();
    // The engine names the cells of every winning track; the page only lights them.
    const lit = new Set((win?.tracks ?? []).flat().map(({ col, row }) => `${col},${row}`));
    const forcedOrder = new Map((turn?.forced ?? []).map((c, i) => [`${c.col},${c.row}`, i]));
    // The area and a ring of empty cells around it (one cell on an empty board); in 8x8 no
    // ring on a side where the area has reached eight.
    const full = (n) => game.variant === "8x8" && n >= 8;
    const [x0, y0] = game.tiles ? [full(cols) ? 1 : 0, full(rows) ? 1 : 0] : [0, 0];
    const [x1, y1] = game.tiles ? [full(cols) ? cols : cols + 1, full(rows) ? rows : rows + 1] : [0, 0];
    const [w, h_] = [x1 - x0 + 1, y1 - y0 + 1];
    // Tiles shrink as the board grows, to keep it on screen.
    const room = this.board.parentElement.clientWidth || 600;
    const size = Math.max(24, Math.min(88, Math.floor((room - 40) / w), Math.floor((innerHeight - 240) / h_)));
    this.board.style.setProperty("--tile", `${size}px`);
    this.board.style.gridTemplateColumns = `repeat(${w}, var(--tile))`;
    const cells = [];
    for (let row = y0; row <= y1; row++) {
      for (let col = x0; col <= x1; col++) {
        const inside = col >= 1 && row >= 1 && col <= cols && row <= rows;
        const tile = inside ? game.tileAt(col, row) : null;
        const name = `${columnName(col)}${row}`;
        const key = `${col},${row}`;
        if (tile) {
          const forced = forcedOrder.get(key);
          const placed = turn && turn.placed.col === col && turn.placed.row === row;
          cells.push(
            h(
              "div",
              {
                class: `cell tile-cell${fresh && placed ? " placed" : ""}${fresh && forced !== undefined ? " forced" : ""}${placed ? " last" : ""}`,
                role: "gridcell",
                "aria-label": t(forced !== undefined ? "demo.trax.tile_forced" : "board.tile", { cell: name, shape: tile.shape }),
                style: { "--i": forced ?? 0 },
              },
              tileSvg(tile, { lit: lit.has(key) ? win.winner : null }),
            ),
          );
        } else if (targets.has(name)) {
          cells.push(
            h("button", {
              type: "button",
              class: "cell target",
              "aria-label": t("board.cell_placements", { cell: name, count: targets.get(name).length }),
              dataset: { cell: name },
              // Pointing (or tabbing) at a cell previews its placements; a click, a tap or Enter
              // opens them to choose from. A preview never catches the pointer, so it cannot
              // hide the next cell a person reaches for.
              onpointerenter: (e) => e.pointerType === "mouse" && this.openChoices(e.currentTarget, targets.get(name), false),
              onpointerleave: () => this.choices.classList.contains("preview") && this.closeChoices(),
              onfocus: (e) => this.openChoices(e.currentTarget, targets.get(name), false),
              onclick: (e) => this.openChoices(e.currentTarget, targets.get(name), true),
            }),
          );
        } else cells.push(h("div", { class: "cell empty", role: "gridcell" }));
      }
    }
    this.board.replaceChildren(...cells);
    this.closeChoices();
    // Undo needs a move of the person's own to take back.
    this.undoButton.disabled = this.busy || this.game.toJSON().moves.length < (this.you === "white" ? 1 : 2);
    this.showMoves();
    const info = { count: game.tiles, cols, rows, seed: this.seed };
    words(this.info, () => t(game.variant === "8x8" ? "demo.trax.info_8x8" : "demo.trax.info", info));
  }

  showMoves() {
    const moves = this.game.toJSON().moves;
    this.moveList.replaceChildren(
      ...moves.map((m, i) => h("li", { class: i % 2 ? "red" : "white", dataset: { move: m } }, t(i % 2 ? "demo.trax.move_red" : "demo.trax.move_white", { move: m }))),
    );
    this.moveList.lastElementChild?.scrollIntoView?.({ block: "nearest" });
  }

  /** The placements of one cell, each drawn with the colours the engine gives it there (played
   * on a copy): the person sees the tile before choosing it. */
  openChoices(cell, moves, choose) {
    const open = !this.choices.hidden && this.choices.dataset.cell === cell.dataset.cell;
    if (open && choose && !this.choices.classList.contains("preview")) return this.closeChoices();
    if (!choose && open) return;
    if (!choose && !this.choices.hidden && !this.choices.classList.contains("preview")) return;
    this.choices.replaceChildren(
      ...moves.map((move) =>
        using(this.game.clone(), (copy) => {
          copy.play(move);
          const { placed, forced } = copy.lastTurn();
          const tile = copy.tileAt(placed.col, placed.row);
          return h(
            "button",
            {
              type: "button",
              class: "choice",
              dataset: { move },
              "aria-label": forced.length ? t("demo.trax.play_forcing", { move, count: forced.length }) : t("board.play", { move }),
              tabindex: choose ? null : "-1",
              onclick: () => this.play(move),
            },
            tileSvg(tile),
            h("span", {}, move, forced.length ? h("small", {}, ` +${forced.length}`) : null),
          );
        }),
      ),
    );
    this.choices.dataset.cell = cell.dataset.cell;
    this.choices.classList.toggle("preview", !choose);
    this.choices.hidden = false;
    // Beside the cell, inside the stage.
    const stage = this.choices.parentElement.getBoundingClientRect();
    const box = cell.getBoundingClientRect();
    const width = this.choices.offsetWidth;
    const left = Math.min(Math.max(0, box.left - stage.left + box.width / 2 - width / 2), stage.width - width);
    const below = box.top - stage.top - this.choices.offsetHeight - 6 < 0;
    this.choices.style.left = `${left}px`;
    this.choices.style.top = `${below ? box.bottom - stage.top + 6 : box.top - stage.top - this.choices.offsetHeight - 6}px`;
    if (choose && cell.matches(":focus-visible")) this.choices.querySelector("button")?.focus();
  }

  closeChoices() {
    this.choices.hidden = true;
    // Its tiles were drawn for the position (and in the words) of the moment it opened.
    this.choices.replaceChildren();
    delete this.choices.dataset.cell;
  }

  async play(move) {
    if (this.busy || this.game.toMove !== this.you) return;
    await this.turn(move, "you");
    this.advance();
  }

  /** Plays `move` for `who` (`you` or `computer`) and shows it. */
  async turn(move, who) {
    const generation = this.generation;
    this.busy = true;
    this.game.play(move);
    const forced = this.game.lastTurn().forced.length;
    this.render({ fresh: true });
    words(this.message, () => t(forced ? `demo.trax.played_forcing.${who}` : `demo.trax.played.${who}`, { move, count: forced }));
    // Wait for the forced tiles' animation (staggered in CSS) before the next turn.
    await pause(400 + 180 * forced);
    if (generation === this.generation) this.busy = false;
  }

  async advance() {
    const generation = this.generation;
    while (!this.game.isOver && this.game.toMove !== this.you) {
      this.busy = true;
      this.render();
      words(this.message, () => t("demo.trax.thinking"));
      await pause(300);
      if (generation !== this.generation) return;
      const ply = this.game.toJSON().moves.length;
      const move = await this.think(this.game, this.tools.level, this.seed * 1000 + ply);
      if (generation !== this.generation) return;
      await this.turn(move, "computer");
      if (generation !== this.generation) return;
    }
    this.busy = false;
    this.render();
    if (this.game.isOver) this.finish();
    else {
      const you = this.you;
      words(this.message, () => t("demo.trax.your_move", { colour: colourName(you) }));
    }
  }

  finish() {
    const win = this.game.win();
    const outcome = this.game.outcome;
    const by = win ? [win.by_loop && "loop", win.by_line && "line"].filter(Boolean).join("+") : "";
    const yours = win?.winner === this.you;
    const text = () => (win ? t(yours ? "demo.trax.you_win" : "demo.trax.computer_wins", { colour: colourName(win.winner), how: t(`demo.trax.by.${by.replace("+", "_")}`) }) : t("demo.trax.draw"));
    const over = { turns: this.game.toJSON().moves.length, count: this.game.tiles };
    words(this.message, () => t("demo.trax.over", over));
    this.section.dataset.state = "over";
    this.result.replaceChildren(words(h("p", { class: `final ${win?.winner ?? "draw"}`, "data-winner": outcome, "data-by": by }), text));
  }

  /** Takes back turns until it is the person's move again, their own last move included. */
  undo() {
    if (this.busy) return;
    this.game.undo();
    while (this.game.tiles && this.game.nextPlayer !== this.you) this.game.undo();
    this.result.replaceChildren();
    this.section.dataset.state = "playing";
    words(this.message, () => t("demo.trax.undone"));
    this.advance();
  }
}

export function mount(section) {
  return new TraxView(section);
}
