/**
 * A benchmark's experiment, never used by the kernels: the calls issued inside {@link withBatchedSubmit} record their
 * compute passes into ONE command encoder, submitted once when they are all issued — the calls of a timing batch in
 * one command buffer instead of one submit each, to tell the device's idle time between submits from the kernels' own.
 *
 * What it keeps correct: each call's passes are encoded in call order (the same passes as unbatched, so the same bits).
 * What it refuses (throws): a `queue.writeBuffer` into a buffer that a pass already encoded in the batch binds — queue
 * writes run when issued, before the batch's passes, so that write would reach passes recorded before it (a plan
 * whose uniforms change from call to call; an operand rewritten between calls); any other `queue.submit` (a read-back,
 * a kernel that submits its own encoder): it would run before the batch's passes; a batch inside a batch; and a
 * validation error of the one submit (a buffer destroyed before it). A uniform buffer written on its first use in the
 * batch, a buffer created in the batch and written before a pass binds it, are fine. Uniform buffers made for a single
 * pass are destroyed after the batch's submit completes.
 *
 * @module
 */
import type { GpuContext } from './backend.js';
import type { GpuBuffer, GpuCommandEncoder } from './webgpu-types.js';
import { forgetGpuTimestampsSince, gpuTimestampMark } from './gpu-timestamps.js';

/** The open batch: its encoder, what its passes bind, and buffers to destroy once it has run. */
export interface OpenBatch {
  readonly encoder: GpuCommandEncoder;
  /** Buffers bound by the passes encoded so far (a queue write into one of them is refused). */
  readonly bound: Set<GpuBuffer>;
  /** Buffers to destroy after the batch's submit completes (program.ts's uncached uniforms). */
  readonly doomed: GpuBuffer[];
  /** Calls (submitPasses) encoded. */
  calls: number;
}

let open: { batch: OpenBatch; device: GpuContext['device'] } | undefined;

/**
 * The batch open on `context`'s device, if any (program.ts's submitPasses encodes into it instead of submitting).
 * @param context - the GPU context
 * @returns the open batch, or undefined
 */
export function openBatch(context: GpuContext): OpenBatch | undefined {
  return open && open.device === context.device ? open.batch : undefined;
}

/**
 * Runs `issue` (which issues GPU calls) with every call's passes appended to one command encoder, then submits that
 * encoder once. Resolves when the submit is issued (not when it completes: await `queue.onSubmittedWorkDone()`).
 * @param context - the GPU context
 * @param issue - issues the calls
 * @returns what `issue` returns
 * @throws Error when a call writes a buffer a batched pass binds, submits its own commands, the batch is nested, or the submit fails validation (nothing is submitted then)
 */
export async function withBatchedSubmit<T>(context: GpuContext, issue: () => Promise<T>): Promise<T> {
  if (open) throw new Error('withBatchedSubmit: a batch is already open (batches do not nest)');
  const device = context.device;
  const queue = device.queue as unknown as Record<string, unknown>;
  const batch: OpenBatch = { encoder: device.createCommandEncoder(), bound: new Set(), doomed: [], calls: 0 };
  const writeBuffer = queue.writeBuffer;
  const submit = queue.submit;
  // Guards on the queue for the batch's duration (own properties, removed after: the prototype's methods return).
  const ownWrite = Object.prototype.hasOwnProperty.call(queue, 'writeBuffer');
  const ownSubmit = Object.prototype.hasOwnProperty.call(queue, 'submit');
  queue.writeBuffer = (buffer: GpuBuffer, ...rest: unknown[]): void => {
    if (batch.bound.has(buffer)) throw new Error(`withBatchedSubmit: a call writes (queue.writeBuffer) a buffer of ${buffer.size} bytes that a pass already encoded in the batch binds; the write would run before that pass — this call cannot be batched`);
    return (writeBuffer as (...a: unknown[]) => void).call(queue, buffer, ...rest);
  };
  queue.submit = () => {
    throw new Error('withBatchedSubmit: a call submitted its own command buffer (a read-back or a kernel with its own encoder), which would run before the batch\'s passes — this call cannot be batched');
  };
  open = { batch, device };
  const stamped = gpuTimestampMark(context);
  let result: T;
  try {
    result = await issue();
  } catch (e) {
    batch.doomed.forEach((b) => b.destroy());
    // The batch's encoder is dropped: its calls' timestamps are never written.
    forgetGpuTimestampsSince(context, stamped);
    throw e;
  } finally {
    open = undefined;
    if (ownWrite) queue.writeBuffer = writeBuffer;
    else delete queue.writeBuffer;
    if (ownSubmit) queue.submit = submit;
    else delete queue.submit;
  }
  device.pushErrorScope('validation');
  (submit as (c: unknown[]) => void).call(queue, [batch.encoder.finish()]);
  const error = await device.popErrorScope();
  if (batch.doomed.length > 0) void device.queue.onSubmittedWorkDone().then(() => batch.doomed.forEach((b) => b.destroy()));
  if (error) {
    forgetGpuTimestampsSince(context, stamped);
    throw new Error(`withBatchedSubmit: the batch's submit failed validation: ${error.message}`);
  }
  return result;
}
