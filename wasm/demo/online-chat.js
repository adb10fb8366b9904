// The Online tab's chat: one panel for the lobby's room, one for the open match's (its players
// and spectators; a player may silence the spectators). Lines go through the client's `chat`;
// the server's commands (`!aide`, `!quizz`, `!scores`) answer with data, worded here.
import { h, describeError } from "./ui.js";

/** Lines kept on the page for each room. */
const KEEP = 200;

const COMMANDS = {
  "!aide": "this list",
  "!quizz": "a question on the cards or the rules: the first right answer typed wins a point",
  "!scores": "the quiz's scores in this room",
};

const RULES = {
  same_sides: "Under Same, at least how many sides must equal their neighbours' to capture?",
  board_cells: "How many cells has the board?",
  hand_cards: "How many cards has a hand?",
  elemental_bonus: "Under Elemental, by how much does a card on a cell of its element gain on each rank?",
  wall_rank: "Under Same Wall, what rank does the edge of the board show (1 to 9, or A)?",
};

function asked(q) {
  switch (q.kind) {
    case "rank":
      return `What is ${q.card}'s ${q.side} rank (1 to 9, or A)?`;
    case "level":
      return `What is ${q.card}'s level?`;
    case "element":
      return `What is ${q.card}'s element (or none)?`;
    default:
      return RULES[q.rule] ?? "(a question this page cannot word)";
  }
}

const table = (scores) => (scores.length ? scores.map((s) => `${s.name} ${s.points}`).join(", ") : "nobody has a point yet");

/** A chat panel: the lobby's (`match` null), or the room of the match it is showing. */
export class ChatView {
  constructor(client, { lobby }) {
    this.client = client;
    this.lobby = lobby;
    this.match = null;
    this.seated = false;
    /** Each room's lines (`"lobby"` or a match id), as elements. */
    this.rooms = new Map();
    this.silenced = new Set();
    this.log = h("ol", { class: "online-chat-log", "aria-live": "polite", "aria-label": "Chat lines" });
    this.input = h("input", { name: "online-chat", "aria-label": "Chat line", autocomplete: "off", maxlength: 1000, placeholder: "Say something (!aide: the server's commands)" });
    this.silence = h("button", { type: "button", class: "online-chat-silence", hidden: true, onclick: () => this.toggleSilence() });
    this.element = h(
      "section",
      { class: "online-chat", "aria-label": lobby ? "Lobby chat" : "Match chat" },
      h("h3", {}, "Chat"),
      this.log,
      h("form", { class: "online-chat-form", onsubmit: (e) => this.send(e) }, this.input, h("button", { type: "submit" }, "Say")),
      this.silence,
    );
    const mine = (m) => (this.lobby ? m === undefined : m !== undefined);
    client.on("chat", (line) => {
      // A page is no room's: both panels show it.
      if (line.to !== undefined) this.add(this.room(), this.said(line), "page");
      else if (mine(line.match)) this.add(line.match, this.said(line));
    });
    client.on("chat_history", ({ match, lines }) => {
      if (!mine(match)) return;
      this.rooms.set(match ?? "lobby", lines.map((l) => this.line(this.said(l))));
      this.render();
    });
    client.on("chat_silenced", ({ re, match, silenced, by }) => {
      // The answer to this page's own request: the room's copy follows.
      if (re !== undefined) return;
      if (silenced) this.silenced.add(match);
      else this.silenced.delete(match);
      if (!this.lobby) this.add(match, silenced ? `${by.name} silences the spectators.` : `${by.name} lets the spectators speak again.`, "server");
      this.render();
    });
    const quiz = (m, text) => mine(m.match) && this.add(m.match, text, "quiz");
    client.on("quiz_question", (m) => quiz(m, `Quiz, question ${m.number}: ${asked(m.question)}`));
    client.on("quiz_answered", (m) => quiz(m, `${m.by.name} answers question ${m.number} right: ${m.answer}. Scores: ${table(m.scores)}.`));
    client.on("quiz_timeout", (m) => quiz(m, `Nobody answered question ${m.number} in time: it was ${m.answer}.`));
    client.on("quiz_scores", (m) => quiz(m, `Quiz scores: ${table(m.scores)}.`));
  }

  /** Shows the room of match `id`, whose player this is when `seated` (they may silence its
   * spectators). */
  show(id, seated) {
    this.match = id;
    this.seated = seated;
    this.render();
  }

  room() {
    return this.lobby ? undefined : this.match;
  }

  said(line) {
    const from = line.from.name;
    if (line.to !== undefined) return line.from.id === this.client.user?.id ? `You page ${line.to}: ${line.text}` : `${from} pages: ${line.text}`;
    return line.pose ? `${from} ${line.text}` : `${from}: ${line.text}`;
  }

  line(text, kind = "said") {
    return h("li", { dataset: { kind } }, text);
  }

  add(match, text, kind) {
    const key = match ?? "lobby";
    const lines = this.rooms.get(key) ?? [];
    lines.push(this.line(text, kind));
    lines.splice(0, lines.length - KEEP);
    this.rooms.set(key, lines);
    if (key === (this.room() ?? "lobby")) this.render();
  }

  render() {
    this.log.replaceChildren(...(this.rooms.get(this.room() ?? "lobby") ?? []));
    this.log.scrollTop = this.log.scrollHeight;
    const on = this.silenced.has(this.match);
    this.silence.hidden = this.lobby || !this.seated;
    this.silence.textContent = on ? "Let spectators speak" : "Silence spectators";
    this.silence.setAttribute("aria-pressed", String(on));
  }

  async send(e) {
    e.preventDefault();
    const text = this.input.value;
    if (!text.trim()) return;
    const room = this.room();
    try {
      const reply = await this.client.chat(text, room === undefined ? {} : { match: room });
      this.input.value = "";
      // The other answers (a question asked again, the scores) come as events with their room.
      if (reply.type === "chat_commands") {
        this.add(room, "The server's own commands, typed in a chat:", "server");
        for (const c of reply.commands) this.add(room, `${c}: ${COMMANDS[c] ?? ""}`, "server");
      }
    } catch (error) {
      this.add(room, describeError(error), "error");
    }
  }

  async toggleSilence() {
    try {
      await this.client.silenceSpectators(this.match, !this.silenced.has(this.match));
    } catch (error) {
      this.add(this.match, describeError(error), "error");
    }
  }
}
