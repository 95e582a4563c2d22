package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.search.GridPlanner;
import io.aiperf.engine.search.SearchSpec;

/**
 * The {@code search:} section of an expanded config ({@code aiperf config expand}): a capacity search's settings as
 * given (flags over the file's section), every default filled in, under the keys profile reads back to the same
 * search. A recipe stays a recipe: its SLOs, objective and planner are what it names, not written out beside it.
 */
final class SearchSection {
    /** The config file's key of the section, and the prefix of its rows' {@code @Yaml} lines. */
    static final String KEY = "search";
    private static final OptionTable TABLE = OptionTable.of(SearchOptions.class);

    private SearchSection() {
    }

    /**
     * @param given the search options, the file's section already taken in
     * @param spec the search they give ({@link SearchOptions#spec}), whose checks they passed
     */
    static ObjectNode of(final SearchOptions given, final SearchSpec spec) {
        final SearchOptions s = new SearchOptions();
        TABLE.fill(s, TABLE.tree(given, KEY), KEY);
        if (s.space != null) {
            s.space = spec.knob() + ":" + spec.min() + "," + spec.max(); // upstream's dotted path becomes the short name
        } else {
            s.concurrencyMin = spec.min();
            s.concurrencyMax = spec.max();
        }
        s.maxIterations = spec.maxProbes();
        s.maxTrials = spec.maxTrials();
        if (s.boundaryBandPct == null) {
            s.boundaryBandPct = SearchSpec.DEFAULT_BOUNDARY_BAND_PCT; // the given percentage, not the share times 100
        }
        if (s.maxClientLateness == null) {
            s.maxClientLateness = SearchSpec.DEFAULT_MAX_CLIENT_LATENESS_MS;
        }
        if (SearchRecipes.UNDER_SLA.equals(s.recipe)) {
            s.style = spec.planner().equals(GridPlanner.NAME) ? "grid" : "monotonic"; // this recipe refuses a planner
        } else {
            s.planner = spec.planner();
        }
        s.pooling = spec.pooling();
        if (s.metric != null) {
            s.metric = spec.objective().metric();
            s.stat = spec.objective().stat();
            s.direction = spec.objective().direction();
        }
        if (SearchRecipes.GOODPUT.equals(s.recipe) && s.attainment == null) {
            s.attainment = SearchRecipes.DEFAULT_ATTAINMENT;
        }
        return TABLE.tree(s, KEY);
    }

    /** The flag that sets the knob a search varies itself ({@code --concurrency}, {@code --request-rate}), or null. */
    static String knobFlag(final SearchSpec search, final ProfileOptions options) {
        if (search.knob().equals(SearchSpec.REQUEST_RATE)) {
            return options.requestRate == null ? null : "--request-rate";
        }
        return options.concurrency == null ? null : "--concurrency";
    }
}
