// Trax against the computer: the real tiles in SVG on a board that grows with the game, the
// placements of a cell offered where the pointer (or focus) is, forced tiles falling in after
// each move, the winning track lit, the moves in official notation, undo.
import { Trax, describe } from "arbiter-engine/web";
import { GameView, h, helpLine, hintButton, messageLine, pause, randomSeed, howToPlay, toolbar, using } from "./ui.js";

// New page texts of this file, in English (the i18n lane moves them into the catalogs).
const PAGE_TEXT = {
  yourMove: (colour, variant) =>
    `Your move (${colour}): place a tile so that its track colours match its neighbours' (a highlighted cell offers the tiles that fit). ` +
    "Tiles the placement forces (a cell where two tracks of one colour meet) fall in by themselves, and they can win for either side. " +
    `You win with a loop of your colour${variant === "loop" ? "" : ", or a line of it from one edge of the play area to the opposite one eight or more cells away"}.`,
  hintWords: (move) => `play ${move}`,
};

// What each variant the engine declares (`describe("trax")`) is called here.
const VARIANT_LABELS = { "8x8": "8x8 (the classic)", unbounded: "Supertrax (unbounded)", loop: "Loop Trax" };
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
      { name: "trax-variant", "aria-label": "Variant" },
      variants.values.map((v) => h("option", { value: v, selected: v === variants.default }, VARIANT_LABELS[v] ?? v)),
    );
    this.sideSelect = h("select", { name: "trax-side", "aria-label": "You play" }, h("option", { value: "white" }, "white (first)"), h("option", { value: "red" }, "red (second)"));
    this.undoButton = h("button", { type: "button", onclick: () => this.undo() }, "Undo");
    this.tools = toolbar({
      game: "trax",
      levels: Trax.levels,
      level: Trax.levels.at(-1),
      start: (seed) => this.start(seed),
      extra: [
        h("label", {}, "Variant ", this.variantSelect),
        h("label", {}, "You play ", this.sideSelect),
        this.undoButton,
        hintButton(() => !this.game.isOver && this.game.toMove === this.you && this.hint(this.game, Trax.levels, PAGE_TEXT.hintWords)),
      ],
    });
    this.variantSelect.addEventListener("change", () => this.start(randomSeed()));
    this.sideSelect.addEventListener("change", () => this.start(this.seed));
    this.message = messageLine();
    this.help = helpLine();
    this.board = h("div", { class: "trax-board", role: "grid", "aria-label": "Board" });
    this.choices = h("div", { class: "choices", role: "group", "aria-label": "Placements", hidden: true });
    this.moveList = h("ol", { class: "move-list trax-moves", "aria-label": "Moves" });
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
        h("aside", { class: "trax-side" }, this.message, this.help, this.result, this.info, h("h3", {}, "Moves (official notation)"), this.moveList),
      ),
    );
    addEventListener("resize", () => this.game && this.render());
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
    this.explain(targets.size ? PAGE_TEXT.yourMove(this.you, game.variant) : "");
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
                "aria-label": `${name}: tile ${tile.shape}${forced !== undefined ? " (forced)" : ""}`,
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
              "aria-label": `${name}: ${targets.get(name).length} placements`,
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
    const variant = game.variant === "8x8" ? ` — the area may not pass 8×8` : "";
    this.info.textContent = `${game.tiles} tiles, ${cols}×${rows}${variant}. Seed ${this.seed}.`;
  }

  showMoves() {
    const moves = this.game.toJSON().moves;
    this.moveList.replaceChildren(
      ...moves.map((m, i) => h("li", { class: i % 2 ? "red" : "white", dataset: { move: m } }, `${i % 2 ? "Red" : "White"} ${m}`)),
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
              "aria-label": `Play ${move}${forced.length ? `, forcing ${forced.length} more` : ""}`,
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
    delete this.choices.dataset.cell;
  }

  async play(move) {
    if (this.busy || this.game.toMove !== this.you) return;
    await this.turn(move, "You");
    this.advance();
  }

  async turn(move, who) {
    const generation = this.generation;
    this.busy = true;
    this.game.play(move);
    const forced = this.game.lastTurn().forced.length;
    this.render({ fresh: true });
    this.message.textContent = `${who} played ${move}${forced ? `; ${forced} forced tile${forced > 1 ? "s" : ""} fell in` : ""}.`;
    // Wait for the forced tiles' animation (staggered in CSS) before the next turn.
    await pause(400 + 180 * forced);
    if (generation === this.generation) this.busy = false;
  }

  async advance() {
    const generation = this.generation;
    while (!this.game.isOver && this.game.toMove !== this.you) {
      this.busy = true;
      this.render();
      this.message.textContent = "The computer is thinking…";
      await pause(300);
      if (generation !== this.generation) return;
      const ply = this.game.toJSON().moves.length;
      const move = await this.think(this.game, this.tools.level, this.seed * 1000 + ply);
      if (generation !== this.generation) return;
      await this.turn(move, "The computer");
      if (generation !== this.generation) return;
    }
    this.busy = false;
    this.render();
    if (this.game.isOver) this.finish();
    else this.message.textContent = `Your move (${this.you}): point at a highlighted cell to see its tiles, click it to choose one.`;
  }

  finish() {
    const win = this.game.win();
    const outcome = this.game.outcome;
    let text;
    if (win) {
      const how = [win.by_loop && "a loop", win.by_line && "a line"].filter(Boolean).join(" and ");
      text = `${win.winner === this.you ? "You win" : "The computer wins"}: ${win.winner} by ${how}.`;
    } else text = "A draw: the 8×8 board has no move left.";
    const turns = this.game.toJSON().moves.length;
    this.message.textContent = `Game over after ${turns} turns and ${this.game.tiles} tiles.`;
    this.section.dataset.state = "over";
    this.result.replaceChildren(h("p", { class: `final ${win?.winner ?? "draw"}`, "data-winner": outcome, "data-by": win ? [win.by_loop && "loop", win.by_line && "line"].filter(Boolean).join("+") : "" }, text));
  }

  /** Takes back turns until it is the person's move again, their own last move included. */
  undo() {
    if (this.busy) return;
    this.game.undo();
    while (this.game.tiles && this.game.nextPlayer !== this.you) this.game.undo();
    this.result.replaceChildren();
    this.section.dataset.state = "playing";
    this.message.textContent = "Move taken back.";
    this.advance();
  }
}

export function mount(section) {
  return new TraxView(section);
}
