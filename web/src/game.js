// A game of `martiandice play`, move by move: the library's GameState, bots,
// seeded dice, advice, log and review in the WebAssembly module
// (web/wasm/game.cpp). No rule lives here: every move is the library's, and
// every move answers with the events `martiandice play --json` prints for it
// (the same objects), so a game here and the same game on the command line
// (same seed, same moves) print the same lines.
import { MartianDiceError, isInt32, shown } from './wasm.js';

// The rules' fields of a new game's request, and every option of a game.
const RULE_FIELDS = Object.freeze(['dice', 'bonus', 'target']);
const GAME_FIELDS = Object.freeze([...RULE_FIELDS, 'players', 'humans', 'bots', 'seed', 'hints']);

function randomSeed() {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return String((BigInt(words[0]) << 32n) | BigInt(words[1]));
}

function seedText(seed) {
  if (seed === undefined || seed === null) return randomSeed();
  if (typeof seed === 'bigint' || (typeof seed === 'number' && Number.isSafeInteger(seed))) {
    return String(seed);
  }
  if (typeof seed === 'string') return seed;
  if (Number.isInteger(seed) && seed > 0) {  // past 2^53: this Number may not be the integer meant
    throw new MartianDiceError(`seed: ${seed} is past 2^53, where a Number is not exact: ` +
      'give the seed as a string or a BigInt', 'seed');
  }
  throw new MartianDiceError(`seed: expected an integer in 0..2^64-1, got ${shown(seed)}`, 'seed');
}

function humansText(humans) {
  if (humans === undefined) return '0';
  if (humans === 'none' || (Array.isArray(humans) && humans.length === 0)) return 'none';
  if (Array.isArray(humans) && humans.every(Number.isInteger)) return humans.join(',');
  if (typeof humans === 'string') return humans;
  throw new MartianDiceError('humans: expected an array of seat numbers or "none"', 'humans');
}

function botsText(bots) {
  if (bots === undefined) return 'win';
  if (Array.isArray(bots) && bots.length > 0 && bots.every((b) => typeof b === 'string')) {
    return bots.join(',');
  }
  if (typeof bots === 'string') return bots;
  throw new MartianDiceError('bots: expected a policy ("win") or a non-empty array of policies', 'bots');
}

/**
 * A game in progress. Made by MartianDice#newGame. Moves throw
 * MartianDiceError with the library's message when not allowed now, and then
 * change nothing.
 */
export class Game {
  #core;
  #id;
  #events = [];
  #state;

  /** @internal */
  constructor(core, options = {}) {
    this.#core = core;
    const rules = {};
    if (options === null || typeof options !== 'object') {
      throw new MartianDiceError('newGame: expected an object of options');
    }
    for (const name of Object.keys(options)) {
      if (!GAME_FIELDS.includes(name)) {
        throw new MartianDiceError(`${name}: not an option of a game (${GAME_FIELDS.join(', ')})`, name);
      }
    }
    for (const name of RULE_FIELDS) {
      const value = options[name];
      if (value === undefined) continue;
      if (!isInt32(value)) {
        throw new MartianDiceError(`${name}: expected an integer, got ${shown(value)}`, name);
      }
      rules[name] = value;
    }
    const players = options.players ?? 2;
    if (!isInt32(players)) {
      throw new MartianDiceError(`players: expected an integer, got ${shown(players)}`, 'players');
    }
    if (options.hints !== undefined && typeof options.hints !== 'boolean') {
      throw new MartianDiceError(`hints: expected true or false, got ${shown(options.hints)}`, 'hints');
    }
    // mdw_game_new's request: play's fields (app/request.h).
    const text = core.callRequest('game_new', {
      players, humans: humansText(options.humans), bots: botsText(options.bots),
      seed: seedText(options.seed), hints: Boolean(options.hints), ...rules,
    });
    const answer = JSON.parse(text);
    this.#id = answer.game;
    this.#take(answer);
  }

  #take(answer) {
    this.#events.push(...answer.events);
    this.#state = answer.state;
    return answer.events;
  }

  #move(name, ...args) {
    return this.#take(JSON.parse(this.#core.call(name, this.#id, ...args)));
  }

  /** The start event: rules, players, seed, seats, table (or why none). */
  get start() {
    return this.#events[0];
  }

  /** The seed of the game's dice: a decimal string (`martiandice play --seed`), as the start event's. */
  get seed() {
    return this.start.seed;
  }

  /** Every event so far, as `martiandice play --json` prints them. */
  get events() {
    return this.#events.slice();
  }

  /** The state now: phase, seat to move and its player, scores, set-aside, roll, legal takes... */
  get state() {
    return structuredClone(this.#state);
  }

  get over() {
    return this.#state.over;
  }

  /** The mover rolls: the seed's dice, or `dice` (notation: a coach's real dice). Returns the events. */
  roll(dice) {
    if (dice !== undefined && dice !== null && typeof dice !== 'string') {
      throw new MartianDiceError(`roll: expected dice notation, got ${shown(dice)}`, 'roll');
    }
    return this.#move('game_roll', dice ?? null);
  }

  /** A human takes a face ("ray", "R", "humans", "4H"...). */
  take(face) {
    if (typeof face !== 'string') throw new MartianDiceError('take: expected a face', 'take');
    return this.#move('game_take', face);
  }

  /** A human stops: the turn scores. */
  stop() {
    return this.#move('game_stop_or_roll_on', 1);
  }

  /** A human rolls on (roll() then rolls the dice left). */
  rollOn() {
    return this.#move('game_stop_or_roll_on', 0);
  }

  /** The bot to move plays its next step (a roll, or a take with its stop or roll on). */
  botStep() {
    return this.#move('game_bot_step');
  }

  /** Bots play until a human is to move or the game is over; returns their events. */
  playBots() {
    const events = [];
    while (!this.#state.over && this.#state.player === 'bot') events.push(...this.botStep());
    return events;
  }

  /**
   * The advice at the decision now (`play --hints`'s hint event): every
   * option's chance to win from the table, or the fallback's values (its
   * `values`: "capped:M", points; in the final round "final:M/K", chances).
   */
  advice() {
    return JSON.parse(this.#core.call('game_advice', this.#id));
  }

  /** The game's log in `martiandice review`'s lines. */
  get log() {
    return JSON.parse(this.#core.call('game_log', this.#id)).text;
  }

  /** The log of the turns that ended. */
  get finishedLog() {
    return JSON.parse(this.#core.call('game_log', this.#id)).finished_text;
  }

  /** Once over: the game_over event (turns, scores, winners); else null. */
  get result() {
    return this.#events.find((e) => e.event === 'game_over') ?? null;
  }

  /** Once over: the review event of each human seat; else []. */
  get reviews() {
    return this.#events.filter((e) => e.event === 'review');
  }

  /** Frees the game in the module; the object cannot be used after. */
  free() {
    this.#core.module._mdw_game_free(this.#id);
  }
}
