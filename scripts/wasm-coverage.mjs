/**
 * The WebAssembly backend's coverage matrix (issue 20), as the kernels' automatic choice reports it
 * (`cpuBackendOf`): for each kernel, arithmetic and accumulation, whether `backend: 'cpu'` runs WebAssembly or the
 * generated JavaScript (fp64 storage, unit strides, column-major A), then the storages DOT and GEMV read in
 * WebAssembly. Kernel-specific limits (GEMV/TRSV layouts without a unit stride, GEMV with pairwise or dot2 over
 * rows of op(A) that are not contiguous, TRSV into a scaled x, double-double arithmetic into a scaled or narrow output) are not in it: they are typed errors of `backend: 'wasm'`. A combination the JavaScript kernel itself refuses
 * (a compensated accumulation in double-double arithmetic, say) shows as js. Run `npx tsc -p tsconfig.json` first.
 *
 * Usage: node scripts/wasm-coverage.mjs
 */
import { cpuBackendOf, vector, matrix, formats } from '../dist/src/index.js';

const KERNELS = ['dot', 'gemv', 'trsv', 'ellSpmv', 'axpy', 'waxpby', 'scal', 'asum', 'nrm2'];
const ARITHMETICS = ['f64', 'f32', 'dd', 'ff', 'rns106'];
const ACCUMULATIONS = ['recursive', 'kahan', 'dot2', 'pairwise', 'dd'];
const writes = { gemv: ['y'], trsv: ['x'], ellSpmv: ['y'], axpy: ['y'], waxpby: ['w'], scal: ['x'] };

/** Operands of a kernel in fp64 storage (cpuBackendOf reads their formats only). */
function operands(kernel, storage = formats.f64) {
  const v = vector([1, 2, 3, 4], { storage, arithmetic: formats.f64 });
  const out = vector(4);
  const A = matrix(4, 4, (i, j) => (i === j ? 2 : 0.5), { storage, arithmetic: formats.f64 });
  switch (kernel) {
    case 'dot': return { x: v, y: v };
    case 'gemv': return { A, x: v, y: out };
    case 'trsv': return { A, x: out };
    case 'ellSpmv': return { x: v, y: out };
    case 'axpy': return { x: v, y: out };
    case 'waxpby': return { x: v, y: v, w: out };
    case 'scal': return { x: storage === formats.f64 ? out : vector(4, { storage, arithmetic: formats.f64 }) };
    default: return { x: v };
  }
}

const cell = (kernel, arithmetic, accumulation) => {
  const r = cpuBackendOf(kernel, operands(kernel), { arithmetic: formats[arithmetic], accumulation }, writes[kernel] ?? []);
  return r.backend === 'wasm' ? '**wasm**' : 'js';
};

console.log(`| arithmetic | accumulation | ${KERNELS.join(' | ')} |`);
console.log(`|---|---|${KERNELS.map(() => '---').join('|')}|`);
for (const ar of ARITHMETICS) {
  for (const acc of ACCUMULATIONS) {
    const row = KERNELS.map((k) => cell(k, ar, acc));
    if (row.every((c) => c === 'js') && acc !== 'recursive') continue;
    console.log(`| ${ar} | ${acc} | ${row.join(' | ')} |`);
  }
}
console.log('\n(rows of js only are left out, except the recursive accumulation\'s)\n');
const STORAGES = ['f64', 'f32', 'f16', 'bf16', 'i8', 'i16', 'i32', 'dd', 'ddSplit'];
console.log(`| storage (fp64 arithmetic) | ${KERNELS.join(' | ')} |`);
console.log(`|---|${KERNELS.map(() => '---').join('|')}|`);
for (const st of STORAGES) {
  const row = KERNELS.map((k) => {
    const ops = operands(k, formats[st]);
    // Outputs stay fp64: only the inputs' storage varies.
    const r = cpuBackendOf(k, ops, { arithmetic: formats.f64 }, writes[k] ?? []);
    return r.backend === 'wasm' ? '**wasm**' : 'js';
  });
  console.log(`| ${st} | ${row.join(' | ')} |`);
}
