package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
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
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.DuplicateKeyException;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads an AIPerf YAML file into a tree: {@code ${VAR}} / {@code ${VAR:default}} substitution, then
 * camelCase keys folded to snake_case (AIPerf's configuration docs). Maps of user data keep their keys.
 */
public final class YamlLoader {
    /** The most values a configuration may expand to (the largest real ones have a few thousand). */
    private static final int MAX_VALUES = 1_000_000;
    static final String FILE_FIELD = "-f/--config";
    /** The largest config file read; anything larger is refused before parsing. */
    static final int MAX_FILE_BYTES = 1 << 20;
    /**
     * The longest line of a config: the YAML parser takes minutes and gigabytes on a scalar of megabytes, and no
     * setting needs one (prompts belong in an --input-file).
     */
    static final int MAX_LINE_CHARS = 64 << 10;
    private static final com.fasterxml.jackson.databind.ObjectMapper TREE = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?}");
    /** Snake-case paths whose children are user data (header names, body fields, metric tags). */
    private static final Set<String> USER_MAPS = Set.of("benchmark.endpoint.headers", "benchmark.endpoint.extra",
            "benchmark.slos", "benchmark.goodput");

    private YamlLoader() {
    }

    public static ObjectNode load(final Path file, final Map<String, String> env) {
        final String text;
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new ConfigException(FILE_FIELD, file + " is " + Files.size(file) + " bytes; a config file may "
                        + "have at most " + MAX_FILE_BYTES);
            }
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(FILE_FIELD, "file not found: " + file);
        } catch (IOException e) {
            throw new ConfigException(FILE_FIELD, "cannot read " + file + ": " + e.getMessage());
        }
        return parse(text, file.toString(), env);
    }

    public static ObjectNode parse(final String text, final String source, final Map<String, String> env) {
        if (text.length() > MAX_FILE_BYTES) {
            throw new ConfigException(FILE_FIELD, source + " is " + text.length() + " characters; a config may have "
                    + "at most " + MAX_FILE_BYTES);
        }
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '\n') {
                if (i - lineStart > MAX_LINE_CHARS) {
                    throw new ConfigException(FILE_FIELD, source + " line " + line + " is " + (i - lineStart)
                            + " characters long; a config line may have at most " + MAX_LINE_CHARS + " (put long "
                            + "prompts in an --input-file)");
                }
                line++;
                lineStart = i + 1;
            }
        }
        final JsonNode root;
        try {
            final LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            options.setMaxAliasesForCollections(100); // no "billion laughs"
            options.setCodePointLimit(MAX_FILE_BYTES);
            root = toTree(new Yaml(new SafeConstructor(options)).load(text));
        } catch (DuplicateKeyException e) {
            throw new ConfigException(FILE_FIELD, "duplicate key in " + source + ": "
                    + e.getProblem().replace("found duplicate key", "").trim() + " at line "
                    + (e.getContextMark().getLine() + 1) + " and at line " + (e.getProblemMark().getLine() + 1));
        } catch (MarkedYAMLException e) {
            final Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            final String where = mark == null ? "" : " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
            throw new ConfigException(FILE_FIELD, "malformed YAML in " + source + where + ": "
                    + String.valueOf(e.getProblem() != null ? e.getProblem() : e.getContext()).lines().findFirst()
                    .orElse("parse error"));
        } catch (StackOverflowError e) {
            // A recursive structure used as a mapping key makes SnakeYAML recurse without end; found by fuzzing.
            throw new ConfigException(FILE_FIELD, "malformed YAML in " + source + ": nested too deeply, or an alias "
                    + "refers to a node that contains it");
        } catch (YAMLException | IllegalArgumentException e) {
            // IllegalArgumentException: SnakeYAML resolves some odd scalars (such as "._") as numbers it cannot
            // then parse; found by fuzzing.
            throw new ConfigException(FILE_FIELD, "malformed YAML in " + source + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse("parse error"));
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

    /**
     * SnakeYAML's values (aliases and merge keys already resolved) as a JSON tree; timestamps stay text. An alias
     * that refers to a node containing itself would make the tree endless: it is an error.
     */
    private static JsonNode toTree(final Object value) {
        return toTree(value, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()), new int[] {0});
    }

    /**
     * @param made the values made so far: aliases repeat what they name, so 70 of them nested in a 500-byte file
     *             expand to billions of values, under any cap on the aliases themselves
     */
    private static JsonNode toTree(final Object value, final Set<Object> enclosing, final int[] made) {
        if (++made[0] > MAX_VALUES) {
            throw new ConfigException(FILE_FIELD, "the YAML expands to more than " + MAX_VALUES + " values (aliases "
                    + "repeat what they name): no configuration is that large");
        }
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            if (!enclosing.add(value)) {
                throw new ConfigException(FILE_FIELD, "an alias refers to a mapping or list that contains it");
            }
            try {
                if (value instanceof Map<?, ?> map) {
                    final ObjectNode out = JsonNodeFactory.instance.objectNode();
                    map.forEach((k, v) -> out.set(String.valueOf(k), toTree(v, enclosing, made)));
                    return out;
                }
                final ArrayNode out = JsonNodeFactory.instance.arrayNode();
                ((List<?>) value).forEach(v -> out.add(toTree(v, enclosing, made)));
                return out;
            } finally {
                enclosing.remove(value);
            }
        }
        if (value instanceof java.util.Date date) {
            // A date alone (anthropic-version: 2023-06-01) stays as written, as upstream's str() of it does.
            final java.time.Instant at = date.toInstant();
            return TextNode.valueOf(at.getEpochSecond() % 86_400 == 0 && at.getNano() == 0
                    ? at.atZone(java.time.ZoneOffset.UTC).toLocalDate().toString() : at.toString());
        }
        if (value instanceof byte[] bytes) {
            return TextNode.valueOf(java.util.Base64.getEncoder().encodeToString(bytes));
        }
        return value == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : TREE.valueToTree(value);
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
