/**
 * The arithmetic a streaming pass (DOT's first pass, GEMV's partial pass) runs in: float-float's folded products and
 * lean settles where their switches are on (src/formats/ff/ff-folded-products.ts, ff-lean-settle.ts), made once per
 * arithmetic and setting of the switches instead of once per call — each is a copy of the arithmetic's many fields,
 * garbage on every warm call. Each form is a function of the arithmetic and the switches only, so the cached one is
 * the same as a fresh one.
 *
 * @module
 */
import type { GpuArithmeticPart } from '../../formats/common/gpu-part.js';
import { foldedProductPass } from '../../formats/ff/ff-folded-products.js';
import { leanSettlePass } from '../../formats/ff/ff-lean-settle.js';
import { perSwitchSetting } from './kernel-switches.js';

const passOf = perSwitchSetting((arithmetic: GpuArithmeticPart) => leanSettlePass(foldedProductPass(arithmetic)));

/**
 * `leanSettlePass(foldedProductPass(arithmetic))`, cached per arithmetic while the kernel switches stay as they are.
 * @param arithmetic - the arithmetic (or its GEMV or DOT variant)
 * @returns the arithmetic of the streaming pass
 */
export function streamingPass<T extends GpuArithmeticPart>(arithmetic: T): T {
  return passOf(arithmetic) as T;
}
