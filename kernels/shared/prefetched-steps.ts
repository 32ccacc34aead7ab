/**
 * Software pipelining for the streaming loops of GEMV and DOT (issue 19): a loop whose loads run one step ahead.
 * @module
 */
import type { GpuRegister } from '../../src/backends/webgpu/arithmetic.js';

/**
 * A streaming loop whose loads run one step ahead (software pipelining, the `gemvPrefetch` and `dotPrefetch` switches
 * of src/backends/webgpu/kernel-switches.ts): the registers of step k are loop-carried variables, loaded before the
 * loop for the first step; each iteration first loads step k + stride (clamped to end − span − 1, so a last
 * iteration loads elements in range that it never uses), then sums step k, then moves the new registers into the
 * carried ones. The sums and their order are the plain loop's; only when the loads go out changes (those of the next
 * step are in flight while this one is summed, where a plain step waits for its own loads).
 * @param loop - `k`: the counter (declared by the caller), `end`: the bound, `span`: the offset of a step's last
 *   element from k (a step runs while k + span < end), `stride`: how far k moves per step, `registers`:
 *   one step's registers as `sums` names them (f32 or ff kinds), `read`: the code loading a step at counter `k` into
 *   registers named with `suffix` (in the order of `registers`), `sums`: the step's multiply-adds
 * @returns the lines (the counter ends at the first element the plain loop's tail would take)
 */
export function prefetchedSteps(loop: { k: string; end: string; span: string; stride: string; registers: readonly GpuRegister[]; read: (k: string, suffix: string) => { code: string[]; registers: GpuRegister[] }; sums: readonly string[] }): string[] {
  const { k, end, span, stride, registers, read, sums } = loop;
  const zero = (r: GpuRegister): string => (r.kind === 'ff' ? '[0.0, 0.0]' : '0.0');
  const move = (to: readonly GpuRegister[], from: readonly GpuRegister[]): string[] => to.map((r, q) => `${r.name} = ${from[q]!.name};`);
  const first = read(k, 'f');
  const next = read(`${k}p`, 'n');
  return [
    ...registers.map((r) => `let ${r.name} = ${zero(r)};`),
    `if (${k} + ${span} < ${end}) {`, ...first.code, ...move(registers, first.registers), '}',
    `while (${k} + ${span} < ${end}) {`,
    // The next step, or (past the last one) the last step that ends in range: loaded, never summed.
    `const ${k}p = mpImin(${k} + ${stride}, ${end} - ${span} - 1);`,
    ...next.code,
    ...sums,
    ...move(registers, next.registers),
    `${k} = ${k} + ${stride};`,
    '}',
  ];
}

/**
 * {@link prefetchedSteps} without the register moves (the `prefetchPingPong` switch of
 * src/backends/webgpu/kernel-switches.ts): two sets of carried registers, U (the step's own names) and V (the same
 * names + `V`), and two steps per iteration — the first loads the next step into V while it sums U, the second
 * (where a step remains) loads into U while it sums V. In prefetchedSteps the loaded registers are live while the
 * carried ones are summed, so moving them into the carried ones at the back edge costs a move per register (3 per
 * column of GEMV N's two-row ff pass: 1.5 per term); here a register is loaded only after its last use, so a compiler
 * can load it in place. The same sums in the same order, from the same loads: the same bits.
 * @param loop - as {@link prefetchedSteps}
 * @returns the lines (the counter ends where prefetchedSteps' does)
 */
export function pingPongSteps(loop: { k: string; end: string; span: string; stride: string; registers: readonly GpuRegister[]; read: (k: string, suffix: string) => { code: string[]; registers: GpuRegister[] }; sums: readonly string[] }): string[] {
  const { k, end, span, stride, registers, read, sums } = loop;
  const zero = (r: GpuRegister): string => (r.kind === 'ff' ? '[0.0, 0.0]' : '0.0');
  const move = (to: readonly GpuRegister[], from: readonly GpuRegister[]): string[] => to.map((r, q) => `${r.name} = ${from[q]!.name};`);
  const second = registers.map((r) => ({ ...r, name: `${r.name}V` }));
  // The sums of V: the step's lines with each register renamed (whole identifiers only).
  const rename = new Map(registers.map((r, q) => [r.name, second[q]!.name]));
  const pattern = new RegExp(`\\b(${registers.map((r) => r.name).join('|')})\\b`, 'g');
  const sumsV = sums.map((line) => line.replace(pattern, (name) => rename.get(name)!));
  const first = read(k, 'f');
  const intoV = read(`${k}p`, 'n');
  const intoU = read(`${k}q`, 'o');
  return [
    ...registers.map((r) => `let ${r.name} = ${zero(r)};`),
    ...second.map((r) => `let ${r.name} = ${zero(r)};`),
    `if (${k} + ${span} < ${end}) {`, ...first.code, ...move(registers, first.registers), '}',
    `while (${k} + ${span} < ${end}) {`,
    `const ${k}p = mpImin(${k} + ${stride}, ${end} - ${span} - 1);`,
    ...intoV.code, ...move(second, intoV.registers),
    ...sums,
    `${k} = ${k} + ${stride};`,
    `if (${k} + ${span} < ${end}) {`,
    `const ${k}q = mpImin(${k} + ${stride}, ${end} - ${span} - 1);`,
    ...intoU.code, ...move(registers, intoU.registers),
    ...sumsV,
    `${k} = ${k} + ${stride};`,
    '}',
    '}',
  ];
}
