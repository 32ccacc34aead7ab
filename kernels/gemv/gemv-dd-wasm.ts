/**
 * GEMV summed in double-double in WebAssembly SIMD (double-double arithmetic, or fp64 arithmetic with the `dd`
 * accumulation) on built-in storage (A and x unscaled or with one scale each; y unscaled), with the double-double steps of the DD DOT
 * (src/backends/wasm/wasm-dd-steps.ts), in the loop order that reads op(A) contiguously:
 * - columns contiguous (column-major A, trans 'N'; row-major A, trans 'T'): column-oriented — for each column j,
 *   (hᵢ, lᵢ) := aᵢⱼ·xⱼ + (hᵢ, lᵢ) over a block of rows in SIMD lanes, four columns per pass. Each row adds its
 *   products in column order by the step the JavaScript kernel takes (ddTwoProdAccumulate, or ddMulAccumulate
 *   for a double-double factor); with the `dd` accumulation into two chains, column j into chain j mod 2, joined
 *   by ddAdd as the accumulation's result joins them. The same operations in the same order: the same bits.
 * - rows contiguous: each row a double-double DOT against x (kernels/dot/dot-dd-wasm.ts: eight lanes, the
 *   fixed tree of ddAdd), within the same bounds as the DOT (the module comment there).
 * A scaled A or x is read as the JavaScript reads it (src/backends/wasm/wasm-dd-read.ts): fp64 arithmetic's double
 * fl(v·s); double-double arithmetic's pair (v, 0)·(s, 0) — A in the kernel (ddScaledRead), x once in JavaScript by
 * ddMul, the same algorithm —, a double-double factor from there on (ddMulAccumulate's step).
 * Each row's pair then goes through {@link combineDdSumsProgram}: α, β and the store as the JavaScript kernels.
 * A non-finite sum (non-finite inputs, or a splitting overflow near the top of the range) leaves y untouched and
 * sends the call to the guarded JavaScript kernel, as the DD DOT does.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, operandLocals, operandSetup, stepLoop, type WasmOperand } from '../../src/backends/wasm/wasm-function.js';
import { ddAccumulateStep, ddStepScratch, ddStepSetup } from '../../src/backends/wasm/wasm-dd-steps.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, stageVector, wasmStorageNamed, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { ddReadOf, ddReader, scalesInLoad, type DdRead } from '../../src/backends/wasm/wasm-dd-read.js';
import { mulPairs } from '../../src/formats/dd/mul.js';
import { columnSegmentAt, rowPieces } from './gemv-in-place.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { addPairs } from '../../src/formats/dd/add.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { ddDotChunk, joinDdLanes } from '../dot/dot-dd-wasm.js';
import { xValues } from './gemv-wasm-values.js';
import { coefficientCase } from './coefficients.js';
import { combineDdSumsProgram } from './combine-dd-sums-cpu.js';

/** Columns added per pass over the partial sums. */
const COLUMNS = 4;
/** Rows per block of the column-oriented loop. */
const ROWS = CHUNK;
/** Bytes between the partial-sum arrays of the column-oriented loop (chain 0 hi, lo, chain 1 hi, lo). */
const SUMS_BYTES = ROWS * 8;

/**
 * The values of x as pairs (high parts, low parts), as double-double arithmetic reads them: double-double storage's
 * pairs; with a scale (one), each value (v, 0) — or the pair — times (s, 0) by ddMul, the algorithm of the templates'
 * product (src/backends/cpu/operand.ts, emitLoad), its special values repaired as the guarded template repairs them.
 */
export function xPairs(x: Accessor<1, any>, n: number): [Float64Array, Float64Array] {
  const hi = new Float64Array(n), lo = new Float64Array(n);
  const s = scaleOf(x), out = new Float64Array(2);
  for (let j = 0, p = x.offset; j < n; j++, p += x.strides[0] as number) {
    const v = x.storage.decode(x.data as never, p) as number | { hi: number; lo: number };
    const [h, l] = typeof v === 'number' ? [v, 0] : [v.hi, v.lo];
    if (x.scale) { mulPairs(out, h, l, s, 0); hi[j] = out[0]!; lo[j] = out[1]!; } else { hi[j] = h; lo[j] = l; }
  }
  return [hi, lo];
}

/** Whether an operand is read as its double-double pairs (dd storage in dd arithmetic), as the JavaScript kernels read it. */
export function readsPairs(a: Accessor<any, any>, ddArithmetic: boolean): boolean {
  return ddArithmetic && a.storage.kind === 'dd';
}

/** Whether GEMV and ELL SpMV read x as pairs ({@link xPairs}): double-double storage, or a scale, in double-double arithmetic. */
export function xReadsPairs(x: Accessor<1, any>, ddArithmetic: boolean): boolean {
  return readsPairs(x, ddArithmetic) || (ddArithmetic && !!x.scale);
}

type DdColumnsChunk = (pt: number, rows: number, pa0: number, pa1: number, pa2: number, pa3: number,
  xh0: number, xh1: number, xh2: number, xh3: number, xl0: number, xl1: number, xl2: number, xl3: number, columns: number, scale: number) => void;

/**
 * Partial sums (chain c's high parts at pt + 2c·SUMS_BYTES, low parts SUMS_BYTES further) of rows [0, rows)
 * += a_k·x_k for `columns` (1 to 4) staged column segments, column k into chain k mod `chains`; A read as `readA`
 * says (src/backends/wasm/wasm-dd-read.ts; `scaledLoad`: times the `scale` argument in fp64).
 */
function ddColumnsChunk(sa: WasmStorage, readA: DdRead, scaledLoad: boolean, general: boolean, chains: 1 | 2): DdColumnsChunk {
  const key = `${readA === 'number' ? '' : ` ${readA}`}${scaledLoad ? ' *s' : ''}`;
  return wasmExports(`gemv-dd-columns ${sa.name}${key}${general ? ' general' : ''} ${chains}`, 'the double-double GEMV kernel', () => {
    const l = new WasmLocals();
    const pt = l.param(I32), rows = l.param(I32);
    const pa = [l.param(I32), l.param(I32), l.param(I32), l.param(I32)];
    const xh = [l.param(F64), l.param(F64), l.param(F64), l.param(F64)];
    const xl = [l.param(F64), l.param(F64), l.param(F64), l.param(F64)];
    const columns = l.param(I32), scale = l.param(F64);
    const i = l.local(I32);
    const xhv = l.locals_(V128, COLUMNS), xlv = l.locals_(V128, COLUMNS);
    const sumHi = l.locals_(V128, 2), sumLo = l.locals_(V128, 2);
    const a = l.local(V128), al = l.local(V128);
    const scratch = ddStepScratch(l);
    const operands: WasmOperand[] = pa.map((p) => operandLocals(l, { storage: sa, pointer: p, scaleParam: scale }, scaledLoad));
    const readers = operands.map((o) => ddReader(l, o, readA));
    const pairA = readA !== 'number';
    // An exact double's low part stays the 0 set before the loop.
    const readAt = (col: number, k: number): number[] => readers[col]!.read(k, a, pairA ? al : undefined);
    const sumAt = (c: number, lo: boolean, k: number): number => 2 * c * SUMS_BYTES + (lo ? SUMS_BYTES : 0) + 16 * k;
    const loopFor = (count: number): number[] => stepLoop(i, rows, [...operands.slice(0, count), { pointer: pt, storage: wasmStorageNamed('f64')! }],
      [0, 1, 2, 3].flatMap((k) => [
        ...Array.from({ length: chains }, (_, c) => [
          ...op.get(pt), ...op.simdMem(SIMD.load, 0, sumAt(c, false, k)), ...op.set(sumHi + c),
          ...op.get(pt), ...op.simdMem(SIMD.load, 0, sumAt(c, true, k)), ...op.set(sumLo + c),
        ]).flat(),
        ...Array.from({ length: count }, (_, col) => [
          ...readAt(col, k),
          ...ddAccumulateStep(scratch, { a, b: xhv + col, low: general ? { a: al, b: xlv + col } : undefined, hi: sumHi + (col % chains), lo: sumLo + (col % chains) }),
        ]).flat(),
        ...Array.from({ length: chains }, (_, c) => [
          ...op.get(pt), ...op.get(sumHi + c), ...op.simdMem(SIMD.store, 0, sumAt(c, false, k)),
          ...op.get(pt), ...op.get(sumLo + c), ...op.simdMem(SIMD.store, 0, sumAt(c, true, k)),
        ]).flat(),
      ]));
    const body = [
      ...operands.flatMap((o) => operandSetup(o)), ...readers.flatMap((r) => r.setup),
      ...ddStepSetup(scratch),
      // An exact double's low part is 0 (the JavaScript templates read it as the pair (v, 0)).
      ...(general && !pairA ? [...op.f64(0), ...op.simd(SIMD.f64x2Splat), ...op.set(al)] : []),
      ...xh.flatMap((x, k) => [...op.get(x), ...op.simd(SIMD.f64x2Splat), ...op.set(xhv + k)]),
      ...xl.flatMap((x, k) => [...op.get(x), ...op.simd(SIMD.f64x2Splat), ...op.set(xlv + k)]),
      ...[1, 2, 3].flatMap((c) => [...op.get(columns), ...op.i32(c), 0x46 /* i32.eq */, ...op.if(), ...loopFor(c), ...op.br(1), ...op.end()]),
      ...loopFor(4),
    ];
    return encodeModule([l.function('columns', [], [...op.block(), ...body, ...op.end()])], 1);
  }).columns as DdColumnsChunk;
}

/**
 * y := α·op(A)·x + β·y for α ≠ 0, summed in double-double (the caller checked storages, layout and the quick
 * returns). Returns false, with y untouched, when a row's sum is not finite: the JavaScript kernel then runs.
 * @param ar - double-double arithmetic, or fp64 with the `dd` accumulation (`twoChains`)
 * @param twoChains - the `dd` accumulation (two interleaved chains)
 */
export function wasmDdGemv(alpha: number, opA: Accessor<2, any>, x: Accessor<1, any>, beta: number, y: Accessor<1, any>, m: number, n: number, ar: ArithmeticFormat, twoChains: boolean): boolean {
  const ddArithmetic = ar.kind === 'dd';
  const sums = opA.strides[0] === 1 ? columnSums(opA, x, m, n, ddArithmetic, twoChains) : rowSums(opA, x, m, n, ddArithmetic);
  for (let k = 0; k < 2 * m; k++) if (!Number.isFinite(sums[k]!)) return false;
  const alphaCase = coefficientCase(alpha) as 'one' | 'general';
  combineDdSumsProgram(y, ar, alphaCase, coefficientCase(beta))(m, sums, ...Operand.args(y), alpha, beta);
  return true;
}

/** Column-oriented sums over row blocks (op(A) has unit stride along its columns), as pairs. */
function columnSums(opA: Accessor<2, any>, x: Accessor<1, any>, m: number, n: number, ddArithmetic: boolean, twoChains: boolean): Float64Array {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const readA = ddReadOf(opA, ddArithmetic), pairX = xReadsPairs(x, ddArithmetic);
  const chains = twoChains ? 2 : 1;
  const f = ddColumnsChunk(sa, readA, scalesInLoad(opA, readA), readA !== 'number' || pairX, chains);
  const scale = scaleOf(opA);
  const [xh, xl] = pairX ? xPairs(x, n) : [xValues(x, n), new Float64Array(n)];
  const out = new Float64Array(2 * m);
  const T_AT = 64, A_AT = T_AT + 4 * SUMS_BYTES + 64;
  const segment = ROWS * sa.bytes + 64;
  reserveBytes(A_AT + COLUMNS * segment);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const part = (c: number, lo: boolean): Float64Array => new Float64Array(buffer, T_AT + 2 * c * SUMS_BYTES + (lo ? SUMS_BYTES : 0), ROWS);
  const ld = opA.strides[1] as number;
  const joined = new Float64Array(2);
  for (let r0 = 0; r0 < m; r0 += ROWS) {
    const rows = Math.min(ROWS, m - r0), padded = (rows + 7) & ~7;
    for (let c = 0; c < chains; c++) { part(c, false).fill(0, 0, padded); part(c, true).fill(0, 0, padded); }
    for (let j = 0; j < n; j += COLUMNS) {
      const c = Math.min(COLUMNS, n - j);
      // In place where A lives in a wasmArena (whole row blocks of 8), else staged: the same values in the same lanes.
      const pa = [0, 1, 2, 3].map((k) => (k < c ? columnSegmentAt(opA, sa, opA.offset + r0 + (j + k) * ld, rows, padded, A_AT + k * segment, buffer) : A_AT));
      f(T_AT, padded, pa[0]!, pa[1]!, pa[2]!, pa[3]!,
        xh[j]!, xh[j + 1] ?? 0, xh[j + 2] ?? 0, xh[j + 3] ?? 0, xl[j]!, xl[j + 1] ?? 0, xl[j + 2] ?? 0, xl[j + 3] ?? 0, c, scale);
    }
    const h0 = part(0, false), l0 = part(0, true);
    if (chains === 1) for (let i = 0; i < rows; i++) { out[2 * (r0 + i)] = h0[i]!; out[2 * (r0 + i) + 1] = l0[i]!; }
    else {
      // The dd accumulation's result: ddAdd(A, B) with A the chain that takes the next term (chain 0 when n is even).
      const h1 = part(1, false), l1 = part(1, true);
      const [ah, al, bh, bl] = n % 2 === 0 ? [h0, l0, h1, l1] : [h1, l1, h0, l0];
      for (let i = 0; i < rows; i++) {
        addPairs(joined, ah[i]!, al[i]!, bh[i]!, bl[i]!);
        out[2 * (r0 + i)] = joined[0]!; out[2 * (r0 + i) + 1] = joined[1]!;
      }
    }
  }
  return out;
}

/** One double-double DOT per row (op(A) has unit stride along its rows), x staged once. */
function rowSums(opA: Accessor<2, any>, x: Accessor<1, any>, m: number, n: number, ddArithmetic: boolean): Float64Array {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const pairX = xReadsPairs(x, ddArithmetic);
  // x staged as pairs when read as pairs (interleaved, as dd storage), else decoded once to doubles (its values, exactly).
  const sx = pairX ? wasmStorageNamed('dd')! : wasmStorageNamed('f64')!;
  const f = ddDotChunk(sa, sx, ddArithmetic, 'veltkamp', [!!opA.scale, false]);
  const scale = scaleOf(opA);
  const paddedN = (n + 7) & ~7;
  const X_AT = 256, A_AT = X_AT + paddedN * sx.bytes + 64;
  reserveBytes(A_AT + CHUNK * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  // The last chunk of a row is padded with zeros; so is x (0·NaN would be NaN).
  if (pairX && !x.scale) stageVector(x, 0, n, X_AT, paddedN, buffer);
  else if (pairX) {
    const [h, l] = xPairs(x, n), staged = new Float64Array(buffer, X_AT, 2 * paddedN).fill(0);
    for (let j = 0; j < n; j++) { staged[2 * j] = h[j]!; staged[2 * j + 1] = l[j]!; }
  }
  else { xValues(x, n, new Float64Array(buffer, X_AT, n)); new Float64Array(buffer, X_AT + n * 8, paddedN - n).fill(0); }
  const acc = new Float64Array(buffer, 0, 16);
  const out = new Float64Array(2 * m), joined = new Float64Array(2);
  const row = opA.strides[0] as number;
  for (let i = 0; i < m; i++) {
    acc.fill(0);
    // In place where A lives in a wasmArena (whole steps of 8: every element keeps its lane), the rest staged.
    rowPieces(opA, sa, opA.offset + i * row, n, A_AT, buffer, (pa, from, padded) => f(pa, scale, X_AT + from * sx.bytes, 1, padded));
    joinDdLanes(acc, joined);
    out[2 * i] = joined[0]!; out[2 * i + 1] = joined[1]!;
  }
  return out;
}
