package io.aiperf.engine.summary;

/**
 * The keys of {@code run_outcome.json}, how a run of cells ended (src-docs/exports.md), spelled here only (those it
 * shares with a cell's outcome, in {@link CellOutcomeCodec}): {@code sweep/RunAssembler} writes with these names.
 */
public final class RunOutcomeCodec {
    public static final String SCHEMA_VERSION = CellOutcomeCodec.SCHEMA_VERSION;
    public static final String AIPERF_VERSION = CellOutcomeCodec.AIPERF_VERSION;
    public static final String STATUS = CellOutcomeCodec.STATUS;
    public static final String EXIT_CODE = CellOutcomeCodec.EXIT_CODE;
    public static final String CELLS = "cells";
    // A cell, in run order.
    public static final String ID = CellOutcomeCodec.ID;
    public static final String LABEL = "label";
    public static final String PATH = CellOutcomeCodec.PATH;
    public static final String ARTIFACT_DIR = CellOutcomeCodec.ARTIFACT_DIR;
    /** How many warnings the cell's outcome holds. */
    public static final String WARNINGS = CellOutcomeCodec.WARNINGS;
    public static final String ERROR = CellOutcomeCodec.ERROR;

    private RunOutcomeCodec() {
    }
}
