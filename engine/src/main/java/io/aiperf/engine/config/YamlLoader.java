package io.aiperf.engine.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an AIPerf YAML file into a tree: {@code ${VAR}} / {@code ${VAR:default}} substitution, then
 * camelCase keys folded to snake_case (reference §2.4). Maps of user data keep their keys.
 */
public final class YamlLoader {
    static final String FILE_FIELD = "-f/--config";
    private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?}");
    /** Snake-case paths whose children are user data (header names, body fields, metric tags). */
    private static final Set<String> USER_MAPS = Set.of("benchmark.endpoint.headers", "benchmark.endpoint.extra",
            "benchmark.slos", "benchmark.goodput");

    private YamlLoader() {
    }

    public static ObjectNode load(final Path file, final Map<String, String> env) {
        final String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(FILE_FIELD, "file not found: " + file);
        } catch (IOException e) {
            throw new ConfigException(FILE_FIELD, "cannot read " + file + ": " + e.getMessage());
        }
        return parse(text, file.toString(), env);
    }

    public static ObjectNode parse(final String text, final String source, final Map<String, String> env) {
        final JsonNode root;
        try {
            root = new YAMLMapper().readTree(text);
        } catch (JsonProcessingException e) {
            final JsonLocation loc = e.getLocation();
            final String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            throw new ConfigException(FILE_FIELD, "malformed YAML in " + source + where + ": "
                    + e.getOriginalMessage().lines().findFirst().orElse("parse error"));
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new ConfigException(FILE_FIELD, source + " is empty");
        }
        if (!root.isObject()) {
            throw new ConfigException(FILE_FIELD, source + " must hold a mapping at the top level, got "
                    + root.getNodeType().name().toLowerCase());
        }
        return (ObjectNode) normalize(root, "", env);
    }

    private static JsonNode normalize(final JsonNode node, final String path, final Map<String, String> env) {
        if (node.isObject()) {
            final ObjectNode out = JsonNodeFactory.instance.objectNode();
            final boolean userMap = USER_MAPS.contains(path);
            final Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
            while (it.hasNext()) {
                final Map.Entry<String, JsonNode> e = it.next();
                final String key = userMap ? e.getKey() : snakeCase(e.getKey());
                final String childPath = path.isEmpty() ? key : path + "." + key;
                if (out.has(key)) {
                    throw new ConfigException(childPath, "given twice (snake_case and camelCase spellings)");
                }
                out.set(key, normalize(e.getValue(), childPath, env));
            }
            return out;
        }
        if (node.isArray()) {
            final ArrayNode out = JsonNodeFactory.instance.arrayNode();
            for (final JsonNode child : node) {
                out.add(normalize(child, path, env));
            }
            return out;
        }
        if (node.isTextual()) {
            return substitute(node.textValue(), path, env);
        }
        return node;
    }

    /** camelCase to snake_case; snake_case passes through. */
    static String snakeCase(final String key) {
        final StringBuilder sb = new StringBuilder(key.length() + 4);
        for (int i = 0; i < key.length(); i++) {
            final char c = key.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0 && key.charAt(i - 1) != '_') {
                    sb.append('_');
                }
                sb.append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Env substitution; a string that was wholly one reference is coerced bool -> int -> float -> string. */
    static JsonNode substitute(final String text, final String path, final Map<String, String> env) {
        final Matcher m = VAR.matcher(text);
        if (!m.find()) {
            return TextNode.valueOf(text);
        }
        final boolean whole = m.start() == 0 && m.end() == text.length();
        m.reset();
        final StringBuilder sb = new StringBuilder();
        final List<String> missing = new ArrayList<>();
        while (m.find()) {
            String value = env.get(m.group(1));
            if (value == null) {
                value = m.group(2);
            }
            if (value == null) {
                missing.add(m.group(1));
                value = "";
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(value));
        }
        m.appendTail(sb);
        if (!missing.isEmpty()) {
            throw new ConfigException(path, "environment variable " + String.join(", ", missing)
                    + " is not set and has no default (use ${VAR:default})");
        }
        final String out = sb.toString();
        return whole ? coerce(out) : TextNode.valueOf(out);
    }

    private static JsonNode coerce(final String s) {
        if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
            return JsonNodeFactory.instance.booleanNode(Boolean.parseBoolean(s));
        }
        try {
            return JsonNodeFactory.instance.numberNode(Long.parseLong(s));
        } catch (NumberFormatException ignored) {
            // not an integer
        }
        try {
            final double d = Double.parseDouble(s);
            if (!s.isBlank() && Character.isDigit(s.charAt(s.length() - 1))) {
                return JsonNodeFactory.instance.numberNode(d);
            }
        } catch (NumberFormatException ignored) {
            // not a number
        }
        return TextNode.valueOf(s);
    }
}
