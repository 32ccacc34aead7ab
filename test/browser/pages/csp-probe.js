// Runs a CPU DOT (automatic backend), a WebAssembly DOT, a JavaScript-only DOT (Kahan), an RNS DOT and a GPU DOT
// (all generate code: WebAssembly, JavaScript, or WGSL through gpu.js's compiler) and records what happened in
// window.__result.
import { dot, vector, formats, ModprecError } from '/lib/modprec.js';

const outcome = (f) => {
  try {
    return { value: f() };
  } catch (e) {
    return { error: { name: e.name, modprec: e instanceof ModprecError, code: e.code, parameter: e.parameter, message: e.message } };
  }
};
const x = vector([1, 2, 3], { storage: formats.f32 });
const y = vector([4, 5, 6], { storage: formats.f32 });
const outcomeAsync = async (f) => {
  try {
    const r = await f();
    return { value: r.value, backend: r.backend };
  } catch (e) {
    return { error: { name: e.name, modprec: e instanceof ModprecError, code: e.code, parameter: e.parameter, message: e.message } };
  }
};
const f64 = outcome(() => dot(x, y, { arithmetic: formats.f64 }));
const wasm = outcome(() => dot(x, y, { backend: 'wasm', arithmetic: formats.f64 }));
// An accumulation the WebAssembly backend does not run (pairwise in double-double arithmetic): the generated JavaScript.
const pairwiseDd = outcome(() => dot(x, y, { arithmetic: formats.dd, accumulation: 'pairwise' }));
const rns = outcome(() => dot(x, y, { arithmetic: formats.rns424 }));
const gpu = await outcomeAsync(() => dot(x, y, { backend: 'gpu', arithmetic: formats.f32, strict: true }));
window.__result = { f64, wasm, pairwiseDd, rns, gpu };
