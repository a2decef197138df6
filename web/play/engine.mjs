// The page's engine: the package's MartianDice and one Game, behind one
// call(op, args) that answers plain objects (events, the state after, the
// advice), so that it can run in a Web Worker (worker.mjs) or, where module
// workers are missing, on the page's thread. No game rule here: every move is
// the library's (web/src/game.js).
import { MartianDice, OFFICIAL_TABLE_PLAYERS, officialTableUrl } from '../src/martiandice.js';

export async function createEngine() {
  const md = await MartianDice.create({ tables: [officialTableUrl(2)] });
  const loaded = new Set([2]);
  let game = null;

  const moves = {
    async new(options) {
      // A shipped table for 2 and 3 players (the 3-player one, 1 MB, when first needed);
      // more players play the fallback.
      if (OFFICIAL_TABLE_PLAYERS.includes(options.players) && !loaded.has(options.players)) {
        await md.loadTable(officialTableUrl(options.players));
        loaded.add(options.players);
      }
      const made = md.newGame(options);
      game?.free();
      game = made;
      return { events: game.events };
    },
    roll: (dice) => ({ events: game.roll(dice) }),
    take: (face) => ({ events: game.take(face) }),
    stop: () => ({ events: game.stop() }),
    rollOn: () => ({ events: game.rollOn() }),
    botStep: () => ({ events: game.botStep() }),
    advice: () => ({ advice: game.advice() }),
    log: () => ({ log: game.log }),
  };

  return {
    version: md.version,
    async call(op, args = []) {
      const move = moves[op];
      if (!move) throw new Error(`unknown operation ${op}`);
      if (op !== 'new' && !game) throw new Error('no game yet');
      const answer = await move(...args);
      return { ...answer, state: game.state };
    },
  };
}
