// The Online tab's chat: one panel for the lobby's room, one for the open match's (its players
// and spectators; a player may silence the spectators). Lines go through the client's `chat`;
// the server's commands (`!aide`, `!quizz`, `!scores`) answer with data, worded here in the
// page's language.
import { h, describeError } from "./ui.js";
import { has, t } from "./i18n.js";

/** Lines kept on the page for each room. */
const KEEP = 200;

function asked(q) {
  if (["rank", "level", "element"].includes(q.kind)) return t(`quiz.kind.${q.kind}`, { card: q.card, side: q.side && t(`side.${q.side}`) });
  return q.kind === "rule" && has(`quiz.rule.${q.rule}`) ? t(`quiz.rule.${q.rule}`) : t("quiz.unknown");
}

const table = (scores) => (scores.length ? scores.map((s) => `${s.name} ${s.points}`).join(", ") : t("quiz.nobody_scored"));

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
    this.log = h("ol", { class: "online-chat-log", "aria-live": "polite" });
    this.input = h("input", { name: "online-chat", autocomplete: "off", maxlength: 1000 });
    this.silence = h("button", { type: "button", class: "online-chat-silence", hidden: true, onclick: () => this.toggleSilence() });
    this.title = h("h3", {});
    this.sayButton = h("button", { type: "submit" });
    this.element = h(
      "section",
      { class: "online-chat" },
      this.title,
      this.log,
      h("form", { class: "online-chat-form", onsubmit: (e) => this.send(e) }, this.input, this.sayButton),
      this.silence,
    );
    this.word();
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
      if (!this.lobby) this.add(match, t(silenced ? "chat.silenced" : "chat.unsilenced", { name: by.name }), "server");
      this.render();
    });
    const quiz = (m, text) => mine(m.match) && this.add(m.match, text, "quiz");
    client.on("quiz_question", (m) => quiz(m, t("quiz.question", { number: m.number, question: asked(m.question) })));
    client.on("quiz_answered", (m) => quiz(m, t("quiz.answered", { name: m.by.name, number: m.number, answer: m.answer, scores: table(m.scores) })));
    client.on("quiz_timeout", (m) => quiz(m, t("quiz.timeout", { number: m.number, answer: m.answer })));
    client.on("quiz_scores", (m) => quiz(m, t("quiz.scores", { scores: table(m.scores) })));
  }

  /** The panel's own words, in the page's language (again after a switch; the lines keep the
   * words they came in). */
  word() {
    this.element.setAttribute("aria-label", t(this.lobby ? "chat.lobby" : "chat.match"));
    this.title.textContent = t("chat.title");
    this.log.setAttribute("aria-label", t("chat.lines"));
    this.input.setAttribute("aria-label", t("chat.line"));
    this.input.placeholder = t("chat.placeholder");
    this.sayButton.textContent = t("chat.say");
    this.render();
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
    if (line.to !== undefined) return line.from.id === this.client.user?.id ? t("chat.you_page", { name: line.to, text: line.text }) : t("chat.pages", { name: from, text: line.text });
    return line.pose ? `${from} ${line.text}` : `${from}${t("colon")}${line.text}`;
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
    this.silence.textContent = t(on ? "chat.unsilence" : "chat.silence");
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
        this.add(room, t("chat.commands"), "server");
        for (const c of reply.commands) this.add(room, `${c}${t("colon")}${has(`chat.command.${c}`) ? t(`chat.command.${c}`) : ""}`, "server");
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
