// A table file the player gives the page ("Your own table", in play and coach
// modes): refused unread when the module cannot take it, else read and
// registered by the engine (engine.mjs's ownTable: checked, kept in this
// browser).
import { MAX_TABLE_BYTES } from '../src/martiandice.js';

/** The engine's ownTable answer for `file` ({players, rules, size, kept}); throws with the reason. */
export async function giveTable(engine, file) {
  if (file.size > MAX_TABLE_BYTES) {
    throw new Error(`it takes ${Math.ceil(file.size / 2 ** 20)} MiB, and the page reads tables up to ` +
      `${MAX_TABLE_BYTES / 2 ** 20} MiB (the martiandice command reads larger ones)`);
  }
  return engine.call('ownTable', [new Uint8Array(await file.arrayBuffer())]);
}
