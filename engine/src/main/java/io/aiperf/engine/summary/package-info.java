/**
 * What one cell measured, as a value: the export file names ({@link io.aiperf.engine.summary.ExportFiles}), the
 * keys of {@code profile_export_aiperf.json} and the {@link io.aiperf.engine.summary.CellSummary} read from it
 * ({@link io.aiperf.engine.summary.SummaryCodec}), and the keys of a {@code profile_export.jsonl} line and the
 * {@link io.aiperf.engine.summary.RecordLine} read from it ({@link io.aiperf.engine.summary.RecordCodec}). It needs
 * only the JDK and Jackson, so the {@code ci} package (and through it the Jenkins plugin) reads exports with the same
 * code that writes them.
 */
package io.aiperf.engine.summary;
