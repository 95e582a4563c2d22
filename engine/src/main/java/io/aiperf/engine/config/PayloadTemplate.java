package io.aiperf.engine.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code template} endpoint's request body and answer field (src-docs/endpoints.md): a JSON body with
 * Jinja-style placeholders, {@code {{ name }}} or {@code {{ name|tojson }}}, for {@code prompt} (the texts of the turn
 * joined by newlines), {@code model}, {@code max_tokens}, {@code stream} and {@code messages} (the chat messages, as a
 * JSON list); and the dot path of the generated text in each answer or stream event. A placeholder names a value;
 * {@code |tojson} writes it as JSON (a quoted string), without it strings are inserted as they are, so the template
 * quotes them. Immutable.
 *
 * @param responseField e.g. {@code text} or {@code choices.0.message.content}
 */
public record PayloadTemplate(String body, String responseField) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([a-z_]+)\\s*(\\|\\s*(tojson|lower)\\s*)?}}");

    /** Upstream's named payload templates ({@code --extra-inputs payload_template:NAME}). */
    private static final Map<String, String> NAMED = Map.of("nv-embedqa", "{\"text\": {{ texts|tojson }}}");

    /**
     * The body of upstream's {@code payload_template} extra input: a named template, a file holding one, or the
     * template itself.
     */
    public static String bodyOf(final String spec, final String field) {
        if (NAMED.containsKey(spec.strip())) {
            return NAMED.get(spec.strip());
        }
        final String text = spec.strip();
        if (!text.startsWith("{")) {
            final java.nio.file.Path file = java.nio.file.Path.of(text);
            if (!java.nio.file.Files.isRegularFile(file)) {
                throw new ConfigException(field, "payload_template '" + text + "' is neither a template (a JSON "
                        + "object), a named one (" + String.join(", ", NAMED.keySet()) + ") nor a file");
            }
            try {
                return java.nio.file.Files.readString(file);
            } catch (java.io.IOException e) {
                throw new ConfigException(field, "cannot read payload_template " + file + ": " + e.getMessage());
            }
        }
        return spec;
    }

    /** Checks the template renders to a JSON object, with a sample turn; the problem in words, or null. */
    public String problem() {
        try {
            render("model", null, List.of("Hello"), 16, false);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    public ObjectNode render(final String model, final String system, final List<String> exchange,
                             final Integer maxTokens, final boolean stream) {
        final ArrayNode messages = JSON.createArrayNode();
        if (system != null) {
            messages.addObject().put("role", "system").put("content", system);
        }
        for (int i = 0; i < exchange.size(); i++) {
            messages.addObject().put("role", i % 2 == 0 ? "user" : "assistant").put("content", exchange.get(i));
        }
        final StringBuilder prompt = new StringBuilder(system == null ? "" : system + "\n");
        prompt.append(String.join("\n", exchange));
        final Map<String, Object> values = new java.util.HashMap<>();
        values.put("prompt", prompt.toString());
        values.put("model", model);
        values.put("max_tokens", maxTokens);
        values.put("stream", stream);
        values.put("messages", messages);
        final String text = exchange.isEmpty() ? null : exchange.get(exchange.size() - 1);
        values.put("text", text); // upstream's names for the turn's texts
        values.put("texts", text == null ? List.of() : List.of(text));
        final Matcher m = PLACEHOLDER.matcher(body);
        final StringBuilder out = new StringBuilder();
        while (m.find()) {
            if (!values.containsKey(m.group(1))) {
                throw new IllegalArgumentException("unknown placeholder '" + m.group(1) + "'; known: prompt, text, "
                        + "texts, model, max_tokens, stream, messages");
            }
            final Object v = values.get(m.group(1));
            final String filter = m.group(3);
            m.appendReplacement(out, Matcher.quoteReplacement("lower".equals(filter)
                    ? String.valueOf(v).toLowerCase(java.util.Locale.ROOT)
                    : filter != null || !(v instanceof String) ? json(v) : (String) v));
        }
        m.appendTail(out);
        try {
            final var node = JSON.readTree(out.toString());
            if (!node.isObject()) {
                throw new IllegalArgumentException("the rendered body is not a JSON object");
            }
            return (ObjectNode) node;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the rendered body is not valid JSON: "
                    + e.getOriginalMessage());
        }
    }

    private static String json(final Object v) {
        try {
            return JSON.writeValueAsString(v);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
