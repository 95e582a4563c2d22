/** Export files (JSON, CSV, JSONL, inputs, outcome), the console table, redaction and atomic writes. */
package io.aiperf.engine.export;
