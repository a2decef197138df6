// Random positions for the tests and the benchmark, from a seed: the
// positions random play meets in a turn (walked with the package's own `best`
// answers) and turn-start contexts of games that are not over.
import { MartianDiceError } from '../src/martiandice.js';

// A die's faces: 1 Tank, 2 Death Rays, 1 Human, 1 Cow, 1 Chicken (docs/RULES.md).
const DIE = ['T', 'R', 'R', 'H', 'C', 'K'];

function diceIn(notation) {
  if (notation === '-' || notation === '') return 0;
  return notation.split(' ').reduce((sum, group) => sum + parseInt(group, 10), 0);
}

export class Positions {
  constructor(seed) {
    // mulberry32: a small seeded generator.
    let state = seed | 0;
    this.random = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  pick(items) {
    return items[Math.floor(this.random() * items.length)];
  }

  between(lo, hi) {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  /** `n` dice rolled, in the notation ("2T 3R 1H"). */
  roll(n) {
    const counts = { T: 0, R: 0, H: 0, C: 0, K: 0 };
    for (let i = 0; i < n; i++) counts[this.pick(DIE)]++;
    return Object.entries(counts).filter(([, c]) => c > 0).map(([f, c]) => `${c}${f}`).join(' ');
  }

  /**
   * `count` positions met by random play under `rules` ({dice, bonus,
   * target}, each optional): {aside, roll}, roll absent when no dice are left.
   */
  turn(md, rules, count) {
    const dice = rules.dice ?? 13;
    const positions = [];
    let aside = '-';
    while (positions.length < count) {
      const left = dice - diceIn(aside);
      if (left === 0) {
        positions.push({ aside });
        aside = '-';
        continue;
      }
      const roll = this.roll(left);
      positions.push({ aside, roll });
      const answer = md.best({ ...rules, aside, roll });
      aside = answer.turn_over || this.random() < 0.15 ? '-' : this.pick(answer.options).aside_after;
    }
    return positions;
  }

  /** A turn-start context {scores, seat} of a game of `players` that is not over. */
  context(md, players) {
    for (;;) {
      const seat = this.between(0, players - 1);
      const scores = Array.from({ length: players },
        (_, s) => (s < seat ? this.between(0, 38) : this.between(0, 24)));
      try {
        md.eval({ objective: 'win', scores, seat });
        return { scores, seat };
      } catch (error) {
        if (!(error instanceof MartianDiceError)) throw error;
      }
    }
  }
}
