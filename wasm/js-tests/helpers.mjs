// What the tests share.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ArbiterError } from "arbiter-engine";

/** Frees a wasm object when test `t` ends (Node 20 has no `using` declarations). */
export function own(t, object) {
  t.after(() => object.free());
  return object;
}

const CODES = ["BAD_ARGUMENT", "PARSE_ERROR", "ILLEGAL_MOVE", "GAME_OVER", "LIMIT_EXCEEDED", "INTERNAL_ERROR"];

/** Asserts that `call` throws an ArbiterError (of `code`, when given): never a trap or a TypeError. */
export function throwsArbiter(call, code, what = "") {
  assert.throws(
    call,
    (e) => {
      assert.ok(e instanceof ArbiterError, `${what}: ${e?.stack ?? e}`);
      assert.ok(e instanceof Error);
      assert.equal(e.name, "ArbiterError");
      assert.ok(CODES.includes(e.code), `${what}: ${e.code}`);
      if (code) assert.equal(e.code, code, `${what}: ${e.message}`);
      assert.ok(e.message.length > 0);
      return true;
    },
    what,
  );
}

/** The code of every ```lang block of a Markdown file. */
export function blocks(file, lang) {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(new RegExp("^```" + lang + "\\n([\\s\\S]*?)^```$", "gm"))].map((m) => m[1]);
}
