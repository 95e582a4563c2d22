package io.aiperf.engine.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model's chat template (src-docs/tokenizers.md): the Jinja program in its {@code tokenizer_config.json} (or the
 * {@code chat_template.jinja} beside it, which transformers prefers), with the special tokens that file names
 * ({@code bos_token}, {@code eos_token}...) as the template's variables, rendered as transformers'
 * {@code apply_chat_template(messages, tokenize=False)} does. Immutable, thread-safe.
 */
public final class ChatTemplate {
    static final String CONFIG_FILE = "tokenizer_config.json";
    static final String TEMPLATE_FILE = "chat_template.jinja";
    private static final List<String> SPECIAL_TOKENS = List.of("bos_token", "eos_token", "unk_token", "sep_token",
            "pad_token", "cls_token", "mask_token");

    /** A template that does not render: a syntax error, a construct this engine lacks, or its raise_exception. */
    public static final class RenderException extends RuntimeException {
        RenderException(final String message) {
            super(message);
        }
    }

    /** One message of the chat, as the template sees it ({@code message['role']}, {@code message.content}). */
    public record Message(String role, String content) {
    }

    private final String template;
    private final Map<String, Object> specialTokens;

    private ChatTemplate(final String template, final Map<String, Object> specialTokens) {
        this.template = template;
        this.specialTokens = Map.copyOf(specialTokens);
    }

    /** A template and its special-token variables (name to text, e.g. {@code bos_token} to {@code <s>}). */
    static ChatTemplate of(final String template, final Map<String, String> specialTokens) {
        return new ChatTemplate(template, new HashMap<>(specialTokens));
    }

    /**
     * The template beside a {@code tokenizer.json}, or null when its folder has none.
     *
     * @throws IOException when a file there cannot be read or {@code tokenizer_config.json} is not JSON
     */
    static ChatTemplate find(final Path tokenizerJson) throws IOException {
        final Path dir = tokenizerJson.toAbsolutePath().getParent();
        final Path configFile = dir.resolve(CONFIG_FILE);
        final JsonNode config = Files.isRegularFile(configFile) ? new ObjectMapper().readTree(configFile.toFile())
                : null;
        final Map<String, Object> tokens = new HashMap<>();
        if (config != null) {
            for (final String name : SPECIAL_TOKENS) {
                final String text = tokenText(config.get(name));
                if (text != null) {
                    tokens.put(name, text);
                }
            }
            final List<String> additional = new ArrayList<>();
            config.path("additional_special_tokens").forEach(t -> {
                final String text = tokenText(t);
                if (text != null) {
                    additional.add(text);
                }
            });
            tokens.put("additional_special_tokens", additional);
        }
        final Path separate = dir.resolve(TEMPLATE_FILE);
        if (Files.isRegularFile(separate)) {
            return new ChatTemplate(Files.readString(separate), tokens);
        }
        final String template = config == null ? null : templateText(config.get("chat_template"));
        return template == null ? null : new ChatTemplate(template, tokens);
    }

    /** A special token's text: a string, or an AddedToken object's {@code content}. */
    private static String tokenText(final JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        return node.isTextual() ? node.asText() : node.path("content").isTextual() ? node.path("content").asText()
                : null;
    }

    /** The template: a string, or of a list of named ones the one called {@code default}, as transformers picks. */
    private static String templateText(final JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isTextual()) {
            return node.asText();
        }
        for (final JsonNode named : node) {
            if ("default".equals(named.path("name").asText(null)) && named.path("template").isTextual()) {
                return named.path("template").asText();
            }
        }
        return null;
    }

    /**
     * The prompt the model reads.
     *
     * @param addGenerationPrompt whether to end with the assistant's header, as a server does before it answers
     * @throws RenderException in one line when the template does not render these messages
     */
    public String render(final List<Message> messages, final boolean addGenerationPrompt) {
        final List<Map<String, Object>> list = new ArrayList<>(messages.size());
        for (final Message m : messages) {
            final Map<String, Object> message = new LinkedHashMap<>();
            message.put("role", m.role());
            message.put("content", m.content());
            list.add(message);
        }
        final Map<String, Object> variables = new HashMap<>(specialTokens);
        variables.put("messages", list);
        variables.put("add_generation_prompt", addGenerationPrompt);
        return HfJinja.render(template, variables);
    }
}
