/**
 * Control hooks: the control-plane client, KV-cache reset with retries, the server profiler with rollback and
 * stop aggregation, and origin handling. Knows nothing about phases; the orchestrator calls it.
 */
package io.aiperf.engine.hooks;
