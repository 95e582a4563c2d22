/** Monotonic clock, sleeper, parker and wall-clock mapping: the only sources of time in the engine. */
package io.aiperf.engine.time;
