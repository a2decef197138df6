// A table file the player gives the page ("Your own table", in play and coach
// modes): refused unread when the module cannot take it, else read and
// registered by the engine (engine.mjs's ownTable: checked, kept in this
// browser), and the mode's form set to the table's game.
import { MAX_TABLE_BYTES } from '../src/martiandice.js';

const $ = (id) => document.getElementById(id);

// The engine's ownTable answer for `file` ({players, rules, size, kept}); throws with the reason.
async function giveTable(engine, file) {
  if (file.size > MAX_TABLE_BYTES) {
    throw new Error(`it takes ${Math.ceil(file.size / 2 ** 20)} MiB, and the page reads tables up to ` +
      `${MAX_TABLE_BYTES / 2 ** 20} MiB (the martiandice command reads larger ones)`);
  }
  return engine.call('ownTable', [new Uint8Array(await file.arrayBuffer())]);
}

/**
 * Gives the file chosen in a mode's file input to the engine and sets the
 * mode's form to its game: the players option (named by `optionText(n)`)
 * chosen, the rules' fields, "More rules" opened where the dice or the bonus
 * are not the official ones. `ids`: {file, status, players, rule(name),
 * more}. Resolves to the table; where it cannot be used, says why in the
 * status line ("Cannot use FILE: ...") and resolves to null.
 */
export async function useTableFile(engine, ids, optionText) {
  const file = $(ids.file).files[0];
  if (!file) return null;
  $(ids.status).textContent = `Reading ${file.name}…`;
  try {
    const table = await giveTable(engine, file);
    const option = $(ids.players).querySelector(`option[value="${table.players}"]`);
    if (!option) throw new Error(`a table for ${table.players} players: the page follows 2 to 6`);
    option.textContent = optionText(table.players);
    $(ids.players).value = String(table.players);
    for (const name of ['dice', 'bonus', 'target']) $(ids.rule(name)).value = String(table.rules[name]);
    if (table.rules.dice !== 13 || table.rules.bonus !== 3) $(ids.more).open = true;
    return table;
  } catch (error) {
    $(ids.status).textContent = `Cannot use ${file.name}: ${error.message}`;
    return null;
  }
}
