// The benchmark's steps, run on the package (in Node or a page) as
// native.cpp runs them on the native build of the same binding: a step's
// `before` queries run once untimed (other queries of the same kind: the
// engine's optimizing compiler gets to the code first), then its queries
// `warmup` times untimed, then `repeat` times timed, the fastest of which
// counts (the least disturbed by other work); a table step times
// registering a table (its bytes read first). Answers are taken as the JSON
// text (evalJson/bestJson), as the native side gets them.

/** The plan as native.cpp reads it: one tab-separated record per line. */
export function planText(plan) {
  const lines = [];
  for (const step of plan) {
    if (step.table) {
      lines.push(['table', step.name, step.table].join('\t'));
      continue;
    }
    lines.push(['step', step.name, step.warmup, step.repeat].join('\t'));
    const queries = [...(step.before ?? []).map((q) => ['w', q]), ...step.queries.map((q) => ['q', q])];
    for (const [kind, q] of queries) {
      lines.push([kind, q.command, q.objective ?? '', q.exact ? 1 : 0, q.aside ?? '', q.roll ?? '',
        q.scores ? q.scores.join(',') : '', q.seat ?? ''].join('\t'));
    }
  }
  return `${lines.join('\n')}\n`;
}

function run(md, { command, ...query }) {
  return command === 'best' ? md.bestJson(query) : md.evalJson(query);
}

/**
 * Runs `plan` on `md` (a MartianDice); `readTable(file)` resolves to a
 * table's bytes. Resolves to [{name, queries, ms}], one per step: the fastest
 * pass over its queries.
 */
export async function runPlan(md, plan, readTable) {
  const results = [];
  for (const step of plan) {
    if (step.table) {
      const bytes = await readTable(step.table);
      const start = performance.now();
      md.addTable(bytes);
      results.push({ name: step.name, queries: 1, ms: performance.now() - start });
      continue;
    }
    for (const q of step.before ?? []) run(md, q);
    for (let w = 0; w < step.warmup; w++) for (const q of step.queries) run(md, q);
    let fastest = Infinity;
    for (let r = 0; r < step.repeat; r++) {
      const start = performance.now();
      for (const q of step.queries) run(md, q);
      fastest = Math.min(fastest, performance.now() - start);
    }
    results.push({ name: step.name, queries: step.queries.length, ms: fastest });
  }
  return results;
}
