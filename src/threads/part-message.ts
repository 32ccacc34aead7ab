/**
 * The messages between a pool and its workers, and the shared control block through which a worker reports a
 * finished part: the calling thread blocks on it (Atomics.wait) while it cannot take messages.
 * @module
 */
import type { OperandDescription, WorkerRegistry } from './operand-transfer.js';
import type { PartCall } from './split-calls.js';

/** First message to a worker: its slot in the control block. */
export interface InitMessage { readonly type: 'init'; readonly slot: number; readonly slots: number; readonly control: SharedArrayBuffer }
/** A part to run: the part's call with its operands described. */
export interface RunMessage { readonly type: 'run'; readonly part: Omit<PartCall, 'ranges'> & { readonly operands: Readonly<Record<string, OperandDescription>> } }
/** A worker's answer to `init`: the formats and accumulations it knows by name. */
export interface ReadyMessage { readonly type: 'ready'; readonly registry: WorkerRegistry }

/** Slot states (Int32 per slot). */
export const BUSY = 0, DONE = 1, FAILED = 2;
/** Bytes of a slot's error text (JSON of code, parameter, message; cut to fit). */
export const MESSAGE_BYTES = 2048;

/** The control block's views for `slots` workers: states, values, error lengths, error texts. */
export function controlViews(control: SharedArrayBuffer, slots: number): { state: Int32Array; value: Float64Array; length: Int32Array; text: Uint8Array } {
  return {
    value: new Float64Array(control, 0, slots),
    state: new Int32Array(control, 8 * slots, slots),
    length: new Int32Array(control, 12 * slots, slots),
    text: new Uint8Array(control, 16 * slots, slots * MESSAGE_BYTES),
  };
}

/** Bytes of the control block for `slots` workers. */
export function controlBytes(slots: number): number {
  return 16 * slots + slots * MESSAGE_BYTES;
}
