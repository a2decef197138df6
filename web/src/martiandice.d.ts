// Type declarations of martiandice.js. The answers' fields are those of
// `martiandice eval --help` and `martiandice best --help` (and docs/SERVE.md).

/** The rules: 13 dice, bonus 3, target 25 unless varied. */
export interface Rules {
  dice: number;
  bonus: number;
  target: number;
}

/** A query's inputs, as the command line's options (all optional). */
export interface EvalQuery {
  /** "ev" (default), "reach:K", "capped:M" or "win". */
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
  /** Every seat's chance to win at the start of this turn, seat 0 first. */
  win_probabilities?: number[];
  /** The table used: its path in the module's file system ("/tables/<name>.mdt"). */
  table?: string;
  /** The table's bound on the error of every value. */
  error_bound?: number;
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

/** Player counts whose official tables ship in the package: [2, 3]. */
export const OFFICIAL_TABLE_PLAYERS: readonly number[];

/** The URL of a shipped official table (13 dice, bonus 3, target 25). */
export function officialTableUrl(players: number): URL;

/** The advisor in WebAssembly; it keeps solved turns and loaded tables. */
export class MartianDice {
  private constructor(core: unknown);
  static create(options?: CreateOptions): Promise<MartianDice>;
  /** The library's version. */
  readonly version: string;
  /** The registered tables, oldest first. */
  readonly tables: TableInfo[];
  /** Registers a table from its bytes; throws MartianDiceError unless they are a valid table. */
  addTable(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): TableInfo;
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
  /** Forgets solved turns and loaded tables (registered tables stay). */
  clearCaches(): void;
}

/** Shorthand for MartianDice.create(options). */
export function createMartianDice(options?: CreateOptions): Promise<MartianDice>;
