// The page's Web Worker: the engine (engine.mjs) off the page's thread, so a
// first solve never stalls the page. Messages: {id, op, args} in;
// {id, value} or {id, error} out, and before them, for a table's solve (op
// 'table'), {id, progress, seconds} as it goes; {ready, version} once loaded.
// Every mode (play.mjs, coach.mjs, strategy.mjs) calls it.
import { createEngine } from './engine.mjs';

let engine;
try {
  engine = await createEngine();
  postMessage({ ready: true, version: engine.version });
} catch (error) {
  postMessage({ ready: false, error: String(error?.message ?? error) });
}

onmessage = async ({ data: { id, op, args } }) => {
  try {
    const onProgress = (fraction, seconds) => postMessage({ id, progress: fraction, seconds });
    postMessage({ id, value: await engine.call(op, args, { onProgress }) });
  } catch (error) {
    postMessage({ id, error: String(error?.message ?? error) });
  }
};
