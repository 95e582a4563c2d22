/** Statistics of a trace file before it is replayed: lengths, prefix reuse and cache hit rates (aiperf analyze-trace). */
package io.aiperf.engine.tracestats;
