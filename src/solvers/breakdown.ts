/**
 * Why a solver stopped before converging, other than its iteration limit: the breakdown reasons.
 * @module
 */

/**
 * Why a solver broke down. A breakdown is a result, never an exception:
 * - `rho-zero`: BiCGStab's ρ = r̂ᵀr vanished (the shadow residual became orthogonal to the residual);
 * - `sigma-zero`: BiCGStab's r̂ᵀAp vanished (α would divide by zero);
 * - `omega-zero`: BiCGStab's ω = tᵀs/tᵀt vanished (the stabilising step makes no progress; t = 0 included);
 * - `indefinite`: CG met pᵀAp < 0, or pᵀAp = 0 with A·p ≠ 0 (or, preconditioned, rᵀz ≤ 0): the matrix (or
 *   preconditioner) is not SPD;
 * - `singular`: CG met pᵀAp = 0 to working precision (at most n·u times the largest pᵀAp/‖p‖² met) with A·p ≈ 0: A is
 *   singular along p — a semidefinite A and a b with a part outside its range (an inconsistent system, which has no
 *   solution, and the last CG iterates grow along A's null space) —; x, `iterations` and `history` are those of the
 *   iterate of the smallest residual (the iteration is run again up to it), not the blow-up the last steps make;
 * - `stagnation`: consecutive checks of the true residual ‖b − Ax‖ stopped lowering it (the attainable accuracy of
 *   the storage and arithmetic is reached, or restarted GMRES / refinement makes no progress);
 * - `singular-factor`: iterative refinement's low-precision LU has a zero pivot;
 * - `non-finite`: a scalar of the recurrence became NaN or ±∞ (overflow, or an operator returning non-finite values);
 *   or (Krylov solvers) the solution, finite in the solve scaled by a power of two, overflows the double range at b's
 *   own scale (fp64, dd and narrower vectors; RNS vectors hold it) — then x is x₀ as given (zero by default), with
 *   x₀'s true residual, not ±∞.
 * @group Solvers
 */
export type BreakdownReason = 'rho-zero' | 'sigma-zero' | 'omega-zero' | 'indefinite' | 'singular' | 'stagnation' | 'singular-factor' | 'non-finite';

/**
 * How a solve ended: `converged` (the true residual met the tolerance), `iteration-limit`, or `breakdown`
 * (with a {@link BreakdownReason}).
 * @group Solvers
 */
export type SolveStatus = 'converged' | 'iteration-limit' | 'breakdown';
