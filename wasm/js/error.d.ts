/** The `code` of an `ArbiterError`: the kind of failure, named as the C library's statuses. */
export type ErrorCode =
  | "BAD_ARGUMENT"
  | "PARSE_ERROR"
  | "ILLEGAL_MOVE"
  | "GAME_OVER"
  | "LIMIT_EXCEEDED"
  | "INTERNAL_ERROR";

/** Every failure of the engine: `code` says what kind, `message` is the engine's own words (the
 * same as in Rust and C). Wrong argument types are `BAD_ARGUMENT`s too, never a crash. */
export class ArbiterError extends Error {
  readonly name: "ArbiterError";
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string);
}
