// The WebAssembly module and its calling convention (web/wasm/binding.cpp):
// loading it in Node or a browser, strings in, a JSON result or an error out.
// Internal to the package: martiandice.js builds the public API on it, and
// game.js the game of `play` (binding.cpp's and game.cpp's mdw_* functions).
import createMartianDiceWasm from '../dist/martiandice-wasm.mjs';

const WASM_FILE = 'martiandice-wasm.wasm';
// The longest text passed to the module, in UTF-16 units (review reads at most 1 MiB).
const MAX_TEXT = 1 << 20;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Writes `text` as UTF-8 at heap[at...] (room for 3 bytes per UTF-16 unit),
// then a NUL; returns the NUL's address. Byte by byte while the text is ASCII,
// as queries are (a browser's encodeInto costs more than such short strings).
function writeString(heap, at, text) {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) {
      const { written } = encoder.encodeInto(text.slice(i), heap.subarray(at, at + 3 * (text.length - i)));
      at += written;
      break;
    }
    heap[at++] = unit;
  }
  heap[at] = 0;
  return at;
}

/** Whether `value` is a 32-bit integer, as the module's integer fields are. */
export function isInt32(value) {
  return Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
}

/**
 * `value` as an error message shows it: text quoted (so that "13" is not read
 * as the number 13, nor "false" as false), a BigInt with its n.
 */
export function shown(value) {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

/** An error from the library: a bad input (named by `input`) or a table that cannot be used. */
export class MartianDiceError extends Error {
  /**
   * @param {string} message the library's message (as the CLI prints it)
   * @param {string|null} input the input it is about ("aside", "roll", "scores", ...) or null
   * @param {string} code the status code ("INVALID_ARGUMENT", "DATA_LOSS", ...)
   */
  constructor(message, input = null, code = 'INVALID_ARGUMENT') {
    super(message);
    this.name = 'MartianDiceError';
    this.input = input;
    this.code = code;
  }
}

function isNode() {
  return typeof process === 'object' && typeof process.versions?.node === 'string' &&
    typeof window === 'undefined';
}

// node:fs/promises, imported only under Node (a name bundlers leave alone).
async function nodeFs() {
  const name = 'node:fs/promises';
  return import(/* @vite-ignore */ /* webpackIgnore: true */ name);
}

/** The URL of a file of the package's dist/ folder. */
export function distUrl(file) {
  return new URL(`../dist/${file}`, import.meta.url);
}

// The status code of a file that cannot be read (Node's error codes), as the
// library's for a table file.
const FILE_ERROR_CODES = Object.freeze({
  ENOENT: 'NOT_FOUND',
  ENOTDIR: 'NOT_FOUND',
  EISDIR: 'INVALID_ARGUMENT',
  EACCES: 'PERMISSION_DENIED',
  EPERM: 'PERMISSION_DENIED',
});

function absoluteUrl(text) {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * The bytes at `url`: fetched; under Node, a file: URL, or a string that is
 * no absolute URL (a file path), is read from the disk.
 */
export async function fetchBytes(url) {
  if (isNode()) {
    const parsed = url instanceof URL ? url : absoluteUrl(url);
    if (!parsed || parsed.protocol === 'file:') {
      const fs = await nodeFs();
      try {
        return new Uint8Array(await fs.readFile(parsed ?? url));
      } catch (error) {
        throw new MartianDiceError(`cannot read ${url}: ${error.message}`, null,
          FILE_ERROR_CODES[error.code] ?? 'UNAVAILABLE');
      }
    }
  }
  let response;
  try {
    response = await fetch(url);
  } catch (error) {  // no answer at all: the network, or a URL fetch refuses
    throw new MartianDiceError(`cannot fetch ${url}: ${error.message}`, null, 'UNAVAILABLE');
  }
  if (!response.ok) {
    throw new MartianDiceError(`cannot fetch ${url}: HTTP ${response.status}`, null, 'NOT_FOUND');
  }
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Instantiates the module. `options.wasmBinary` (bytes) or `options.wasmUrl`
 * say where the .wasm file is; by default, the package's own dist/ folder
 * (read from the disk under Node, fetched by the browser).
 */
export async function loadWasm(options = {}) {
  // The runtime's lines while the module loads (why it cannot) are not printed: the error says it.
  let loading = true;
  const report = (print) => (text) => (loading ? undefined : print(text));
  const moduleOptions = { print: report(console.log), printErr: report(console.error) };
  if (options.wasmBinary) {
    moduleOptions.wasmBinary = options.wasmBinary;
  } else if (isNode()) {
    // Emscripten 3.1.6's loader would fetch a file path under Node: hand it the bytes.
    moduleOptions.wasmBinary = await fetchBytes(options.wasmUrl ?? distUrl(WASM_FILE));
  } else {
    const url = options.wasmUrl ?? distUrl(WASM_FILE);
    moduleOptions.locateFile = () => String(url);
  }
  try {
    return new WasmCore(await createMartianDiceWasm(moduleOptions));
  } catch (error) {
    const input = options.wasmBinary ? 'wasmBinary' : options.wasmUrl ? 'wasmUrl' : null;
    const given = input ? `${input}: ` : `the package's ${WASM_FILE}: `;
    const why = String(error?.message ?? error).replace(/ Build with -s ASSERTIONS=1 for more info\.$/, '');
    throw new MartianDiceError(`${given}not a martiandice WebAssembly module that loads (${why})`,
      input, input ? 'INVALID_ARGUMENT' : 'DATA_LOSS');
  } finally {
    loading = false;
  }
}

/** The module's mdw_* functions with JavaScript values. */
export class WasmCore {
  constructor(module) {
    this.module = module;
    this.scratch = 0;  // the string arguments' area (#values)
    this.scratchSize = 0;
    this.slots = null;  // the request slots' layout (#slotOf), read from the module once
  }

  // The request slot of field `name` (the module's mdw_request_fields: the
  // request model's fields in slot order, app/request.h).
  #slotOf(name) {
    if (!this.slots) {
      const layout = JSON.parse(this.#outcome(this.module._mdw_request_fields()));
      if (layout.slot_bytes !== 12) throw new MartianDiceError(`request slots of ${layout.slot_bytes} bytes`);
      this.slots = new Map(layout.fields.map((field, i) => [field, i]));
      this.slotBase = this.module._mdw_request();
    }
    const slot = this.slots.get(name);
    if (slot === undefined) throw new MartianDiceError(`${name}: not a request field`, name);
    return slot;
  }

  /**
   * Copies the string arguments, NUL-terminated, into one scratch area of the
   * module's memory (kept between calls, grown when too small: a call then
   * needs no malloc) and returns the arguments with each string replaced by
   * its address, null and undefined by 0 and booleans by 0 or 1.
   */
  #values(args) {
    let need = 0;
    for (const arg of args) {
      if (typeof arg === 'string') {
        // Longer than any input the library reads (review's 1 MiB), or cut by a NUL: refused.
        if (arg.length > MAX_TEXT) {
          throw new MartianDiceError(`a text of ${arg.length} characters: at most ${MAX_TEXT} are read`);
        }
        if (arg.includes('\0')) throw new MartianDiceError('a text holds a NUL character');
        need += 3 * arg.length + 1;
      } else if (!(arg === null || arg === undefined || typeof arg === 'boolean' ||
          (Number.isInteger(arg) && arg >= -(2 ** 31) && arg < 2 ** 32))) {
        throw new MartianDiceError(`expected a text, a 32-bit integer or a flag, got ${shown(arg)}`);
      }
    }
    if (need > this.scratchSize) {
      if (this.scratch) this.module._free(this.scratch);
      this.scratchSize = Math.max(need, 2 * this.scratchSize, 256);
      this.scratch = this.module._malloc(this.scratchSize);
      if (!this.scratch) {
        this.scratchSize = 0;
        throw new MartianDiceError('out of memory for the query', null, 'RESOURCE_EXHAUSTED');
      }
    }
    const heap = this.module.HEAPU8;
    let at = this.scratch;
    const values = new Array(args.length);
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      if (typeof arg === 'string') {
        values[i] = at;
        at = writeString(heap, at, arg) + 1;
      } else {
        values[i] = arg === null || arg === undefined ? 0 : Number(arg);
      }
    }
    return values;
  }

  /** The result text of the last call (its bytes, decoded: no search for a NUL). */
  result() {
    const pointer = this.module._mdw_result();
    return decoder.decode(this.module.HEAPU8.subarray(pointer, pointer + this.module._mdw_result_size()));
  }

  /**
   * Calls `mdw_<name>` with `args` (strings are copied in; null passes as 0;
   * numbers and booleans pass as they are); returns the result text, or
   * throws MartianDiceError with the library's message.
   */
  call(name, ...args) {
    return this.#outcome(this.module[`_mdw_${name}`](...this.#values(args)));
  }

  /**
   * Calls `mdw_<name>(...args)` after writing `request` (field name → string,
   * integer or boolean: the request model's fields, app/request.h) into the
   * module's request slots: each slot the words text (a string's address),
   * number, given. Returns the result text, or throws as call does.
   */
  callRequest(name, request, ...args) {
    const names = Object.keys(request);
    const n = names.length;
    const values = new Array(n + args.length);
    for (let i = 0; i < n; i++) values[i] = request[names[i]];
    for (let i = 0; i < args.length; i++) values[n + i] = args[i];
    const slots = names.map((field) => this.#slotOf(field));
    const passed = this.#values(values);
    const words = this.module.HEAPU32;  // after #values, which may grow the memory
    for (let i = 0; i < n; i++) {
      const at = (this.slotBase >> 2) + 3 * slots[i];
      words[at + (typeof values[i] === 'string' ? 0 : 1)] = passed[i] >>> 0;
      words[at + 2] = 1;
    }
    return this.#outcome(this.module[`_mdw_${name}`](...passed.slice(n)));
  }

  /** Calls `mdw_<name>(bytes, size)` with a copy of `bytes` in the module's memory. */
  callWithBytes(name, bytes) {
    const pointer = this.module._malloc(Math.max(bytes.length, 1));
    if (!pointer) {
      throw new MartianDiceError(`out of memory for ${bytes.length} bytes`, null, 'RESOURCE_EXHAUSTED');
    }
    let status;
    try {
      this.module.HEAPU8.set(bytes, pointer);
      status = this.module[`_mdw_${name}`](pointer, bytes.length);
    } finally {
      this.module._free(pointer);
    }
    return this.#outcome(status);
  }

  /**
   * Solves a policy table (mdw_solve), `onProgress(fraction, seconds)` called
   * as it goes; returns {info (the result object), bytes (a copy of the
   * table)}, or throws as call does.
   */
  solve(players, dice, bonus, target, onProgress) {
    if (onProgress !== undefined && onProgress !== null && typeof onProgress !== 'function') {
      throw new MartianDiceError('onProgress: expected a function', 'onProgress');
    }
    // The callback's exception never unwinds through the solve (whose C++
    // would not be cleaned up): caught, it stops the solve, then is thrown.
    let thrown = null;
    const outer = this.module.onSolveProgress;  // a solve started from another's onProgress
    this.module.onSolveProgress = onProgress ? (fraction, seconds) => {
      try {
        onProgress(fraction, seconds);
        return false;
      } catch (error) {
        thrown ??= { error };
        return true;
      }
    } : null;
    let info;
    try {
      info = JSON.parse(this.call('solve', players, dice, bonus, target));
    } catch (error) {
      throw thrown ? thrown.error : error;
    } finally {
      this.module.onSolveProgress = outer;
    }
    if (thrown) {  // thrown at the last progress call, the solve already done
      this.module._mdw_solved_release();
      throw thrown.error;
    }
    const pointer = this.module._mdw_solved_bytes();
    const bytes = this.module.HEAPU8.slice(pointer, pointer + this.module._mdw_solved_size());
    this.module._mdw_solved_release();
    return { info, bytes };
  }

  version() {
    return this.module.UTF8ToString(this.module._mdw_version());
  }

  #outcome(status) {
    const text = this.result();
    if (status === 0) return text;
    const error = JSON.parse(text);
    throw new MartianDiceError(error.error, error.input, error.code);
  }
}
