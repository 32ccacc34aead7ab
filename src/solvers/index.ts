/**
 * Krylov solvers and iterative refinement over accessor-stored vectors.
 * @module
 */
export type { BreakdownReason, SolveStatus } from './breakdown.js';
export type { SolverResult } from './solver-result.js';
export type { SolverOptions } from './solver-options.js';
export { residualResolution } from './solver-options.js';
export { linearOperator, functionOperator, type LinearOperator, type OperatorLike, type FunctionOperatorParts } from './operator.js';
export { cg } from './cg.js';
export { jacobiCg } from './jacobi-cg.js';
export { bicgstab, DEFAULT_BREAKDOWN_RESTARTS, type BicgstabOptions, type BicgstabResult } from './bicgstab.js';
export { gmres, type GmresOptions } from './gmres.js';
export { iterativeRefinement, type RefinementOptions } from './iterative-refinement.js';
export type { GpuSolverOptions } from './gpu-solve-checks.js';
