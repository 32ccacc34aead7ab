/**
 * `modprec/threads`: worker threads for the CPU kernels. Kept out of the main entry so a CPU-only bundle does not
 * carry the pool (the kernels only check the `threads` option's shape).
 * @module
 */
export { createThreadPool, ThreadPool, type ThreadPoolOptions } from './thread-pool.js';
export type { KernelThreads, SplitCall, ThreadsOption } from '../../kernels/shared/threads-option.js';
