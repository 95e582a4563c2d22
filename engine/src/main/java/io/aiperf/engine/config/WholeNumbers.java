package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A config tree for a reader: a number held as a double but whole ({@code 21600.0}, {@code 1.6777216E7}) becomes
 * the integer it is ({@code 21600}, {@code 16777216}), as a user writes it; the config reads either back the same.
 * Not thread-safe: it changes the tree it is given.
 */
public final class WholeNumbers {
    /** Beyond 2^53 a double no longer holds every integer, so such a number keeps its double form. */
    private static final double EXACT = 9.007199254740992E15;

    private WholeNumbers() {
    }

    /** Rewrites the whole doubles of {@code tree} in place; returns it. */
    public static JsonNode of(final JsonNode tree) {
        if (tree instanceof ObjectNode o) {
            final List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
            o.fields().forEachRemaining(fields::add);
            for (final Map.Entry<String, JsonNode> f : fields) {
                o.set(f.getKey(), of(f.getValue()));
            }
        } else if (tree instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                a.set(i, of(a.get(i)));
            }
        } else if (tree != null && tree.isFloatingPointNumber()) {
            final double v = tree.doubleValue();
            if (v == Math.rint(v) && Math.abs(v) < EXACT) {
                return LongNode.valueOf((long) v);
            }
        }
        return tree;
    }
}
