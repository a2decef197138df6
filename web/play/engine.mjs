// The page's engine: the package's MartianDice, one Game (play mode) and one
// Coach (coach mode), behind one call(op, args, hooks) that answers plain objects
// (events, the state after, the advice; the coach's answers as serve writes
// them; the strategy pictures' SVG text; a game's exact table, shipped, kept in
// this browser or solved here), so that it can run in a Web Worker (worker.mjs) or, where module
// workers are missing, on the page's thread. No game rule here: every move
// and entry is the library's (web/src/game.js, web/src/coach.js).
import {
  MartianDice, OFFICIAL_RULES as OFFICIAL, OFFICIAL_TABLE_PLAYERS, isOfficialRules as isOfficial, officialTableUrl,
} from '../src/martiandice.js';
import { forgetTable, keepTable, storedKeys, storedTable, tableKey } from './tables.mjs';

// Players whose house-rules tables the page solves (more take too long or too much memory).
const SOLVED_PLAYERS = [2, 3];

export async function createEngine() {
  const md = await MartianDice.create({ tables: [officialTableUrl(2)] });
  const loaded = new Set([2]);
  const registered = new Set();  // tables registered in this session but the shipped ones (tableKey)
  const own = new Set();  // tables the player gave as files in this session (tableKey)
  let game = null;
  let coach = null;

  // A shipped table for 2 and 3 players (the 3-player one, 1 MB, when first
  // needed); more players play the fallback.
  async function tableFor(players) {
    if (OFFICIAL_TABLE_PLAYERS.includes(players) && !loaded.has(players) &&
      !own.has(tableKey(players, OFFICIAL))) {  // the player's own stays
      await md.loadTable(officialTableUrl(players));
      loaded.add(players);
    }
  }

  // A table registered in this visit, or kept in this browser (registered
  // from its bytes): {from: 'session' or 'browser'}, else null.
  async function keptTable(key) {
    if (registered.has(key)) return { from: 'session' };
    const stored = await storedTable(key);
    if (stored) {
      try {
        md.addTable(stored);
        registered.add(key);
        return { from: 'browser' };
      } catch {
        await forgetTable(key);  // damaged, or of an older format: as if none was kept
      }
    }
    return null;
  }

  // A house-rules table: kept (keptTable), else solved here
  // (onProgress(fraction, seconds) as it goes) and kept.
  async function houseTable(players, rules, onProgress) {
    const key = tableKey(players, rules);
    const kept = await keptTable(key);
    if (kept) return kept;
    // Too large for a page: the game plays the fallback, and says why.
    const { size, limit } = md.tableSize({ players, ...rules });
    if (size > limit) return { from: null, reason: 'size', size };
    const solved = md.solveTable({ players, ...rules }, { onProgress });
    registered.add(key);
    const record = { bytes: solved.bytes, players, rules, seconds: solved.seconds, saved: new Date().toISOString() };
    return { from: 'solved', seconds: solved.seconds, size: solved.size, kept: await keepTable(key, record) };
  }

  // The exact table of a game (players, dice, bonus, target): {from} is
  // 'file' (the player's own: ownTable), 'shipped', 'session' (registered
  // before), 'browser' (kept here), 'solved' (just now), or null (no table:
  // the fallback; `reason` says why: 'players', or 'size' with the table's
  // `size` in bytes, too large to solve here).
  async function prepareTable(game = {}, onProgress = undefined) {
    const players = game.players ?? 2;
    const rules = { ...OFFICIAL };
    for (const name of Object.keys(OFFICIAL)) rules[name] = game[name] ?? OFFICIAL[name];
    const answer = { players, rules };
    const key = tableKey(players, rules);
    if (own.has(key)) return { ...answer, from: 'file' };
    if (isOfficial(rules)) {
      await tableFor(players);
      if (loaded.has(players)) return { ...answer, from: 'shipped' };
    }
    if (isOfficial(rules) || !SOLVED_PLAYERS.includes(players)) {
      // No table the page makes: one the player gave on an earlier visit, else the fallback.
      return { ...answer, ...((await keptTable(key)) ?? { from: null, reason: 'players' }) };
    }
    return { ...answer, ...(await houseTable(players, rules, onProgress)) };
  }

  // Every operation takes (args, hooks): the call's arguments, and
  // onProgress(fraction, seconds) for those that may solve a table.

  // The coach's entries: each answers serve's object and the log so far.
  const coaching = {
    async open([options], { onProgress }) {
      // Shipped, given, kept from a visit, or (house rules, 2 or 3 players) solved now.
      await prepareTable({ players: options.players, ...options.rules }, onProgress);
      const made = md.coach(options);
      coach?.free();
      coach = made;
      return { answer: coach.opening, log: coach.log };
    },
    enter: ([line]) => ({ answer: coach.enter(line), log: coach.log }),
  };

  // A game's moves: each answers its events (the state is added by call).
  const moves = {
    async new([options]) {
      await tableFor(options.players);
      const made = md.newGame(options);
      game?.free();
      game = made;
      return { events: game.events, seed: game.seed };
    },
    roll: ([dice]) => ({ events: game.roll(dice) }),
    take: ([face]) => ({ events: game.take(face) }),
    stop: () => ({ events: game.stop() }),
    rollOn: () => ({ events: game.rollOn() }),
    botStep: () => ({ events: game.botStep() }),
    advice: () => ({ advice: game.advice() }),
    log: () => ({ log: game.log }),
  };

  // A table file the player gives (made by `martiandice solve`: any players
  // and rules the module reads): registered, checked as a file, its games
  // then played from it, and kept in this browser for the next visits.
  // Answers its {players, rules, size, kept}; throws for bytes that are no
  // table, or a damaged one.
  async function ownTable(bytes) {
    const info = md.addTable(bytes);
    const key = tableKey(info.players, info.rules);
    own.add(key);
    registered.add(key);
    const record = { bytes, players: info.players, rules: info.rules, seconds: null, saved: new Date().toISOString() };
    return { players: info.players, rules: info.rules, size: bytes.length, kept: await keepTable(key, record) };
  }

  // The games of the tables kept in this browser: [{players, rules}].
  async function keptGames() {
    return (await storedKeys()).map((key) => /^martiandice-p(\d+)-d(\d+)-b(\d+)-t(\d+)\.mdt$/.exec(key))
      .filter(Boolean).map(([, p, d, b, t]) => ({ players: +p, rules: { dice: +d, bonus: +b, target: +t } }));
  }

  // The tables' operations.
  const tables = {
    table: ([game], { onProgress }) => prepareTable(game, onProgress),  // a game's, before it
    ownTable: ([bytes]) => ownTable(bytes),
    keptTables: () => keptGames(),
    plot: (args) => ({ svg: md.plot(...args) }),  // a strategy picture of the 2-player game
  };

  const find = (ops, name, op) => {
    if (!Object.hasOwn(ops, name)) throw new Error(`unknown operation ${op}`);
    return ops[name];
  };

  return {
    version: md.version,
    async call(op, args = [], hooks = {}) {
      if (Object.hasOwn(tables, op)) return tables[op](args, hooks);
      if (op.startsWith('coach.')) {
        const entry = find(coaching, op.slice(6), op);
        if (op !== 'coach.open' && !coach) throw new Error('no coached game yet');
        return entry(args, hooks);
      }
      const move = find(moves, op, op);
      if (op !== 'new' && !game) throw new Error('no game yet');
      const answer = await move(args, hooks);
      return { ...answer, state: game.state };
    },
  };
}
