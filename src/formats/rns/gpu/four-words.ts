/**
 * Four output words a thread (kernel-switches.ts `vectorWords`): a thread-per-word RNS pass rewritten so that thread
 * q makes words 4q … 4q + 3 and stores them as one 16-byte vector, reading the residue rows it needs as 16-byte
 * vectors too. gpu.js emits only 4-byte loads and stores, one word per thread; on the H100 that caps a copy at about
 * a quarter of the device's bandwidth, and vectors of four words are what lets its f32 kernels reach the rest.
 *
 * A word-per-thread pass whose output word t = e·n + i is residue i of element e reads the residue of an operand at
 * the same index t (the accumulator, the device arrays: residues element-major, n per element, from word 0), so the
 * four residues a thread needs are one aligned vector of that operand: vector q. Each word is computed by the scalar
 * pass's own statements, in a loop over c = 0 … 3 with t = 4q + c — the same integers, so the same words.
 *
 * @module
 */
import type { ProgramSpec } from '../../../backends/webgpu/program.js';

/** A 16-byte load made once per thread before the word loop: `const name = mpQuad(<array>Quad[min(q, last)])`. */
export interface QuadLoad {
  /** The local holding the vector (read as `name[c]` in the word's statements). */
  readonly name: string;
  /** The scalar array argument whose words are loaded (bound again, as a vector array, under `<array>Quad`). */
  readonly array: string;
  /** Source of the last vector index to load: threads past it load it again (their words do not use the vector). */
  readonly last: string;
}

/**
 * The four-words form of a thread-per-word pass.
 * @param scalar - the pass's source, `function (args) {\nconst t = this.thread.x;\n…}`, one word a thread; each
 *   `return v;` must stand outside every loop of the body (it becomes a `break` out of a one-pass loop)
 * @param loads - vectors loaded once per thread, read by the statements as `name[c]`
 * @returns the source (a 4-component result); its arguments are the scalar pass's and then `<array>Quad` for each load
 */
export function fourWordsSource(scalar: string, loads: readonly QuadLoad[]): string {
  const parts = /^function \(([^)]*)\) \{\nconst t = this\.thread\.x;\n([\s\S]*)\}\s*$/.exec(scalar);
  if (!parts) throw new Error('internal: a four-words pass starts from a thread-per-word source');
  const [, args, body] = parts as unknown as [string, string, string];
  if (/\bbreak\b|\bcontinue\b/.test(body)) throw new Error('internal: a four-words pass body may not break or continue');
  const quadArgs = loads.map((l) => `${l.array}Quad`);
  return `function (${[args, ...quadArgs].join(', ')}) {
const q = this.thread.x;
${loads.map((l) => `const ${l.name} = mpQuad(${l.array}Quad[mpImin(q, ${l.last})]);`).join('\n')}
let v0 = 0.0;
let v1 = 0.0;
let v2 = 0.0;
let v3 = 0.0;
for (let c = mpI32(0); c < 4; c++) {
const t = 4 * q + c;
let rv = 0.0;
for (let once = mpI32(0); once < 1; once++) {
${loopBody(body)}
}
if (c === 0) { v0 = rv; }
if (c === 1) { v1 = rv; }
if (c === 2) { v2 = rv; }
if (c === 3) { v3 = rv; }
}
return [v0, v1, v2, v3];
}`;
}

/**
 * The word's statements inside the one-pass loop: each `return v;` sets rv and leaves the loop, but the last (which
 * ends the body) only sets rv — a break there would leave the loop's step unreachable, which Tint warns of.
 */
function loopBody(body: string): string {
  const last = /\breturn ([^;]+);\s*$/.exec(body);
  if (!last) throw new Error('internal: a four-words pass body ends with its last return');
  return `${body.slice(0, last.index).replace(/\breturn ([^;]+);/g, '{ rv = $1; break; }')}rv = ${last[1]};\n`;
}

/**
 * Array arguments of the four-words form of a pass with arguments `args` ({@link fourWordsSource}).
 * @param args - the scalar pass's arguments
 * @param loads - its vector loads
 * @returns the arguments
 */
export function fourWordsArgs(args: ProgramSpec['args'], loads: readonly QuadLoad[]): ProgramSpec['args'] {
  return [...args, ...loads.map((l) => [`${l.array}Quad`, 'Array'] as const)];
}

/**
 * Threads of the four-words form of a pass writing `words` words.
 * @param words - the words the pass writes
 * @returns ⌈words/4⌉
 */
export function fourWordsThreads(words: number): number {
  return Math.ceil(words / 4);
}
