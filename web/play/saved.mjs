// A game in progress, kept in this browser (localStorage), so that a reload,
// the back button or a phone that drops the tab resumes it: the game's
// options and every move since its start (play mode: the engine's game
// operations; coach mode: the entered lines), replayed on the next visit by
// the library itself. The same version, seed, table and moves give the same
// game; the record keeps the state after its last move and the game's table,
// and a replay that ends elsewhere (another version of the page, a table no
// longer in this browser) is dropped, the page saying so. One record a mode,
// under "martiandice.game.play" and "martiandice.game.coach": {version,
// owner, options, table, page (the mode's own settings), moves, state}. The
// tab that last started or resumed a game keeps it (`owner`): another tab
// that keeps a game of the same mode takes the record over, and this one's
// moves are no longer kept. A record that cannot be written (storage full) is
// removed rather than left behind its game. Without storage (private modes,
// storage off) nothing is kept, silently.

const key = (mode) => `martiandice.game.${mode}`;

/** The kept game of `mode` ('play' or 'coach'), or null (none, or unreadable). */
export function keptGame(mode) {
  try {
    const record = JSON.parse(localStorage.getItem(key(mode)) ?? 'null');
    const valid = record !== null && typeof record === 'object' && typeof record.version === 'string' &&
      record.options !== null && typeof record.options === 'object' && Array.isArray(record.moves) &&
      typeof record.state === 'string';
    return valid ? record : null;
  } catch {
    return null;
  }
}

/** Forgets the game of `mode` (it ended, or cannot be resumed). */
export function forgetGame(mode) {
  try {
    localStorage.removeItem(key(mode));
  } catch {
    // Storage off: nothing was kept.
  }
}

// Keeps `record`; where it cannot be written (storage full), the older one
// goes too: a reload then starts afresh rather than at an older position.
function keepGame(mode, record) {
  try {
    localStorage.setItem(key(mode), JSON.stringify(record));
  } catch {
    forgetGame(mode);
  }
}

// Another tab's record (or none) replaced this one's: its key changed in a `storage` event.
function takenOver(mode, owner, event) {
  if (event.key !== null && event.key !== key(mode)) return false;
  try {
    return JSON.parse(event.newValue ?? 'null')?.owner !== owner;
  } catch {
    return true;
  }
}

/**
 * A game kept as it goes: `move(step, state, over)` appends a move and keeps
 * the record with the state after it (forgotten once `over`, when given);
 * `keep(state)` keeps it as it is (its start, a change of `page`, the mode's
 * own settings). `onTakenOver()` is called once if another tab takes the
 * record over: from then on nothing is kept from here.
 */
export function gameRecord(mode, { version, options, table, moves = [], page = {} }, onTakenOver = () => {}) {
  const owner = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
  const record = { version, owner, options, table, page, moves: [...moves], state: '' };
  let kept = true;
  // Stops keeping (another game replaces this one in this tab, or another tab took it).
  const stop = () => {
    kept = false;
    globalThis.removeEventListener?.('storage', listener);
  };
  const listener = (event) => {
    if (!kept || !takenOver(mode, owner, event)) return;
    stop();
    onTakenOver();
  };
  globalThis.addEventListener?.('storage', listener);
  return {
    page,
    move(step, state, over = false) {
      if (!kept) return;
      record.moves.push(step);
      record.state = JSON.stringify(state);
      if (over) forgetGame(mode); else keepGame(mode, record);
    },
    keep(state) {
      if (!kept) return;
      if (state !== undefined) record.state = JSON.stringify(state);
      keepGame(mode, record);
    },
    /** Stops keeping (another game replaces this one in this tab). */
    drop: stop,
  };
}

/**
 * Why `record` does not resume as the replay did (a message), or null: the
 * version, the table and the state after the last move must be the same.
 */
export function replayMismatch(record, { version, table, state }) {
  if (record.version !== version) {
    return `it was played with martiandice ${record.version}, and this page is ${version}`;
  }
  if (JSON.stringify(record.table ?? null) !== JSON.stringify(table ?? null)) {
    return 'its table is no longer in this browser';
  }
  if (record.state !== JSON.stringify(state)) return 'its moves replay to another position';
  return null;
}
