// The exact tables this browser keeps: house-rules tables the page solved
// and table files the player gave (engine.mjs), so that the next game with
// the same players and rules loads them instead of solving again (or asking
// for the file again). IndexedDB (it works in the worker and on the page's
// thread, in any context a page runs in): database "martiandice", object
// store "tables", keyed by the table's usual file name, which names its
// players and rules ("martiandice-p3-d13-b3-t15.mdt"); each record is
// {bytes (Uint8Array), players, rules, seconds (the solve's; null for a
// given file), saved}. Without storage
// (private modes, storage off) every call answers "nothing kept" and the
// page solves again, silently.

const DATABASE = 'martiandice';
const STORE = 'tables';

/** The key of a table: its usual file name (the library's TableFileName). */
export const tableKey = (players, { dice, bonus, target }) =>
  `martiandice-p${players}-d${dice}-b${bonus}-t${target}.mdt`;

let opened = null;

// The database, opened once (created at the first use).
function database() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('the table store is blocked'));
  });
  return opened;
}

// One request in a transaction of its own; resolves once the transaction is
// complete (a write is then stored), with the request's result.
async function transact(mode, work) {
  if (typeof indexedDB === 'undefined') throw new Error('no IndexedDB');
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('aborted'));
  });
}

/** The kept table's bytes for `key`, or null (none kept, or no storage). */
export async function storedTable(key) {
  try {
    const record = await transact('readonly', (store) => store.get(key));
    return record?.bytes instanceof Uint8Array ? record.bytes : null;
  } catch {
    return null;
  }
}

/** Keeps a solved table's record under `key`; false where storage fails (full, off). */
export async function keepTable(key, record) {
  try {
    await transact('readwrite', (store) => store.put(record, key));
    return true;
  } catch {
    return false;
  }
}

/** The keys of every kept table ([] without storage). */
export async function storedKeys() {
  try {
    return await transact('readonly', (store) => store.getAllKeys());
  } catch {
    return [];
  }
}

/** Forgets the table kept under `key` (one that no longer loads). */
export async function forgetTable(key) {
  try {
    await transact('readwrite', (store) => store.delete(key));
  } catch {
    // Nothing kept, or no storage: nothing to forget.
  }
}
