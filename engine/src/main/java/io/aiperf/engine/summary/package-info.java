/**
 * What one cell measured, as a value: the export file names ({@link io.aiperf.engine.summary.ExportFiles}), the
 * keys of {@code profile_export_aiperf.json} ({@link io.aiperf.engine.summary.SummaryCodec}) and of
 * {@code profile_export.jsonl} lines ({@link io.aiperf.engine.summary.RecordCodec}). It needs only the JDK and
 * Jackson, so the {@code ci} package (and through it the Jenkins plugin) reads exports with the same code that
 * writes them.
 */
package io.aiperf.engine.summary;
