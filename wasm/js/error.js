/**
 * The one error class of the package. The WebAssembly glue imports it from here (rather than
 * defining its own), so that `instanceof ArbiterError` holds whichever entry was imported.
 */
export class ArbiterError extends Error {
  /**
   * @param {import("./error.js").ErrorCode} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.name = "ArbiterError";
    /** @readonly */
    this.code = code;
  }
}
