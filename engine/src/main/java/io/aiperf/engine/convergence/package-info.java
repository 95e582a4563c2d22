/**
 * Adaptive convergence (src-docs/capacity.md, "Convergence"): upstream AIPerf's {@code --convergence-*} options, that
 * stop repeated trials once a statistic is stable.
 */
package io.aiperf.engine.convergence;
