package io.aiperf.jenkins;

import java.io.Serializable;

/**
 * Every setting of an {@code aiperfGate} call, declared once for the Pipeline step and the freestyle post-build
 * action. Persisted with the freestyle job, so only JDK types.
 */
final class GateSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    String id;
    String results;
    String gate;
    String baseline;
    boolean archive = true;
    boolean unstableOnWarnings;
    String jdk;
    /** The check's name, or null for AIPerf <id>. */
    String checksName;
    /** Whether to publish no check (checks-api). */
    boolean skipPublishingChecks;
    /** The job whose builds give the baselines (a full name, or relative to this job's folder); null: this job. */
    String referenceJob;
}
