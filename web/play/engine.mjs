// The page's engine: the package's MartianDice, one Game (play mode) and one
// Coach (coach mode), behind one call(op, args) that answers plain objects
// (events, the state after, the advice; the coach's answers as serve writes
// them; the strategy pictures' SVG text), so that it can run in a Web Worker (worker.mjs) or, where module
// workers are missing, on the page's thread. No game rule here: every move
// and entry is the library's (web/src/game.js, web/src/coach.js).
import { MartianDice, OFFICIAL_TABLE_PLAYERS, officialTableUrl } from '../src/martiandice.js';

export async function createEngine() {
  const md = await MartianDice.create({ tables: [officialTableUrl(2)] });
  const loaded = new Set([2]);
  let game = null;
  let coach = null;

  // A shipped table for 2 and 3 players (the 3-player one, 1 MB, when first
  // needed); more players play the fallback.
  async function tableFor(players) {
    if (OFFICIAL_TABLE_PLAYERS.includes(players) && !loaded.has(players)) {
      await md.loadTable(officialTableUrl(players));
      loaded.add(players);
    }
  }

  // The coach's entries: each answers serve's object and the log so far.
  const coaching = {
    async open(options) {
      await tableFor(options.players);
      const made = md.coach(options);
      coach?.free();
      coach = made;
      return { answer: coach.opening, log: coach.log };
    },
    enter: (line) => ({ answer: coach.enter(line), log: coach.log }),
  };

  const moves = {
    async new(options) {
      await tableFor(options.players);
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
      // A strategy picture of the 2-player game (its table is registered above).
      if (op === 'plot') return { svg: md.plot(...args) };
      if (op.startsWith('coach.')) {
        const entry = coaching[op.slice(6)];
        if (!entry) throw new Error(`unknown operation ${op}`);
        if (op !== 'coach.open' && !coach) throw new Error('no coached game yet');
        return entry(...args);
      }
      const move = moves[op];
      if (!move) throw new Error(`unknown operation ${op}`);
      if (op !== 'new' && !game) throw new Error('no game yet');
      const answer = await move(...args);
      return { ...answer, state: game.state };
    },
  };
}
