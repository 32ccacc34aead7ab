// Counts the integer/float operations of the GPU dd arithmetic's WGSL functions (issue 18, "profile by reasoning"):
// per function its own operators and calls, then the total with every call expanded (the wide window of dd-gpu-window-wgsl.ts
// and the lean one of dd-gpu-window-lean-wgsl.ts included). Every branch is counted (an
// upper bound of the path a term takes); `--path` also prints a per-term summary for DOT's dd·dd terms.
// Run after `npx tsc -p tsconfig.json`: node scripts/wgsl-op-count.mjs
import { XF_WGSL } from '../dist/src/formats/dd/dd-gpu-wgsl.js';
import { DW_WGSL } from '../dist/src/formats/dd/dd-gpu-window-wgsl.js';
import { DL_WGSL } from '../dist/src/formats/dd/dd-gpu-window-lean-wgsl.js';
import { DG_WGSL, DG_DD_WGSL, DG_ROWS_WGSL } from '../dist/src/formats/dd/dd-gpu-gemv-long-wgsl.js';
import { DG_DX_WGSL } from '../dist/src/formats/dd/dd-gpu-gemv-decoded-dd-wgsl.js';

const source = XF_WGSL + DW_WGSL + DL_WGSL + DG_WGSL + DG_DD_WGSL + DG_ROWS_WGSL + DG_DX_WGSL;
const functions = new Map();
const header = /fn (\w+)\(/g;
let m;
while ((m = header.exec(source))) {
  const open = source.indexOf('{', m.index);
  let depth = 0;
  let k = open;
  for (; k < source.length; k++) {
    if (source[k] === '{') depth++;
    else if (source[k] === '}' && --depth === 0) break;
  }
  functions.set(m[1], source.slice(open + 1, k));
}
// Operators of one body (comments dropped; `->` and the unary minus of literals are not operations).
function ownOps(body) {
  let code = body.replace(/\/\/.*$/gm, '').replace(/->/g, ' ');
  // Type arguments (vec4<u32>, bitcast<vec2<u32>>) are not comparisons: drop them, innermost first.
  for (let before = ''; before !== code; ) {
    before = code;
    code = code.replace(/\b(vec[234]|bitcast|array)<[^<>()]*>/g, '$1');
  }
  const ops = code.match(/<<|>>|<=|>=|==|!=|&&|\|\||[+\-*&|^<>!](?!=)/g) ?? [];
  const literalMinus = code.match(/[(,=]\s*-\s*\d/g) ?? [];
  const builtins = code.match(/\b(select|min|max|countLeadingZeros|any)\(/g) ?? [];
  return ops.length - literalMinus.length + builtins.length;
}
const total = new Map();
function totalOps(name, seen = new Set()) {
  if (total.has(name)) return total.get(name);
  if (seen.has(name)) return 0;
  seen.add(name);
  const body = functions.get(name);
  let n = ownOps(body);
  for (const call of body.matchAll(/\b(mp\w+)\(/g)) if (functions.has(call[1])) n += totalOps(call[1], seen);
  total.set(name, n);
  return n;
}
const show = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const name of show.length ? show : [...functions.keys()]) console.log(`${name}\town ${ownOps(functions.get(name))}\ttotal ${totalOps(name)}`);
if (process.argv.includes('--path')) {
  const old = 2 * totalOps('mpXfOfDdWords') + totalOps('mpXfFma');
  const window = (k) => totalOps('mpDwExpDdDd') + totalOps('mpDwAddDdDd') + 1 + 2 + totalOps('mpDwSettle') / k;
  console.log(`dd·dd DOT term, unfused (all branches): ${old}`);
  for (const k of [1, 2, 4, 8]) console.log(`dd·dd DOT term, window of ${k} (all branches, settle shared): ${window(k).toFixed(0)}`);
  const oldF64 = 2 * totalOps('mpXfOfF64Words') + totalOps('mpXfFma');
  console.log(`f64·f64 DOT term, unfused (all branches): ${oldF64}; GEMV's fused mpXfFmaF64F64: ${totalOps('mpXfFmaF64F64')}`);
  const f64 = (k) => totalOps('mpDwExpF64F64') + totalOps('mpDwAddF64F64') + 1 + 2 + totalOps('mpDwSettle') / k;
  for (const k of [4, 8]) console.log(`f64·f64 term, window of ${k} (all branches; the compiler folds the zero lo words away): ${f64(k).toFixed(0)}`);
  // The lean form (dd-gpu-window-lean-wgsl.ts): its own code, add and settle; f64 kinds have their own add functions.
  const lean = (kinds, k) => totalOps(`mpDlExp${kinds}`) + totalOps(`mpDlAdd${kinds}`) + 1 + 2 + totalOps('mpDlSettle') / k;
  for (const kinds of ['DdDd', 'F64Dd', 'F64F64']) {
    const wide = (k) => totalOps(`mpDwExp${kinds}`) + totalOps(`mpDwAdd${kinds}`) + 1 + 2 + totalOps('mpDwSettle') / k;
    console.log(`${kinds} term, all branches, settle shared: wide window of 4 ${wide(4).toFixed(0)}, of 8 ${wide(8).toFixed(0)}; lean window of 4 ${lean(kinds, 4).toFixed(0)}, of 8 ${lean(kinds, 8).toFixed(0)}`);
  }
  // GEMV N with x decoded once a call (ddGemvDecodedX): the row pass's term reads x's kind and limbs (mpDwOfF64 runs once per x_j).
  const f64x = (k) => totalOps('mpDwExpF64F64x') + totalOps('mpDwAddF64F64x') + 1 + 2 + totalOps('mpDwSettle') / k;
  console.log(`f64·f64 GEMV N term, window of 8, x decoded once (all branches): ${f64x(8).toFixed(0)}; the decoding, once per x_j: ${totalOps('mpDwOfF64')}`);
  const ddx = (k) => totalOps('mpDwExpDdDd') + totalOps('mpDwAddDdDd') + 1 + 2 + totalOps('mpDwSettle') / k;
  console.log(`dd·dd GEMV N term, window of 8 (all branches): ${ddx(8).toFixed(0)}`);
  // GEMV's long window (ddGemvLong, dd-gpu-gemv-long-wgsl.ts): per f64·f64 term its code and add, per step of 8 the
  // headroom check (twice), the re-anchoring, the step's maximum and the anchor's (the end's settle is once a pass).
  const longStep = 2 * totalOps('mpDgRoomy') + 2 + totalOps('mpDgRebase') + 7 + 1;
  console.log(`f64·f64 GEMV term, long window (all branches, step shared by 8): ${(totalOps('mpDgCode') + totalOps('mpDgAdd') + longStep / 8).toFixed(0)} (code ${totalOps('mpDgCode')}, add ${totalOps('mpDgAdd')}, step ${longStep})`);
  // ddGemvRows: x's limbs once for R rows (mpDgLimbs), each row's add with them given (mpDgAddShared).
  for (const R of [2, 4]) console.log(`f64·f64 GEMV term, long window, ${R} rows a thread (ddGemvRows; all branches): ${(totalOps('mpDgCode') + totalOps('mpDgAddShared') + totalOps('mpDgLimbs') / R + longStep / 8).toFixed(0)} (add ${totalOps('mpDgAddShared')}, x's limbs ${totalOps('mpDgLimbs')} shared by ${R})`);
  // ddGemvLongDd: terms with a dd operand in the same long window, in the lean term form (lean code, mpDgAdd<A><B>).
  for (const kinds of ['DdDd', 'F64Dd', 'DdF64']) {
    const code = totalOps(`mpDlExp${kinds}`);
    const add = totalOps(`mpDgAdd${kinds}`);
    console.log(`${kinds} GEMV term, long window (ddGemvLongDd; all branches, step shared by 8): ${(code + add + longStep / 8).toFixed(0)} (code ${code}, add ${add}); per-step wide window of 8 (the default): ${(totalOps(`mpDwExp${kinds}`) + totalOps(`mpDwAdd${kinds}`) + 1 + 2 + totalOps('mpDwSettle') / 8).toFixed(0)}`);
  }
  // ddGemvDecodedXDd: the same dd terms with x_j's code and limbs 0 … 5 from its decoded words (mpDgDecodeDd once per x_j).
  for (const a of ['Dd', 'F64']) {
    const code = totalOps(`mpDgExp${a}Dx`);
    const add = totalOps(`mpDgAdd${a}Dx`);
    console.log(`${a}Dd GEMV term, long window, x decoded once a call (ddGemvDecodedXDd; all branches, step shared by 8): ${(code + add + longStep / 8).toFixed(0)} (code ${code}, add ${add}); the decoding, once per x_j: ${totalOps('mpDgDecodeDd')}`);
  }
}
