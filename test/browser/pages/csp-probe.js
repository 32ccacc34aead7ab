// Runs a CPU DOT and an RNS DOT (both generate code) and records what happened in window.__result.
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
window.__result = {
  f64: outcome(() => dot(x, y)),
  rns: outcome(() => dot(x, y, { arithmetic: formats.rns424 })),
};
