/**
 * The elementwise update out ← α·x + β·y on the GPU, one thread per output word (two elements for 16-bit
 * formats), written in out's storage format: AXPY (out = y), WAXPBY and SCAL (β = 0, out = x) of the
 * `backend: 'gpu'` route. A zero coefficient means its vector is not read (NaN or ±∞ there do not leak),
 * as on the CPU; both zero write zeros.
 *
 * @module
 */
import { matrixOverlapOperand, refuseResidentOverlap } from '../../src/backends/webgpu/resident-overlap.js';
import { fail } from '../../src/core/errors.js';
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import { bindingWindows, bindWindow, createSpanBuffer, DeviceArray, splitBindings, windowOf, wordsPerElement } from '../../src/backends/webgpu/device-array.js';
import { isDdPairFormat } from '../../src/backends/webgpu/dd-split-bindings.js';
import { scalarBindings } from '../../src/backends/webgpu/finish-pass.js';
import { checkArgumentsObject, allowFallback, arrayArgs, bindArray, checkNumber, chooseArithmetic, commonRuntime, elementIndex, getPlan, type GpuKernelOptions, type Plan, type GpuRunInfo, kernelSource, memo, objectId, outputComponents, readKey, runInfo, withScalars } from '../../src/backends/webgpu/kernel-common.js';
import { hostUpdate } from '../../src/backends/webgpu/host-fallback.js';
import { getProgram, submitPasses, type BoundArray } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { aliasSnapshot, checkOwnedOutput, laneOutputOf, laneValues, outputWindow, serialisedViewWrite, throughPackedOutput, writesLanes, writesInPlace } from '../../src/backends/webgpu/view-output.js';
import { checkResidentOptions } from '../../src/backends/webgpu/resident-options.js';
import { fieldOf, throughInterleaved, withMapped } from '../../src/backends/webgpu/dd-split-device.js';

/**
 * Arguments of {@link gpuUpdate}: out ← α·x + β·y.
 * @group GPU
 */
export interface GpuUpdateArgs {
  /** Coefficient of x (x is not read when it is 0). */
  readonly alpha: number;
  /** Read when α ≠ 0. */
  readonly x?: DeviceArray;
  /** Coefficient of y (y is not read when it is 0). */
  readonly beta: number;
  /** Read when β ≠ 0. */
  readonly y?: DeviceArray;
  /** The result, in a format the GPU writes (f32, f16, bf16, f64, ff); may be x or y. */
  readonly out: DeviceArray;
}

/**
 * `lanes`: a sub-word output view written a lane per thread (one element a thread, its bits in lane 0 of the returned
 * word; the program's store keeps the word's other lanes: program.ts, `laneOutput`).
 */
function updateSource(arithmetic: GpuArithmetic, x: DeviceArray | undefined, y: DeviceArray | undefined, out: DeviceArray, strided: boolean, lanes = false): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...(x ? arrayArgs('X', x) : []), ...(y ? arrayArgs('Y', y) : []), ['rows', 'Integer'] as const, ...arithmetic.scalar.args('alpha'), ...arithmetic.scalar.args('beta'),
    ...(strided ? [['OutOff', 'Integer'] as const, ['OutInc', 'Integer'] as const] : [])];
  const zero = arithmetic.literal(0);
  const epw = lanes ? 1 : out.format.elementsPerWord;
  const body = [arithmetic.scalar.declare('al', 'alpha'), arithmetic.scalar.declare('be', 'beta')];
  // The store goes to unit OutOff + t·OutInc (applyStridedOutput); gpu.js keeps only arguments the source names.
  if (strided) body.push('const outUnit = OutOff + this.thread.x * OutInc;');
  const results: GpuRegister[] = [];
  for (let e = 0; e < epw; e++) {
    // Past the end (the last lanes of a last word) reads element rows − 1 and stores zero.
    body.push(`const q${e} = this.thread.x * ${epw} + ${e};`, `let r${e} = q${e};`, `if (q${e} >= rows) { r${e} = rows - 1; }`);
    if (x) {
      const rx = x.format.emitRead('X', elementIndex('X', x, `r${e}`), `xv${e}`, arithmetic);
      body.push(rx.code, arithmetic.declareMul(`u${e}`, rx.register, arithmetic.register('al')));
    } else {
      // α = 0: β·y + 0, as the CPU computes it (a −0 product becomes +0). A literal 0 would let the shader compiler
      // drop the addition (llvmpipe does: WAXPBY gave −0), so a one-word zero goes through the mpKeep barrier.
      body.push(`let u${e} = ${y ? keptZero(arithmetic) : zero};`);
    }
    if (y) {
      const ry = y.format.emitRead('Y', elementIndex('Y', y, `r${e}`), `yv${e}`, arithmetic);
      body.push(ry.code, arithmetic.declareMul(`w${e}`, ry.register, arithmetic.register('be')), arithmetic.add(`u${e}`, arithmetic.register(`w${e}`)));
    }
    body.push(`if (q${e} >= rows) { u${e} = ${zero}; }`);
    results.push(arithmetic.register(`u${e}`));
  }
  body.push(out.format.emitReturn(lanes ? laneValues(out.format.elementsPerWord, results[0]!) : results));
  return { source: kernelSource(args, body), args };
}

/**
 * The zero that α = 0 adds to β·y, behind the mpKeep barrier word by word (f32 and float-float): with a literal zero
 * the shader compiler drops the addition 0 + β·y, and a −0 product (β·y with β a tiny double read as −0 in
 * float-float) stayed −0 where the CPU's 0 + (−0) is +0. Other arithmetics keep the literal.
 */
function keptZero(arithmetic: GpuArithmetic): string {
  if (arithmetic.components === 1) return `mpKeep(${arithmetic.literal(0)})`;
  return arithmetic.components === 2 ? '[mpKeep(0.0), mpKeep(0.0)]' : arithmetic.literal(0);
}

/** Elements a thread of the vector update takes: one vector load of four per input. */
const VECTOR = 4;

/** The expression `format.emitReturn` returns for `values` (a single `return …;`), or undefined for another form. */
function returnExpression(out: DeviceArray, values: readonly GpuRegister[]): string | undefined {
  return /^return ([^;]*);$/.exec(out.format.emitReturn(values).trim())?.[1];
}

/**
 * Whether the update can run four elements per thread with vector loads: a packed output of one word or less per
 * element (f32, f16, bf16) written in one window, a length that is a multiple of four (no partial vector at the end:
 * a vector load past the buffer could be clamped onto other elements), and inputs that are whole arrays (not views,
 * not scaled) of formats with a vector read. One scalar load of 4 bytes per thread keeps too few bytes in flight to
 * stream memory (a gpu.js copy reaches ~0.8 of 3 TB/s on the H100); four per thread is what DOT's first pass does.
 */
function vectorUpdate(plan: Plan, x: DeviceArray | undefined, y: DeviceArray | undefined, out: DeviceArray, arithmetic: GpuArithmetic, strided: boolean, windows: number, split: boolean): boolean {
  if (strided || split || windows !== 1 || out.length % VECTOR !== 0 || out.length === 0) return false;
  const epw = out.format.elementsPerWord;
  if (out.format.wordsPerElement !== 1 || (epw !== 1 && epw !== 2)) return false;
  if (!returnsOneExpression(plan, out, arithmetic)) return false;
  return [x, y].every((a) => !a || (!a.isView && !a.format.scaled && !a.rangeScale && a.format.vectorRead !== undefined));
}

/**
 * Whether out's format returns its words as one expression (the probe {@link vectorUpdate} needs), kept per plan: the
 * probe emits a return statement and matches it with a regular expression, microseconds of host time that every call
 * paid. The plan's key names out (its format is fixed) and the arithmetic, all the probe depends on.
 */
const oneExpressionOfPlan = new WeakMap<Plan, boolean>();

function returnsOneExpression(plan: Plan, out: DeviceArray, arithmetic: GpuArithmetic): boolean {
  let known = oneExpressionOfPlan.get(plan);
  if (known === undefined) {
    const probe = [0, 1].slice(0, out.format.elementsPerWord).map((j) => arithmetic.register(`probe${j}`));
    known = returnExpression(out, probe) !== undefined;
    oneExpressionOfPlan.set(plan, known);
  }
  return known;
}

/** {@link updateSource} for {@link vectorUpdate}: thread t computes elements 4t … 4t + 3 and returns their words. */
function vectorUpdateSource(arithmetic: GpuArithmetic, x: DeviceArray | undefined, y: DeviceArray | undefined, out: DeviceArray): { source: string; args: ReturnType<typeof arrayArgs> } {
  const vx = x?.format.vectorRead, vy = y?.format.vectorRead;
  const args = [...(vx ? [[`X${vx.suffix}`, 'Array'] as const] : []), ...(vy ? [[`Y${vy.suffix}`, 'Array'] as const] : []),
    ...arithmetic.scalar.args('alpha'), ...arithmetic.scalar.args('beta')];
  const zero = arithmetic.literal(0);
  const body = [arithmetic.scalar.declare('al', 'alpha'), arithmetic.scalar.declare('be', 'beta'), `const k = this.thread.x * ${VECTOR};`];
  const qx = vx?.emit(`X${vx.suffix}`, 'k', 'xq', arithmetic);
  const qy = vy?.emit(`Y${vy.suffix}`, 'k', 'yq', arithmetic);
  if (qx) body.push(qx.code);
  if (qy) body.push(qy.code);
  const results: GpuRegister[] = [];
  for (let e = 0; e < VECTOR; e++) {
    // The same operations, in the same order, as the scalar update's element: the same bits.
    if (qx) body.push(arithmetic.declareMul(`u${e}`, qx.registers[e]!, arithmetic.register('al')));
    else body.push(`let u${e} = ${qy ? keptZero(arithmetic) : zero};`);
    if (qy) body.push(arithmetic.declareMul(`w${e}`, qy.registers[e]!, arithmetic.register('be')), arithmetic.add(`u${e}`, arithmetic.register(`w${e}`)));
    results.push(arithmetic.register(`u${e}`));
  }
  const epw = out.format.elementsPerWord;
  const words = Array.from({ length: VECTOR / epw }, (_, j) => returnExpression(out, results.slice(j * epw, (j + 1) * epw))!);
  body.push(`return [${words.join(', ')}];`);
  return { source: kernelSource(args, body), args };
}

/**
 * Whether `input` is the output view `out` itself (SCAL in place, AXPY into y): each thread then reads only the
 * element it writes, so the input may be bound to the output's buffer as it is being written, no snapshot needed.
 */
function isOutputItself(input: DeviceArray, out: DeviceArray): boolean {
  return input.buffer === out.buffer && input.format === out.format && input.offset === out.offset && input.stride === out.stride
    && input.length === out.length && !input.rangeScale && !out.rangeScale;
}


/**
 * The update's passes, one per binding window ({@link bindingWindows}: one unless an operand exceeds a storage
 * binding). A packed output is computed into a fresh buffer that then replaces it (out may be x or y, read by these
 * very passes); a view ({@link writesInPlace}) is written in place in its span's buffer, through a strided-output
 * program — elements of the span outside the view are not touched — with inputs sharing that buffer read from a
 * snapshot ({@link aliasSnapshot}).
 */
async function updateOnDevice(runtime: GpuRuntime, args: GpuUpdateArgs, x: DeviceArray | undefined, y: DeviceArray | undefined, arithmetic: GpuArithmetic, lanes = false): Promise<void> {
  const { out } = args;
  const context = runtime.context;
  const strided = !out.coversSpan;
  const operands = [...(x ? [x] : []), ...(y ? [y] : []), out];
  const windows = bindingWindows(operands, out.length);
  const split = splitBindings(operands);
  // An input that is the output view itself is read from the output binding (no copy of its extent); its own binding
  // is then a one-word placeholder of the plan.
  const itself = (a: DeviceArray | undefined): boolean => a !== undefined && strided && isOutputItself(a, out);
  const readsOutput = [...(itself(x) ? ['X'] : []), ...(itself(y) ? ['Y'] : [])];
  const key = `upd|${x ? objectId(x) : 0}|${y ? objectId(y) : 0}|${objectId(out)}|${arithmetic.name}|${strided ? 'in-place' : 'fresh'}|${lanes}|${readsOutput.join('')}`;
  const plan = getPlan(runtime, key, windows.length, () => [strided ? createWordBuffer(context, 1) : createSpanBuffer(runtime, out)]);
  const vector = vectorUpdate(plan, x, y, out, arithmetic, strided, windows.length, split);
  const spec = memo(`upd|${arithmetic.name}|${x ? readKey(x) : '-'}|${y ? readKey(y) : '-'}|${readKey(out)}|${strided ? 'strided' : ''}|${lanes ? 'lanes' : ''}|${readsOutput.join('')}|${vector ? 'v' : 's'}`,
    () => (vector ? vectorUpdateSource(arithmetic, x, y, out) : updateSource(arithmetic, x, y, out, strided, lanes)));
  const components = vector ? (VECTOR / out.format.elementsPerWord) as 2 | 4 : outputComponents(out.format);
  const program = await getProgram(context, { source: spec.source, args: spec.args, components, stridedOutput: strided, laneOutput: lanes && laneOutputOf(out), readsOutput, pairOutput: !vector && isDdPairFormat(out.format) });
  const base: Record<string, number> = scalarBindings(arithmetic, args.alpha, args.beta);
  const fromX = x && strided && !itself(x) ? aliasSnapshot(runtime, out, x) : undefined;
  const fromY = y && strided && !itself(y) ? aliasSnapshot(runtime, out, y) : undefined;
  const fresh = plan.scratch[0];
  const passes = windows.map((w, k) => {
    const arrays: Record<string, BoundArray> = {};
    const scalars = withScalars({ rows: w.count }, base);
    let output: BoundArray;
    if (strided) {
      const o = outputWindow(out, w, lanes);
      output = o.bound;
      Object.assign(scalars, o.scalars);
    }
    for (const [name, a, snapshot] of [['X', x, fromX], ['Y', y, fromY]] as const) {
      if (!a) continue;
      bindArray(name, a, arrays, scalars);
      if (readsOutput.includes(name)) {
        // Read through the output binding: the offset counts from its first element.
        arrays[name] = { buffer: plan.scratch[0]! };
        scalars[`${name}Off`] = out.offset + w.start * out.stride - output!.offset! / (4 * wordsPerElement(out));
        continue;
      }
      if (split) bindWindow(name, a, w, arrays, scalars);
      if (snapshot) arrays[name] = { ...arrays[name]!, buffer: snapshot };
      if (vector) arrays[`${name}${a.format.vectorRead!.suffix}`] = arrays[name]!;
    }
    if (!strided) {
      output = split ? { ...windowOf(out, w), buffer: fresh! } : { buffer: fresh! };
    }
    const threads = vector ? w.count / VECTOR : lanes ? w.count : Math.ceil(w.count / out.format.elementsPerWord);
    return { pass: { program, arrays, scalars, output: output!, threads }, cache: plan.passes[k]! };
  });
  submitPasses(context, passes);
  if (!strided) {
    // Ping-pong: out's old buffer becomes the plan's spare (out may be x or y, read by this very pass).
    plan.scratch[0] = out.buffer!;
    out.buffer = fresh;
  }
  out.version++;
}

/**
 * out ← α·x + β·y elementwise on the GPU (AXPY, WAXPBY, SCAL). A zero coefficient means its vector is not read.
 *
 * @param args - α, x, β, y, out (same lengths)
 * @param options - arithmetic (`f32` or `ff`; default as for every GPU kernel), strictness
 * @returns the run report (out is updated on the device)
 * @throws {@link modprec!ModprecError} `DIMENSION_MISMATCH` for different lengths; `INVALID_STORAGE` for a missing
 *   operand whose coefficient is not 0 (a strided view of out, x, y is read and written through its offset and stride;
 *   the span around it is left as it was); `INVALID_FORMAT` when out cannot be written on the GPU; `INVALID_VALUE` for a non-number α, β
 * @example
 * ```ts
 * import { toDevice, gpuUpdate } from 'modprec/gpu';
 *
 * const x = await toDevice([1, 2, 3]), y = await toDevice([1, 1, 1]);
 * await gpuUpdate({ alpha: 2, x, beta: 1, y, out: y }, { arithmetic: 'ff' });
 * await y.toHost(); // → Float64Array(3) [ 3, 5, 7 ]
 * ```
 * @group GPU
 */
export async function gpuUpdate(args: GpuUpdateArgs, options: GpuKernelOptions = {}): Promise<GpuRunInfo> {
  checkArgumentsObject(args, '{ alpha, x, beta, y, out }');
  // An output overlapping an input is refused as the CPU refuses it — exactly an input is allowed, as for AXPY and
  // WAXPBY (before the dd-split copies hide the sharing).
  refuseResidentOverlap('out', args.out, [['x', args.x], ['y', args.y]], true);
  // A dd-split operand runs on its interleaved dd copy (dd-split-device.ts).
  return throughInterleaved(['x', 'y', 'out'].map((k) => fieldOf(args, k)), fieldOf(args, 'out'), (dd) => gpuUpdateOf(withMapped(withMapped(withMapped(args, 'x', dd), 'y', dd), 'out', dd), options));
}

/** gpuUpdate on operands in the kernels' layouts. */
async function gpuUpdateOf(args: GpuUpdateArgs, options: GpuKernelOptions): Promise<GpuRunInfo> {
  checkResidentOptions(options, 'gpuUpdate');
  const alpha = checkNumber('alpha', args.alpha);
  const beta = checkNumber('beta', args.beta);
  const { out } = args;
  if (!(out instanceof DeviceArray)) fail('INVALID_STORAGE', 'out', 'must be a DeviceArray (see toDevice)', out);
  if (!out.format.writable) fail('INVALID_FORMAT', 'out', 'must be stored in a format kernels write on the GPU (f32, f16, bf16, f64, ff)', out.format.name);
  checkOwnedOutput('out', out);
  const x = alpha !== 0 ? args.x : undefined;
  const y = beta !== 0 ? args.y : undefined;
  const named: Record<string, DeviceArray> = { out };
  // Every operand given is checked, read or not, and lengths are named as WAXPBY names them on the CPU: y against x,
  // then the output against x (here: the first given of x and y). An x given with α = 0 was not checked: one of the
  // wrong length, or no DeviceArray at all, ran where waxpby(0, x, β, y, w) is DIMENSION_MISMATCH or INVALID_OPTION.
  let reference: readonly [string, DeviceArray] | undefined;
  for (const [name, a] of [['x', args.x], ['y', args.y]] as const) {
    if (a === undefined && (name === 'x' ? alpha : beta) !== 0) fail('INVALID_STORAGE', name, 'must be a DeviceArray when its coefficient is not 0');
    if (a === undefined) continue;
    if (!(a instanceof DeviceArray)) fail('INVALID_STORAGE', name, 'must be a DeviceArray (see toDevice)', a);
    if (reference && a.length !== reference[1].length) fail('DIMENSION_MISMATCH', name, `must have the length of ${reference[0]} (${reference[1].length})`, a.length);
    reference ??= [name, a];
    if ((name === 'x' ? x : y) !== undefined) named[name] = a;
  }
  if (reference && out.length !== reference[1].length) fail('DIMENSION_MISMATCH', 'out', `must have the length of ${reference[0]} (${reference[1].length})`, out.length);
  const arithmetic = chooseArithmetic(options, Object.values(named));
  const runtime = commonRuntime(named, ['x', 'y', 'out']);
  if (!runtime) {
    allowFallback(options, out.fallbackReason);
    await hostUpdate({ alpha, x, beta, y, out }, arithmetic);
    return runInfo(undefined, arithmetic, out.fallbackReason);
  }
  // An output view is written in place where each thread's store holds view elements only, any other sub-word view (8
  // or 16 bits) a lane per thread (atomic where two of its elements may share a word); a view in a format of no packed
  // layout (view-output.ts, packedLayout) through a packed twin and a scatter, which refuse it.
  if (out.length === 0) return runInfo(runtime, arithmetic, '');
  if (writesInPlace(out)) await serialisedViewWrite(out, () => updateOnDevice(runtime, args, x, y, arithmetic));
  else if (writesLanes(out)) await serialisedViewWrite(out, () => updateOnDevice(runtime, args, x, y, arithmetic, true));
  else await throughPackedOutput(runtime, out, false, (packed) => updateOnDevice(runtime, { ...args, out: packed }, x, y, arithmetic));
  return runInfo(runtime, arithmetic, '');
}
