package io.aiperf.engine.cli;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.aiperf.engine.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The starter configs {@code aiperf config init} writes (src-docs/yaml.md): upstream AIPerf's bundled templates of the
 * same names and shapes, in this engine's YAML. Each file opens with an {@code # @template} header of
 * {@code key: value} comment lines (title, description, category, tags).
 */
final class ConfigTemplates {
    /** The bundled templates, in the order they are listed. */
    static final List<String> NAMES = List.of("minimal", "goodput_slo", "warmup_profiling", "multi_turn_conversation");

    /** One template: its name, its header's fields, and its text. */
    record Template(String name, String title, String description, String category, String tags, String text) {
        boolean matches(final String keyword) {
            final String k = keyword.toLowerCase(Locale.ROOT);
            return (name + " " + title + " " + description + " " + tags).toLowerCase(Locale.ROOT).contains(k);
        }
    }

    private ConfigTemplates() {
    }

    static List<Template> all() {
        return NAMES.stream().map(ConfigTemplates::get).toList();
    }

    /** The template of that name; an unknown name is a one-line error listing the others. */
    static Template get(final String name) {
        if (!NAMES.contains(name)) {
            throw new ConfigException("--template", "unknown template '" + name + "'; expected one of "
                    + String.join(", ", NAMES));
        }
        final String text;
        try (InputStream in = ConfigTemplates.class.getResourceAsStream("templates/" + name + ".yaml")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        final Map<String, String> header = new LinkedHashMap<>();
        final Matcher m = Pattern.compile("(?m)^# (title|description|category|tags): (.*)$").matcher(text);
        while (m.find()) {
            header.putIfAbsent(m.group(1), m.group(2).strip());
        }
        return new Template(name, header.getOrDefault("title", name), header.getOrDefault("description", ""),
                header.getOrDefault("category", "Other"), header.getOrDefault("tags", ""), text);
    }

    /**
     * The template's text with the model and the endpoint URL set (null: as written): the first {@code model:} and
     * {@code url:} lines get the value, quoted so any characters stay as given.
     */
    static String customized(final Template t, final String model, final String url) {
        String text = t.text();
        if (model != null) {
            text = replaceFirst(text, "model", model);
        }
        if (url != null) {
            text = replaceFirst(text, "url", url);
        }
        return text;
    }

    private static String replaceFirst(final String text, final String key, final String value) {
        final Matcher m = Pattern.compile("(?m)^(\\s*" + key + ": ).*$").matcher(text);
        if (!m.find()) {
            return text;
        }
        final String quoted = "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(value)) + "\"";
        return text.substring(0, m.start()) + m.group(1) + quoted + text.substring(m.end());
    }

    /** The listing: templates by category, each with its title and description (and tags when verbose). */
    static String listing(final List<Template> templates, final boolean verbose) {
        final Map<String, List<Template>> byCategory = new LinkedHashMap<>();
        templates.forEach(t -> byCategory.computeIfAbsent(t.category(), c -> new ArrayList<>()).add(t));
        final int width = NAMES.stream().mapToInt(String::length).max().orElse(0);
        final StringBuilder sb = new StringBuilder();
        byCategory.forEach((category, list) -> {
            sb.append(category).append('\n');
            for (final Template t : list) {
                sb.append(String.format(Locale.ROOT, "  %-" + width + "s  %s: %s%n", t.name(), t.title(),
                        t.description()));
                if (verbose && !t.tags().isEmpty()) {
                    sb.append(String.format(Locale.ROOT, "  %-" + width + "s  tags: %s%n", "", t.tags()));
                }
            }
        });
        return sb.toString();
    }
}
