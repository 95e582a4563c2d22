/** Records to metrics: per-request values, exact statistics and run-level aggregates, as AIPerf computes them. Knows nothing of HTTP. */
package io.aiperf.engine.metrics;
