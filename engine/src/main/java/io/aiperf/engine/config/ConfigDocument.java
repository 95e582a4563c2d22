package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A configuration tree as a value: the effective config ({@code config expand}, the config hash, the exports) or what
 * the user gave (the exports' {@code input_config}). It keeps a copy of the tree it is made from that nobody else
 * references, and hands out only copies, so a config that holds it cannot be changed through it. Secrets are still
 * in it: whoever prints or writes it redacts it first ({@code redact.Redactor#config}).
 */
public final class ConfigDocument {
    private final ObjectNode tree;

    private ConfigDocument(final ObjectNode tree) {
        this.tree = tree;
    }

    /** The document of this tree as it is now; later changes to {@code tree} do not reach it. */
    public static ConfigDocument of(final ObjectNode tree) {
        return new ConfigDocument(tree.deepCopy());
    }

    /**
     * The node at this JSON pointer ({@code /benchmark/endpoint/timeout}), a copy of it when it is a mapping or a
     * list; a missing node when there is none.
     */
    public JsonNode at(final String jsonPointer) {
        return tree.at(jsonPointer).deepCopy();
    }

    /** A fresh copy of the whole tree, for a writer that changes or prints it. */
    public ObjectNode copy() {
        return tree.deepCopy();
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof ConfigDocument d && tree.equals(d.tree);
    }

    @Override
    public int hashCode() {
        return tree.hashCode();
    }

    /** Its sections' names only: the values hold secrets (an API key, a header, a URL's password). */
    @Override
    public String toString() {
        return "ConfigDocument" + keys(tree, 2);
    }

    private static String keys(final JsonNode node, final int depth) {
        final List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(name -> {
            final JsonNode child = node.get(name);
            out.add(depth > 1 && child.isObject() ? name + keys(child, depth - 1) : name);
        });
        return out.toString();
    }
}
