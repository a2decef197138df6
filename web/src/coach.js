// A real game followed entry by entry (`martiandice coach`, `martiandice
// serve`'s game sessions): the player enters what happened at the table (the
// dice rolled, the take, stop or roll on, another seat's whole turn) and gets
// the advice at each decision. No rule lives here: the module's GameSession
// (web/wasm/coach.cpp) applies every entry, and each answer is the JSON object
// serve answers for the same request (open, enter, close).
import { MartianDiceError } from './wasm.js';

/**
 * A coached game. Made by MartianDice#coach. A bad entry throws
 * MartianDiceError ("entry: ...") and changes nothing.
 */
export class Coach {
  #core;
  #id;
  #opening;
  #openingJson;
  #answer;
  #closed = null;

  /** @internal `request`: mdw_coach_open's, serve's `open` fields. */
  constructor(core, request) {
    this.#core = core;
    this.#openingJson = core.callRequest('coach_open', request);
    this.#opening = JSON.parse(this.#openingJson);
    this.#id = this.#opening.game;
    this.#answer = this.#opening;
  }

  #live() {
    if (this.#closed) throw new MartianDiceError(`game: game ${this.#id} is closed`, 'game');
  }

  /** The game's id in the module (serve's `game`). */
  get id() {
    return this.#id;
  }

  /** serve's `open` answer: game, table (or no_table: why), state, advice. */
  get opening() {
    return structuredClone(this.#opening);
  }

  /** open's answer as serve writes it (one JSON object, no newline). */
  get openingJson() {
    return this.#openingJson;
  }

  /** The last answer with the game's state (open's or enter's, help's aside). */
  get answer() {
    return structuredClone(this.#answer);
  }

  /** The game now: phase, seat, scores, final_round, aside, dice_left, turn_score, roll, legal, winners, undo. */
  get state() {
    return structuredClone(this.#answer.state);
  }

  /** The advice at the decision now (play's hint: every option's chance to win); null once over. */
  get advice() {
    return structuredClone(this.#answer.advice);
  }

  get over() {
    return this.#answer.state.phase === 'over';
  }

  /** enter's answer as serve writes it (one JSON object, no newline). */
  enterJson(line) {
    if (typeof line !== 'string') throw new MartianDiceError('entry: expected a line of text', 'entry');
    this.#live();
    const text = this.#core.call('coach_enter', this.#id, line);
    const answer = JSON.parse(text);
    if (answer.state) this.#answer = answer;
    return text;
  }

  /**
   * One entry, as coach reads it: "roll 2T 3R 4H 3C 1K", "take humans",
   * "stop", "roll" (roll on), "score 7" (another seat's whole turn),
   * "scores 12,20 seat 1", "undo", "state", "help". Returns serve's enter answer:
   * step, entry, turn_ends, state, advice (help: a message).
   */
  enter(line) {
    return JSON.parse(this.enterJson(line));
  }

  /** Takes back the last entry. */
  undo() {
    return this.enter('undo');
  }

  /** The log in `martiandice review`'s lines (the turn in progress included). */
  get log() {
    return this.#logs().text;
  }

  /** The log of the turns that ended (what `review` reads before the game is over). */
  get finishedLog() {
    return this.#logs().finished_text;
  }

  #logs() {
    if (this.#closed) return { text: this.#closed.log, finished_text: this.#closed.log };
    return JSON.parse(this.#core.call('coach_log', this.#id));
  }

  /** Closes the game: serve's `close` answer (over, scores, winners, log). Then frees it. */
  close() {
    if (!this.#closed) this.#closed = JSON.parse(this.#core.call('coach_close', this.#id));
    return structuredClone(this.#closed);
  }

  /** Frees the game in the module (close without the answer). */
  free() {
    this.close();
  }
}
