/**
 * Other tools' results in this engine's summary shape (src-docs/import.md), so the gate can take them as
 * baselines or candidates: vLLM's {@code bench serve} JSON, GuideLLM's JSON report and inference-perf's summary
 * lifecycle metrics. Upstream AIPerf's exports need no import: they are the same schema.
 */
package io.aiperf.engine.importer;
