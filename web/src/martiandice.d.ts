// Type declarations of martiandice.js. The answers' fields are those of
// `martiandice eval --help` and `martiandice best --help` (and docs/SERVE.md).

/** The rules: 13 dice, bonus 3, target 25 unless varied. */
export interface Rules {
  dice: number;
  bonus: number;
  target: number;
}

/** A query's inputs, as the command line's options (all optional). */
/** review's options: eval's, without `aside` (the lines give every position). */
export type ReviewOptions = Omit<EvalQuery, 'aside'>;

/** One reviewed decision: the choice made, what it was worth, and the best. */
export interface ReviewDecision {
  line: number;
  then_line: number | null;
  aside: string;
  rolled: string;
  take: FaceName;
  count: number;
  then: Action;
  value: number;
  best_value: number;
  loss: number;
  optimal: boolean;
  optimal_choices: { take: FaceName; count: number; then: Action }[];
  value_exact?: string;
  best_value_exact?: string;
  loss_exact?: string;
  /**
   * With the win objective, the decision's class (docs/RATING.md); else, and
   * in a fallback turn, null.
   */
  class: 'optimal' | 'inaccuracy' | 'error' | 'blunder' | null;
}

/** A player's decisions rated (docs/RATING.md): chances 0..1, score 0..100 (not rounded). */
export interface Rating {
  decisions: number;
  optimal: number;
  inaccuracies: number;
  errors: number;
  blunders: number;
  total_loss: number;
  mean_loss: number;
  score: number | null;
  band: 'perfect' | 'master' | 'expert' | 'strong' | 'casual' | 'beginner' | null;
}

/** `martiandice review --json`: every turn's decisions, their losses, and the totals. */
export interface ReviewAnswer {
  input: string;
  rules: Rules;
  objective: string;
  precision: 'double' | 'exact';
  table: string | null;
  /** Win: why no table covers a turn's game, where one is measured by the fallback; else null. */
  fallback_reason: string | null;
  turns: {
    turn: number;
    line: number;
    scores: number[] | null;
    seat: number | null;
    /** Whether the target had been reached at the turn's start: the mover's last turn. */
    final_round: boolean | null;
    win_probabilities: number[] | null;
    /**
     * What the turn's values measure: the objective, or the fallback's "capped:M" (points; in
     * the final round "final:M/K", chances).
     */
    values: string;
    fallback: boolean;
    decisions: ReviewDecision[];
    end: 'stop' | 'no_legal_take' | 'no_dice_left';
    end_line: number;
    score: number;
    /** Whether the turn's earthlings were lost: the tanks outnumbered the rays. */
    tanks_won: boolean;
    mistakes: number;
    loss: number;
    loss_exact?: string;
  }[];
  decisions: number;
  mistakes: number;
  /** The losses of the turns measured in the objective. */
  total_loss: number;
  total_loss_exact?: string;
  /** The losses of the fallback's turns before the final round (capped:M), in points. */
  fallback_loss: number;
  /** The losses of the fallback's final-round turns (final:M/K), in chances: never added to fallback_loss. */
  fallback_final_loss: number;
  /** With the win objective, each seat's rating (fallback turns unrated); else null. */
  ratings: { seat: number; rating: Rating }[] | null;
}

export interface EvalQuery {
  /** "ev" (default), "reach:K", "capped:M", "final:M/K" or "win". */
  objective?: string;
  /** Exact rational values too (turn objectives only). */
  exact?: boolean;
  /** The dice set aside, in the notation ("3T 2R 4H 1K"); "" or "-": the start of the turn. */
  aside?: string;
  /** Win goal: every seat's game total, seat 0 first ([18, 22] or "18,22"). */
  scores?: number[] | string;
  /** Win goal: the seat to move (default 0). */
  seat?: number;
  /** Win goal: the number of players (default: the number of scores). */
  players?: number;
  dice?: number;
  bonus?: number;
  target?: number;
}

/** A `best` query: the position and the dice just rolled. */
export interface BestQuery extends EvalQuery {
  /** The dice just rolled, in the notation ("1R 1H 1C"). */
  roll: string;
}

export type Action = 'stop' | 'roll' | 'either';
export type FaceName = 'tank' | 'ray' | 'human' | 'cow' | 'chicken';

/** The fields every answer starts with. */
export interface AnswerHeader {
  rules: Rules;
  objective: string;
  precision: 'double' | 'exact';
  aside: string;
  // Win goal only:
  players?: number;
  seat?: number;
  scores?: number[];
  /** A seat before the mover has reached the target: the game ends after this round. */
  final_round?: boolean;
  /** Every seat's chance to win at the start of this turn, seat 0 first; null with the fallback. */
  win_probabilities?: number[] | null;
  /** The table used: its path in the module's file system ("/tables/<name>.mdt"); null with the fallback or the solved final round. */
  table?: string | null;
  /** The table's bound on the error of every value; null with the fallback or the solved final round. */
  error_bound?: number | null;
  /**
   * What the values measure: "win", or where no table covers the game the fallback's: "capped:M"
   * (points), in a final round too large to solve "final:M/K" (chances).
   */
  values?: string;
  /**
   * Where the values come from: a table, the final round solved without one (values "win"), or
   * the fallback.
   */
  source?: 'table' | 'final_round' | 'fallback';
  /** Whether the fallback answered (no table covers the game and none was named). */
  fallback?: boolean;
  /** Why no table covers the game; null with a table. */
  fallback_reason?: string | null;
}

/** `martiandice eval --json`. Exact fields are present with `exact: true` only. */
export interface EvalAnswer extends AnswerHeader {
  dice_left: number;
  value: number;
  value_exact?: string | null;
  /** null before the first roll (a turn starts with a roll). */
  stop: number | null;
  stop_exact?: string | null;
  /** null when no dice are left. */
  roll: number | null;
  roll_exact?: string | null;
  action: Action;
}

export interface TakeOption {
  take: FaceName;
  count: number;
  aside_after: string;
  stop: number;
  stop_exact?: string | null;
  roll: number | null;
  roll_exact?: string | null;
  value: number;
  value_exact?: string | null;
  then: Action;
  optimal: boolean;
}

/** `martiandice best --json`: every take from the roll, ranked. */
export interface BestAnswer extends AnswerHeader {
  rolled: string;
  aside_after_tanks: string;
  /** No legal take: the turn is over and scores turn_over_score. */
  turn_over: boolean;
  turn_over_score: number | null;
  value: number;
  value_exact?: string | null;
  best: { take: FaceName; count: number; then: Action } | null;
  options: TakeOption[];
}

/** A registered policy table. */
export interface TableInfo {
  /** Its path in the module's file system, as answers name it. */
  table: string;
  players: number;
  rules: Rules;
  error_bound: number;
  format_version: number;
}

/** Bytes of a table, or where to fetch them. */
export type TableSource = Uint8Array | ArrayBuffer | ArrayBufferView | URL | string;

export interface CreateOptions {
  /** The .wasm file's bytes (default: read or fetched from the package's dist/). */
  wasmBinary?: Uint8Array | ArrayBuffer;
  /** Where to fetch the .wasm file (default: the package's dist/). */
  wasmUrl?: URL | string;
  /** Tables to load at once (see loadTable). */
  tables?: TableSource[];
}

/** A bad input (named by `input`), or a table that cannot be used. */
export class MartianDiceError extends Error {
  constructor(message: string, input?: string | null, code?: string);
  /** The input the message is about ("aside", "roll", "scores", ...), or null. */
  input: string | null;
  /** The status code: "INVALID_ARGUMENT", "DATA_LOSS", "NOT_FOUND", ... */
  code: string;
}

/** The largest table addTable takes: 512 MiB (the module holds a table twice while it checks it). */
export const MAX_TABLE_BYTES: number;

/** The official rules: { dice: 13, bonus: 3, target: 25 }. */
export const OFFICIAL_RULES: Readonly<{ dice: number; bonus: number; target: number }>;

/** Whether `rules` are the official ones (each of dice, bonus and target equal). */
export function isOfficialRules(rules: { dice?: number; bonus?: number; target?: number }): boolean;

/** Player counts whose official tables ship in the package: [2, 3]. */
export const OFFICIAL_TABLE_PLAYERS: readonly number[];

/** The URL of a shipped official table (13 dice, bonus 3, target 25). */
export function officialTableUrl(players: number): URL;

/** What a game waits for. */
export type Phase = 'roll' | 'take' | 'stop_or_roll' | 'over';

/** The pictures of MartianDice#plot (`martiandice plot`'s kinds). */
export type PlotKind = 'heatmap' | 'stop' | 'distribution';

/** Options of MartianDice#plot (`martiandice plot`'s --scores and --seat). */
export interface PlotOptions {
  /** The distribution's scores, [0, 0] by default: two totals, or "S0,S1". */
  scores?: number[] | string;
  /** The seat to move (heatmap, distribution), 0 by default. */
  seat?: number;
}

/** Options of MartianDice#newGame (`martiandice play`'s). */
export interface GameOptions {
  /** Seats: 2 (default) to 6. */
  players?: number;
  /** The human seats ([0] by default), or "none" (bots only). */
  humans?: number[] | 'none' | string;
  /**
   * One policy for every bot ("win" by default) or one per bot seat: win, ev, capped, capped:M,
   * fallback (what win plays where no table covers the game), reach:K, random, stop:K, cautious, bold.
   */
  bots?: string | string[];
  /**
   * The dice's seed, 0..2^64-1 (random by default): `play --seed` rolls the same dice. A Number
   * up to 2^53 only (past it one may not be the integer meant): a string or a BigInt for any.
   */
  seed?: number | bigint | string;
  /** Human decisions carry play's hint event. */
  hints?: boolean;
  dice?: number;
  bonus?: number;
  target?: number;
}

/** The state of a game now. */
export interface GameStateInfo {
  phase: Phase;
  over: boolean;
  /** The seat to move (once over: the seat that played the last turn). */
  seat: number;
  player: 'human' | 'bot';
  scores: number[];
  final_round: boolean;
  /** Turns started so far. */
  turn: number;
  /** The set-aside (dice notation, "-" for none). */
  aside: string;
  /** In phase take: the set-aside before the roll. */
  aside_before_roll: string;
  /** In phase take: the roll waiting for its take; else "-". */
  roll: string;
  /** In phase take: the faces that may be taken. */
  legal: FaceName[];
  dice_left: number;
  turn_score: number;
  /** Once over: the seats with the highest total; else []. */
  winners: number[];
}

/** The advice at a decision: `martiandice play --hints`'s hint event. */
export interface GameAdvice {
  event: 'hint';
  seat: number;
  decision: 'take' | 'stop_or_roll' | 'roll';
  /**
   * "win", or where no table covers the game the fallback's objective: "capped:15" (points),
   * in the final round "final:12/1" (chances: passing the leader, a tie counting its share).
   */
  values: string;
  fallback: boolean;
  fallback_reason: string | null;
  win_probabilities: number[] | null;
  value: number;
  /**
   * decision "take": the take to play, and every take ranked (best's option
   * objects, each with the chance that rolling on after it scores 0; null
   * where the take leaves no dice).
   */
  best?: { take: FaceName; count: number; then: Action };
  options?: (TakeOption & { zero_chance: number | null })[];
  /**
   * decision "stop_or_roll" or "roll". At "roll" (the turn's start, or once
   * the mover has chosen to roll on) rolling is the only move: stop is null,
   * value is the roll's, action "roll".
   */
  stop?: number | null;
  roll?: number | null;
  action?: Action;
  /** The chance that rolling on (at "roll": the turn) ends with 0 points. */
  zero_chance?: number | null;
}

/**
 * One event of `martiandice play --json` (its --help lists them): start,
 * turn, roll, take, roll_on, turn_end, hint, prompt, game_over, review, log.
 */
export interface GameEvent {
  event: string;
  seat?: number;
  [field: string]: unknown;
}

/** A game in progress (`martiandice play`, move by move). Moves return their events. */
export class Game {
  private constructor();
  /** The start event: rules, players, seed, seats, table (or why none: no_table). */
  readonly start: GameEvent;
  /** The seed as a decimal string, as the start event gives it. */
  readonly seed: string;
  /** Every event so far. */
  readonly events: GameEvent[];
  readonly state: GameStateInfo;
  readonly over: boolean;
  /** The mover rolls: the seed's dice, or `dice` given (notation). */
  roll(dice?: string): GameEvent[];
  /** A human takes a face ("ray", "R", "humans", "4H"). */
  take(face: string): GameEvent[];
  stop(): GameEvent[];
  rollOn(): GameEvent[];
  /** The bot to move plays its next step. */
  botStep(): GameEvent[];
  /** Bots play until a human is to move or the game is over. */
  playBots(): GameEvent[];
  /** The advice at the decision now. */
  advice(): GameAdvice;
  /** The log in `martiandice review`'s lines. */
  readonly log: string;
  /** The log of the turns that ended. */
  readonly finishedLog: string;
  /** Once over: the game_over event ({turns, scores, winners}); else null. */
  readonly result: GameEvent | null;
  /** Once over: each human seat's review event ({seat, decisions (each with its `values`),
   *  mistakes, total_loss (chances to win from the table; 0 without one), fallback_loss
   *  (the fallback's points), fallback_final_loss (the fallback's final-round chances), each
   *  summed apart as review's totals,
   *  rating}: a Rating, or null under the fallback). */
  readonly reviews: GameEvent[];
  /** Frees the game in the module. */
  free(): void;
}

/** Options of MartianDice#coach (serve's `open`). */
export interface CoachOptions {
  /** Seats: 2 to 6 (default: the number of scores, else 2). */
  players?: number;
  /** Every seat's total (default all 0): an array or "S0,S1[,...]". */
  scores?: number[] | string;
  /** The seat to move (default 0). */
  seat?: number;
  rules?: { dice?: number; bonus?: number; target?: number };
}

/** A coached game's state (serve's session `state`). */
export interface CoachState {
  phase: Phase;
  seat: number;
  scores: number[];
  final_round: boolean;
  /** The set-aside, after the roll's tanks in phase take (dice notation, "-" for none). */
  aside: string;
  dice_left: number;
  turn_score: number;
  /** The roll waiting for its take, else null. */
  roll: string | null;
  legal: FaceName[];
  winners: number[];
  /** Entries `undo` can take back. */
  undo: number;
}

/** The turns an entry ended. */
export interface CoachTurnEnd {
  seat: number;
  score: number;
  reason: string;
  aside: string;
  /** The tanks outnumbered the rays: the earthlings set aside scored nothing. */
  tanks_won: boolean;
  game_over: boolean;
}

/** serve's `open` answer and `enter`'s but for help (CoachHelpAnswer). */
export interface CoachAnswer {
  game: number;
  table?: string | null;
  no_table?: string | null;
  step?: 'applied' | 'undone' | 'state';
  entry?: string;
  turn_ends?: CoachTurnEnd[];
  state: CoachState;
  /** play's hint without its event and seat fields; null once over. */
  advice: Omit<GameAdvice, 'event' | 'seat'> | null;
}

/** `enter`'s answer to "help": the entries allowed now (the game unchanged). */
export interface CoachHelpAnswer {
  game: number;
  step: 'help';
  message: string;
}

/** serve's `close` answer. */
export interface CoachClosed {
  game: number;
  closed: true;
  over: boolean;
  scores: number[];
  winners: number[];
  /** `martiandice review`'s lines: the whole game once over, else its finished turns. */
  log: string;
}

/** A real game followed entry by entry (`martiandice coach`, serve's game sessions). */
export class Coach {
  private constructor();
  readonly id: number;
  /** open's answer (table or no_table, state, advice). */
  readonly opening: CoachAnswer;
  /** open's answer as serve writes it. */
  readonly openingJson: string;
  /** The last answer with the game's state (open's or enter's, help's aside). */
  readonly answer: CoachAnswer;
  readonly state: CoachState;
  readonly advice: CoachAnswer['advice'];
  readonly over: boolean;
  /** One of coach's lines ("roll 2T 3R 4H 3C 1K", "take humans", "stop", "roll", "score 7", "scores 12,20 seat 1", "undo", "state", "help"). Throws MartianDiceError ("entry: ...") and changes nothing when refused. */
  enter(line: string): CoachAnswer | CoachHelpAnswer;
  /** enter's answer as serve writes it. */
  enterJson(line: string): string;
  /** Takes back the last entry. */
  undo(): CoachAnswer;
  /** The log in `martiandice review`'s lines. */
  readonly log: string;
  /** The log of the turns that ended. */
  readonly finishedLog: string;
  /** Closes the game and frees it: close's answer. */
  close(): CoachClosed;
  /** Frees the game (close without using the answer). */
  free(): void;
}

/** The advisor in WebAssembly; it keeps solved turns and loaded tables. */
export class MartianDice {
  private constructor(core: unknown);
  static create(options?: CreateOptions): Promise<MartianDice>;
  /** The library's version. */
  readonly version: string;
  /** The registered tables, oldest first. */
  readonly tables: TableInfo[];
  /**
   * Solves the policy table of a game no shipped table covers (house rules),
   * as `martiandice solve --players P` does (the same bytes), and registers it.
   * Throws MartianDiceError for rules or players out of range (INVALID_ARGUMENT), or a table
   * over 64 MiB (RESOURCE_EXHAUSTED; tableSize tells beforehand).
   */
  solveTable(
    game?: { players?: number; dice?: number; bonus?: number; target?: number },
    options?: { onProgress?: (fraction: number, seconds: number) => void },
  ): {
    bytes: Uint8Array;
    size: number;
    players: number;
    rules: Rules;
    seconds: number;
    turn_solves: number;
    table: string;
  };
  /**
   * The bytes of a game's table as solveTable would make it (`size`), and the largest it makes
   * (`limit`). Throws MartianDiceError for rules or players out of range.
   */
  tableSize(game?: { players?: number; dice?: number; bonus?: number; target?: number }): {
    players: number;
    rules: Rules;
    size: number;
    limit: number;
  };
  /** Registers a table from its bytes; throws MartianDiceError unless they are a valid table. */
  addTable(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): TableInfo;
  /**
   * Unregisters a table (its path, or addTable's answer) and frees its bytes; win queries of
   * its game then answer as without it. Returns whether such a table was registered.
   */
  removeTable(table: string | TableInfo): boolean;
  /** Registers a table from bytes or a URL (fetched; under Node, file: URLs and file paths are read from the disk). */
  loadTable(source: TableSource): Promise<TableInfo>;
  /** Stop or roll on at a position. Throws MartianDiceError for bad inputs. */
  eval(query?: EvalQuery): EvalAnswer;
  /** Every take from a roll, ranked. Throws MartianDiceError for bad inputs. */
  best(query: BestQuery): BestAnswer;
  /** eval's answer as the command line prints it (one line, newline included). */
  evalJson(query?: EvalQuery): string;
  /** best's answer as the command line prints it (one line, newline included). */
  bestJson(query: BestQuery): string;
  /**
   * `martiandice review --json -` on `lines` (review's line format, e.g. a
   * game's log). Throws MartianDiceError for bad lines (the message names the
   * line) or options.
   */
  review(lines: string, options?: ReviewOptions): ReviewAnswer;
  /** review's answer as the command line prints it (one line, newline included). */
  reviewJson(lines: string, options?: ReviewOptions): string;
  /** A new game (`martiandice play`). Throws MartianDiceError for bad options. */
  newGame(options?: GameOptions): Game;
  /** A real game to coach (serve's `open`). Throws MartianDiceError for bad options. */
  coach(options?: CoachOptions): Coach;
  /**
   * A strategy picture of the official 2-player game as SVG text, the same
   * bytes as `martiandice plot KIND --out FILE`. Throws MartianDiceError for
   * bad options or without the 2-player table.
   */
  plot(kind: PlotKind, options?: PlotOptions): string;
  /** Forgets solved turns and loaded tables (registered tables stay). */
  clearCaches(): void;
}

/** Shorthand for MartianDice.create(options). */
export function createMartianDice(options?: CreateOptions): Promise<MartianDice>;
