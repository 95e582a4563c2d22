package io.aiperf.engine.metrics;

import io.aiperf.engine.record.ErrorDetails;

/** One kind of error and how often it happened (AIPerf's export docs {@code error_summary}). */
public record ErrorSummaryEntry(ErrorDetails details, long count) {
}
