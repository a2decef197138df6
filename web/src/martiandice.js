// martiandice for JavaScript: the library compiled to WebAssembly, answering
// the command line's `eval` and `best` queries with the same JSON objects as
// `martiandice eval --json` and `martiandice best --json`, for every
// objective: ev, reach:K, capped:M, final:M/K (double or exact) and win, from
// policy tables given as bytes or a URL. Works in Node and in browsers.
import { Coach } from './coach.js';
import { Game } from './game.js';
import { MartianDiceError, distUrl, fetchBytes, isInt32, loadWasm, shown } from './wasm.js';

export { Coach, Game, MartianDiceError };

/**
 * The largest table addTable takes (512 MiB: the module holds a table twice
 * while it checks it); `martiandice` reads larger ones.
 */
export const MAX_TABLE_BYTES = 512 * 2 ** 20;

/** The official rules: 13 dice, a bonus of 3 for one of each earthling, 25 to win. */
export const OFFICIAL_RULES = Object.freeze({ dice: 13, bonus: 3, target: 25 });

/** Whether `rules` ({dice, bonus, target}) are the official ones. */
export const isOfficialRules = (rules) => rules !== null && typeof rules === 'object' &&
  Object.keys(OFFICIAL_RULES).every((name) => rules[name] === OFFICIAL_RULES[name]);

/** Player counts whose official tables ship in the package. */
export const OFFICIAL_TABLE_PLAYERS = Object.freeze([2, 3]);

/** The URL of a shipped official table (dist/tables/), for `loadTable`. */
export function officialTableUrl(players) {
  if (!OFFICIAL_TABLE_PLAYERS.includes(players)) {
    throw new MartianDiceError(
      `players: the package ships the official tables for ${OFFICIAL_TABLE_PLAYERS.join(' and ')} ` +
        `players, not ${shown(players)}`, 'players');
  }
  const { dice, bonus, target } = OFFICIAL_RULES;
  return distUrl(`tables/martiandice-p${players}-d${dice}-b${bonus}-t${target}.mdt`);
}

// The query's inputs, as the command line's options and `serve`'s fields.
const QUERY_FIELDS = Object.freeze({
  objective: 'string',
  exact: 'boolean',
  aside: 'string',
  roll: 'string',
  scores: 'scores',
  seat: 'integer',
  players: 'integer',
  dice: 'integer',
  bonus: 'integer',
  target: 'integer',
});

// A table's first bytes (docs/FORMAT.md), and the largest the module takes.
const TABLE_MAGIC = Object.freeze([...'MDPOLICY'].map((c) => c.charCodeAt(0)));

// A game to solve or size: {players, dice, bonus, target}, each an integer,
// absent or undefined for its default. Throws MartianDiceError naming the field.
function gameToSolve(game, method) {
  if (game === null || typeof game !== 'object') {
    throw new MartianDiceError(`${method}: expected an object ({players, dice, bonus, target})`);
  }
  for (const name of Object.keys(game)) {
    if (!['players', 'dice', 'bonus', 'target'].includes(name)) {
      throw fieldError(name, 'not a field of a game to solve (players, dice, bonus, target)');
    }
  }
  const given = Object.fromEntries(Object.entries(game).filter(([, value]) => value !== undefined));
  const rules = { dice: 13, bonus: 3, target: 25, ...given };
  const players = given.players ?? 2;
  delete rules.players;
  for (const [name, value] of [['players', players], ['dice', rules.dice], ['bonus', rules.bonus],
    ['target', rules.target]]) {
    if (!isInt32(value)) throw new MartianDiceError(`${name}: expected an integer, got ${shown(value)}`, name);
  }
  return { players, rules };
}

function fieldError(name, what) {
  return new MartianDiceError(`${name}: ${what}`, name);
}

// Whether `name` is a field of `command`'s query: the roll is best's alone,
// and review's lines give every position.
function fieldOf(command, name) {
  if (name === 'roll') return command === 'best';
  return name !== 'aside' || command !== 'review';
}

// Checks the query's fields: known names, the right types; the values are
// checked by the library (its messages). Returns the fields given, for the
// module's request (the request model's fields: app/request.h).
function readQuery(command, query, first = {}) {
  if (query === null || typeof query !== 'object' || Array.isArray(query)) {
    throw new MartianDiceError(`${command}: the query must be an object, not ${shown(query)}`);
  }
  const q = first;  // the fields given, after `first`'s
  for (const name in query) {  // own fields only, as Object.entries (without its arrays)
    if (!Object.hasOwn(query, name)) continue;
    const value = query[name];
    const kind = Object.hasOwn(QUERY_FIELDS, name) ? QUERY_FIELDS[name] : undefined;
    if (!kind || !fieldOf(command, name)) {
      const fields = Object.keys(QUERY_FIELDS).filter((f) => fieldOf(command, f));
      throw fieldError(name, `unknown field (fields: ${fields.join(', ')})`);
    }
    if (value === undefined) continue;
    if (kind === 'scores') {
      if (typeof value === 'string') {
        q.scores = value;
      } else if (Array.isArray(value) && value.length > 0 && value.every(isInt32)) {
        q.scores = value.join(',');
      } else {
        throw fieldError(name, 'expected an array of integers or "S0,S1[,...]"');
      }
    } else if (kind === 'integer') {
      if (!isInt32(value)) throw fieldError(name, `expected an integer, got ${shown(value)}`);
      q[name] = value;
    } else {
      if (typeof value !== kind) throw fieldError(name, `expected a ${kind}, got ${typeof value}`);
      q[name] = value;
    }
  }
  if (command === 'best' && q.roll === undefined) {
    throw fieldError('roll', 'missing: the dice just rolled (e.g. "1R 1H 1C")');
  }
  return q;
}



function asBytes(source) {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source)) {
    return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  }
  return null;
}

/**
 * The advisor in WebAssembly: one per page or process is enough. It keeps the
 * turns it solved and the tables it loaded, so later queries are fast.
 */
export class MartianDice {
  #core;
  #tables = [];

  constructor(core) {
    this.#core = core;
  }

  /**
   * Loads the module. Options: `wasmBinary` (the .wasm file's bytes) or
   * `wasmUrl` (where to fetch it), by default the package's dist/ folder;
   * `tables`: sources to load at once (see loadTable), e.g.
   * `[officialTableUrl(2), officialTableUrl(3)]`.
   */
  static async create(options = {}) {
    if (options === null || typeof options !== 'object') {
      throw new MartianDiceError('create: the options must be an object');
    }
    const { wasmBinary, wasmUrl, tables = [], ...rest } = options;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) {
      throw fieldError(unknown, 'unknown option (options: wasmBinary, wasmUrl, tables)');
    }
    if (!Array.isArray(tables)) {
      throw fieldError('tables', 'expected an array of sources (bytes, URLs or URL strings)');
    }
    const dice = new MartianDice(await loadWasm({ wasmBinary, wasmUrl }));
    for (const source of tables) await dice.loadTable(source);
    return dice;
  }

  /** The library's version. */
  get version() {
    return this.#core.version();
  }

  /** The tables registered so far (addTable's answers), oldest first. */
  get tables() {
    return this.#tables.map((table) => ({ ...table }));
  }

  /**
   * Registers a policy table from its bytes (a `.mdt` file, docs/FORMAT.md):
   * checked as the library checks a file, then used by win queries of its
   * rules and player count (replacing a table registered for the same).
   * Returns {table, players, rules, error_bound, format_version}; throws
   * MartianDiceError for bytes that are not a valid table.
   */
  addTable(bytes) {
    const data = asBytes(bytes);
    if (!data) throw new MartianDiceError('addTable: expected a Uint8Array or an ArrayBuffer');
    // Judged before the bytes are copied into the module (which holds them twice while it checks).
    if (data.length > MAX_TABLE_BYTES) {
      throw new MartianDiceError(`addTable: ${data.length} bytes; the module reads tables up to ` +
        `${MAX_TABLE_BYTES} bytes (\`martiandice\` reads larger ones)`, null, 'RESOURCE_EXHAUSTED');
    }
    if (data.length < TABLE_MAGIC.length || TABLE_MAGIC.some((c, i) => data[i] !== c)) {
      throw new MartianDiceError('addTable: not a martiandice policy table (bad magic)', null, 'DATA_LOSS');
    }
    const info = JSON.parse(this.#core.callWithBytes('add_table', data));
    this.#tables = this.#tables.filter((table) => table.table !== info.table);
    this.#tables.push(info);
    return { ...info };
  }

  /**
   * Unregisters a table: `table` is its path (addTable's `table`) or
   * addTable's answer. Its bytes are freed in the module, and win queries of
   * its rules and player count then answer as without it (the fallback); a
   * game already started keeps what it loaded. Returns whether such a table
   * was registered.
   */
  removeTable(table) {
    const path = typeof table === 'string' ? table : table?.table;
    if (typeof path !== 'string') {
      throw new MartianDiceError('removeTable: expected a table\'s path or addTable\'s answer');
    }
    if (!this.#tables.some((info) => info.table === path)) return false;
    this.#core.call('remove_table', path);
    this.#tables = this.#tables.filter((info) => info.table !== path);
    return true;
  }

  /**
   * Solves the policy table of a game no shipped table covers (house rules:
   * `target`, `dice`, `bonus`; 2 or 3 players take seconds) on this thread,
   * as `martiandice solve --players P` does: the same bytes. Registers it
   * (addTable) and returns {bytes (Uint8Array: keep them to skip the solve
   * next time), size, players, rules, seconds, turn_solves, table}.
   * `options.onProgress(fraction, seconds)` is called as it goes (from inside
   * the solve: run it in a Web Worker to keep a page responsive). Throws
   * MartianDiceError for rules or players out of range (code
   * INVALID_ARGUMENT), or a table over 64 MiB (code RESOURCE_EXHAUSTED: 4 or
   * more players at the official target; tableSize tells beforehand).
   */
  solveTable(game = {}, options = {}) {
    if (options === null || typeof options !== 'object') {
      throw new MartianDiceError('solveTable: expected objects ({players, dice, bonus, target}, {onProgress})');
    }
    const { onProgress, ...rest } = options;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) throw fieldError(unknown, 'unknown option (options: onProgress)');
    const { players, rules } = gameToSolve(game, 'solveTable');
    const { info, bytes } = this.#core.solve(players, rules.dice, rules.bonus, rules.target,
      onProgress);
    const table = this.addTable(bytes);
    return { ...info, bytes, table: table.table };
  }

  /**
   * The size in bytes of a game's policy table (solveTable's fields and
   * defaults), as solveTable would make it, and the largest it makes here:
   * {players, rules, size, limit}. Throws MartianDiceError for rules or
   * players out of range.
   */
  tableSize(game = {}) {
    const { players, rules } = gameToSolve(game, 'tableSize');
    return JSON.parse(this.#core.call('table_size', players, rules.dice, rules.bonus, rules.target));
  }

  /**
   * Registers a policy table from bytes, or from a URL (a string or URL
   * object: fetched; under Node, a file: URL or a file path is read from the
   * disk).
   */
  async loadTable(source) {
    const bytes = asBytes(source);
    if (bytes) return this.addTable(bytes);
    if (typeof source === 'string' || source instanceof URL) {
      return this.addTable(await fetchBytes(source));
    }
    throw new MartianDiceError('loadTable: expected bytes, a URL or a URL string');
  }

  /**
   * Stop or roll on at a position: `martiandice eval --json`'s object.
   * Query fields (all optional), as the command's options: objective ("ev",
   * "reach:K", "capped:M", "final:M/K", "win"), exact, aside (dice
   * notation), scores (array or "S0,S1"), seat, players, dice, bonus, target.
   */
  eval(query = {}) {
    return JSON.parse(this.evalJson(query));
  }

  /** Every take from a roll, ranked: `martiandice best --json`'s object. Needs `roll`. */
  best(query) {
    return JSON.parse(this.bestJson(query));
  }

  /** eval's answer as the command line prints it (one line, newline included). */
  evalJson(query = {}) {
    return this.#core.callRequest('query', readQuery('eval', query, { command: 'eval' }));
  }

  /** best's answer as the command line prints it (one line, newline included). */
  bestJson(query) {
    return this.#core.callRequest('query', readQuery('best', query, { command: 'best' }));
  }

  /**
   * Reviews played turns given as `martiandice review`'s lines (`roll DICE
   * take FACE`, `stop`, `scores S0,S1 seat I`; a game's log): every decision
   * against the best one, as `martiandice review --json -` answers. Options:
   * objective, exact, scores, seat, players, dice, bonus, target, as eval's.
   */
  review(lines, options = {}) {
    return JSON.parse(this.reviewJson(lines, options));
  }

  /** review's answer as the command line prints it (one line, newline included). */
  reviewJson(lines, options = {}) {
    if (typeof lines !== 'string') throw new MartianDiceError('review: the lines must be a string');
    if (options !== null && typeof options === 'object' && Object.hasOwn(options, 'aside')) {
      throw fieldError('aside', 'unknown field for review (the lines give every position)');
    }
    return this.#core.callRequest('review', readQuery('review', options), lines);
  }

  /**
   * A new game (`martiandice play`): options players (2), humans (the human
   * seats, [0] by default, or "none"), bots (a policy for every bot, "win"
   * by default, or one per bot seat), seed (dice; random by default), hints
   * (human decisions carry the hint event), dice, bonus, target.
   */
  newGame(options = {}) {
    return new Game(this.#core, options);
  }

  /**
   * A real game to coach (`martiandice coach`, serve's game sessions):
   * options players (2 to 6; default the number of scores, else 2), scores
   * (every seat's total, array or "S0,S1"; default all 0), seat (to move,
   * default 0), rules ({dice, bonus, target}). Advice comes from the
   * registered tables, else the fallback.
   */
  coach(options = {}) {
    if (options === null || typeof options !== 'object') {
      throw new MartianDiceError('coach: the options must be an object');
    }
    const { players, scores, seat, rules = {}, ...rest } = options;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) {
      throw fieldError(unknown, 'unknown option (options: players, scores, seat, rules)');
    }
    if (rules === null || typeof rules !== 'object') {
      throw fieldError('rules', 'expected an object {dice, bonus, target}');
    }
    const { dice, bonus, target, ...other } = rules;
    if (Object.keys(other).length > 0) {
      throw fieldError('rules', `unknown field ${Object.keys(other)[0]} (fields: dice, bonus, target)`);
    }
    // The same checks as a query's; the request is serve's `open`.
    return new Coach(this.#core, readQuery('coach', { players, scores, seat, dice, bonus, target }));
  }

  /**
   * A strategy picture of the official 2-player game as SVG text, byte for
   * byte `martiandice plot KIND --out FILE`'s file: kind "heatmap" (the
   * mover's chance to win over both scores; option seat), "stop" (the
   * smallest turn score at which optimal play stops) or "distribution" (a
   * turn's score law for ev and to win; options scores and seat). Needs the
   * 2-player table registered (loadTable(officialTableUrl(2))).
   */
  plot(kind, options = {}) {
    if (typeof kind !== 'string') throw new MartianDiceError('plot: the kind must be a string');
    if (options === null || typeof options !== 'object') {
      throw new MartianDiceError('plot: the options must be an object');
    }
    const { scores, seat, ...rest } = options;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) throw fieldError(unknown, 'unknown field (fields: scores, seat)');
    let scoresText = null;
    if (typeof scores === 'string') {
      scoresText = scores;
    } else if (Array.isArray(scores) && scores.length > 0 && scores.every(isInt32)) {
      scoresText = scores.join(',');
    } else if (scores !== undefined) {
      throw fieldError('scores', 'expected an array of integers or "S0,S1"');
    }
    if (seat !== undefined && !isInt32(seat)) {
      throw fieldError('seat', `expected an integer, got ${shown(seat)}`);
    }
    return this.#core.call('plot', kind, scoresText, seat ?? 0, seat !== undefined);
  }

  /** Forgets the solved turns and loaded tables kept so far (registered tables stay). */
  clearCaches() {
    this.#core.module._mdw_reset();
  }
}

/** Shorthand for MartianDice.create(options). */
export function createMartianDice(options) {
  return MartianDice.create(options);
}
