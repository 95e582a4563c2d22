/** Immutable per-request records shared by the client, the metrics and the exporters. */
package io.aiperf.engine.record;
