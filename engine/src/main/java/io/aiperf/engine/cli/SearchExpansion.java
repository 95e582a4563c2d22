package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.profile.ConfigSource;
import io.aiperf.engine.search.SearchSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The effective config of a capacity search as {@code aiperf config expand} prints it: the config at the knob's low
 * end, where profile loads its first point, and the {@code search:} section. A profiling phase setting that follows
 * from the knob (the default request count, twice the concurrency) is left out, as profile derives it at each point;
 * written out, it would hold every point to the low end's value.
 */
final class SearchExpansion {
    private SearchExpansion() {
    }

    /**
     * @param configs the config's source, whose points the search's knob varies
     * @param search the search {@code options} give
     */
    static ObjectNode tree(final ConfigSource configs, final SearchSpec search, final SearchOptions options) {
        final ObjectNode low = configs.at(search, search.min()).effective().copy();
        final JsonNode highPhases = configs.at(search, search.max()).effective().at("/benchmark/phases");
        final String knob = search.knob().equals(SearchSpec.REQUEST_RATE) ? "rate" : "concurrency";
        final JsonNode lowPhases = low.path("benchmark").path("phases");
        for (int i = 0; i < lowPhases.size(); i++) {
            if (lowPhases.get(i) instanceof ObjectNode phase && "profiling".equals(phase.path("kind").asText())) {
                final JsonNode atHigh = highPhases.path(i);
                final List<String> derived = new ArrayList<>();
                phase.fieldNames().forEachRemaining(k -> {
                    if (!k.equals(knob) && !phase.get(k).equals(atHigh.path(k))) {
                        derived.add(k);
                    }
                });
                phase.remove(derived);
            }
        }
        low.set(SearchSection.KEY, SearchSection.of(options, search));
        return low;
    }
}
