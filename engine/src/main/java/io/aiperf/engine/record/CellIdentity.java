package io.aiperf.engine.record;

import java.util.Map;

/**
 * Which cell of a run this is, written into its {@code cell_outcome.json} so that cells run on different machines
 * can be merged back into one run ({@code aiperf aggregate}).
 *
 * @param index the cell's position in the run's full plan (trials outer, sweep points inner)
 * @param id stable for the same config: the sweep point's label, {@code run_NNNN} for a trial, both joined by
 *           {@code /} for a sweep with trials, {@code default} for a run of one cell
 * @param path the cell's directory relative to the run directory ({@code .} for a run of one cell)
 * @param variation the sweep point's label, or null without a sweep
 * @param parameters the sweep point's parameter values, in axis order (empty without a sweep)
 * @param trial 1-based trial number
 * @param numTrials trials per sweep point in the whole run
 * @param variationIndex the sweep point's position among the points (0 without a sweep); not kept in
 *                       {@code cell_outcome.json}, only the cell's own summary names it
 */
public record CellIdentity(int index, String id, String path, String variation, Map<String, Object> parameters, int trial,
                           int numTrials, double confidenceLevel, double cooldownSeconds, int variationIndex) {
    /** A cell of point 0, or of no sweep. */
    public CellIdentity(final int index, final String id, final String path, final String variation,
                        final Map<String, Object> parameters, final int trial, final int numTrials,
                        final double confidenceLevel, final double cooldownSeconds) {
        this(index, id, path, variation, parameters, trial, numTrials, confidenceLevel, cooldownSeconds, 0);
    }

    /** The id of the only cell of a run without sweep or trials. */
    public static final String SINGLE = "default";

    public static CellIdentity single() {
        return new CellIdentity(0, SINGLE, ".", null, Map.of(), 1, 1, 0.95, 0);
    }
}
