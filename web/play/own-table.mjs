// A table file the player gives the page ("Your own table", in play and coach
// modes): refused unread when the module cannot take it, else read and
// registered by the engine (engine.mjs's ownTable: checked, kept in this
// browser), and the mode's form set to the table's game.
import { MAX_TABLE_BYTES, OFFICIAL_RULES } from '../src/martiandice.js';

const $ = (id) => document.getElementById(id);

// The engine's ownTable answer for `file` ({players, rules, size, kept}); throws with the reason.
async function giveTable(engine, file) {
  if (file.size > MAX_TABLE_BYTES) {
    throw new Error(`it takes ${Math.ceil(file.size / 2 ** 20)} MiB, and the page reads tables up to ` +
      `${MAX_TABLE_BYTES / 2 ** 20} MiB (the martiandice command reads larger ones)`);
  }
  return engine.call('ownTable', [new Uint8Array(await file.arrayBuffer())]);
}

const RULES = ['dice', 'bonus', 'target'];
const sameGame = (a, b) => a.players === b.players && RULES.every((name) => a.rules[name] === b.rules[name]);

// The games whose tables the player gave ({players, rules}), and each mode's labelling.
const games = [];
const forms = [];

/**
 * A mode's form for the player's own tables: `ids` names it ({file, status,
 * players, rule(name), more}), `optionText(n)` a players option whose game,
 * at the rules in the form's fields, plays from a table the player gave (in
 * either mode, this visit, or kept from an earlier one); the labels follow
 * the fields.
 */
export function ownTables(engine, ids, optionText) {
  const readRules = () => Object.fromEntries(RULES.map((name) => [name, Number($(ids.rule(name)).value)]));
  const label = () => {
    const rules = readRules();
    for (const option of $(ids.players).options) {
      option.dataset.text ??= option.textContent;
      const players = Number(option.value);
      option.textContent = games.some((g) => sameGame(g, { players, rules })) ? optionText(players)
        : option.dataset.text;
    }
  };
  const add = (given) => {
    games.push(...given.filter((game) => !games.some((g) => sameGame(g, game))));
    for (const relabel of forms) relabel();
  };
  for (const name of RULES) $(ids.rule(name)).addEventListener('input', label);
  forms.push(label);
  return {
    /** Names these games' options ([{players, rules}]: tables kept from an earlier visit). */
    add,
    /**
     * Gives the file chosen in the file input to the engine and sets the
     * form to its game: the players option chosen, the rules' fields, "More
     * rules" opened where the dice or the bonus are not the official ones.
     * Resolves to the table; where it cannot be used, says why in the status
     * line ("Cannot use FILE: ...") and resolves to null.
     */
    async use() {
      const file = $(ids.file).files[0];
      if (!file) return null;
      $(ids.status).textContent = `Reading ${file.name}…`;
      try {
        const table = await giveTable(engine, file);
        if (!$(ids.players).querySelector(`option[value="${table.players}"]`)) {
          throw new Error(`a table for ${table.players} players: the page follows 2 to 6`);
        }
        $(ids.players).value = String(table.players);
        for (const name of RULES) $(ids.rule(name)).value = String(table.rules[name]);
        const { dice, bonus } = OFFICIAL_RULES;
        if (table.rules.dice !== dice || table.rules.bonus !== bonus) $(ids.more).open = true;
        add([{ players: table.players, rules: table.rules }]);
        return table;
      } catch (error) {
        $(ids.status).textContent = `Cannot use ${file.name}: ${error.message}`;
        return null;
      }
    },
  };
}
