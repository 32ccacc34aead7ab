/**
 * GEMV's `loop` option, checked where GEMV and its bound check it: on the GPU (which has its own loop order), against
 * WebAssembly (whose loops are its own), and against the accumulation and arithmetic (`'axpy'` runs only the recursive
 * sum in a number-kind arithmetic).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import type { Refusal } from '../../src/backends/backend.js';
import { fail } from '../../src/core/errors.js';
import { recursiveAccumulation, type Accumulation } from '../shared/accumulation.js';
import { checkChoice } from './gemv-arguments.js';
import { GEMV_LOOP_CHOICES, type GemvLoop } from './gemv-cpu.js';
import { wasmGemvRefusal } from './gemv-wasm.js';
import { wasmOrderedGemvRefusal } from './gemv-ordered-wasm.js';

/**
 * Checks `options.loop` for `backend: 'gpu'`: only `'auto'` (or omitted).
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.loop`
 */
export function checkGpuLoop(loop: unknown): void {
  if (checkChoice('options.loop', loop, GEMV_LOOP_CHOICES, 'auto') !== 'auto') fail('INVALID_OPTION', 'options.loop', "must be 'auto' or omitted for backend 'gpu' (its loop order is its own)", loop);
}

/**
 * Why WebAssembly cannot run this GEMV: an explicit loop (the generated JavaScript's), else A's layout or the ordered
 * sums' limits; undefined when it can.
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.loop` for a value that is no loop
 */
export function wasmLoopRefusal(loop: unknown, opA: Accessor<2, any>, acc: Accumulation): Refusal | undefined {
  return explicitLoopRefusal(loop) ?? wasmGemvRefusal(opA) ?? wasmOrderedGemvRefusal(opA, acc);
}

/**
 * Why WebAssembly cannot run a GEMV with this `loop`: an explicit loop order is the generated JavaScript's.
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.loop` for a value that is no loop
 */
export function explicitLoopRefusal(loop: unknown): Refusal | undefined {
  if (checkChoice('options.loop', loop, GEMV_LOOP_CHOICES, 'auto') === 'auto') return undefined;
  return { code: 'INVALID_OPTION', parameter: 'options.loop', reason: "the loop orders are the generated JavaScript's: leave it 'auto' for WebAssembly" };
}

/**
 * Which loop the generated JavaScript runs.
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.loop` for `'axpy'` where it cannot run
 */
export function chooseLoop(option: unknown, opA: Accessor<2, any>, ar: ArithmeticFormat, acc: Accumulation): GemvLoop {
  const choice = checkChoice('options.loop', option, GEMV_LOOP_CHOICES, 'auto');
  const axpyPossible = acc.name === recursiveAccumulation.name && ar.kind === 'number';
  if (choice === 'axpy' && !axpyPossible) {
    fail('INVALID_OPTION', 'options.loop', `may be 'axpy' only with the recursive accumulation and a number-kind arithmetic (got ${acc.name}, ${ar.name})`, choice);
  }
  if (choice !== 'auto') return choice;
  if (Math.abs(opA.strides[0]) >= Math.abs(opA.strides[1])) return 'dot';
  return axpyPossible ? 'axpy' : 'dot-blocked';
}
