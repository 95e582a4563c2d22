package io.aiperf.engine.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.TokenizerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chat templates of the Llama 3, ChatML (Qwen2.5) and Mistral structure render as transformers renders them, and the
 * rendered prompts' token counts and the templates' costs are what a hand count gives.
 */
class ChatTemplateTest {
    /** Every whitespace-separated word is one token, and each special token is one token wherever it stands. */
    static String wordsTokenizer(final String... specials) {
        final StringBuilder added = new StringBuilder();
        for (int i = 0; i < specials.length; i++) {
            added.append(i == 0 ? "" : ",").append("{\"id\": ").append(i + 1).append(", \"content\": \"")
                    .append(specials[i]).append("\", \"single_word\": false, \"lstrip\": false, \"rstrip\": false, "
                            + "\"normalized\": false, \"special\": true}");
        }
        return "{\"version\": \"1.0\", \"truncation\": null, \"padding\": null, \"added_tokens\": [" + added
                + "], \"normalizer\": null, \"pre_tokenizer\": {\"type\": \"WhitespaceSplit\"}, \"post_processor\": "
                + "null, \"decoder\": null, \"model\": {\"type\": \"WordLevel\", \"vocab\": {\"[UNK]\": 0}, "
                + "\"unk_token\": \"[UNK]\"}}";
    }

    static final String[] SPECIALS = {"<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>",
        "<|im_start|>", "<|im_end|>", "<s>", "</s>"};

    static String resource(final String name) throws IOException {
        try (InputStream in = ChatTemplateTest.class.getResourceAsStream("/chat-templates/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A tokenizer folder as the hub serves it: tokenizer.json and a tokenizer_config.json holding the template. */
    static Path tokenizerDir(final Path dir, final String template, final String bos, final String eos)
            throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("tokenizer.json"), wordsTokenizer(SPECIALS));
        final ObjectNode config = new ObjectMapper().createObjectNode();
        if (template != null) {
            config.put("chat_template", template);
        }
        // transformers writes special tokens as a string or as an AddedToken object: both are read
        config.putObject("bos_token").put("__type", "AddedToken").put("content", bos);
        config.put("eos_token", eos);
        Files.writeString(dir.resolve("tokenizer_config.json"), config.toString());
        return dir;
    }

    private static ChatTemplate template(final Path dir) throws IOException {
        return ChatTemplate.find(dir.resolve("tokenizer.json"));
    }

    private static Tokenizer tokenizer(final Path dir) throws IOException {
        return HfTokenizer.load(dir.resolve("tokenizer.json"), "acme/chat", "file", null);
    }

    private static List<ChatTemplate.Message> chat(final String... roleContent) {
        final java.util.ArrayList<ChatTemplate.Message> out = new java.util.ArrayList<>();
        for (int i = 0; i < roleContent.length; i += 2) {
            out.add(new ChatTemplate.Message(roleContent[i], roleContent[i + 1]));
        }
        return out;
    }

    @TempDir
    Path tmp;

    @Test
    void llama3RendersHeadersTrimmedContentAndTheGenerationPrompt() throws Exception {
        final Path dir = tokenizerDir(tmp.resolve("llama"), resource("llama3.jinja"), "<|begin_of_text|>",
                "<|eot_id|>");
        final List<ChatTemplate.Message> messages = chat("system", "Be brief.", "user", " Hi there \n",
                "assistant", "Hello.", "user", "Bye");
        assertThat(template(dir).render(messages, true)).isEqualTo("<|begin_of_text|>"
                + "<|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|>"
                + "<|start_header_id|>user<|end_header_id|>\n\nHi there<|eot_id|>"
                + "<|start_header_id|>assistant<|end_header_id|>\n\nHello.<|eot_id|>"
                + "<|start_header_id|>user<|end_header_id|>\n\nBye<|eot_id|>"
                + "<|start_header_id|>assistant<|end_header_id|>\n\n");
        assertThat(template(dir).render(chat("user", "Hi"), false)).isEqualTo("<|begin_of_text|>"
                + "<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>");
    }

    @Test
    void llama3TokenCountsAndCostsAreTheHandCounts() throws Exception {
        final Path dir = tokenizerDir(tmp.resolve("llama"), resource("llama3.jinja"), "<|begin_of_text|>",
                "<|eot_id|>");
        final ChatTemplateCounter counter = ChatTemplateCounter.of(tokenizer(dir), template(dir));
        // BOS; header(3: start, "user", end) + "hello world"(2) + eot; assistant header(3) = 1 + 3 + 2 + 1 + 3
        assertThat(counter.count(null, List.of("hello world"))).isEqualTo(10);
        // + system message: header(3) + "be brief"(2) + eot = 6 more
        assertThat(counter.count("be brief", List.of("hello world"))).isEqualTo(16);
        // user(3+2+1) + assistant(3 + "fine thanks" 2 + 1) + user(3 + "and you" 2 + 1), BOS, generation prompt (3)
        assertThat(counter.count(null, List.of("hello world", "fine thanks", "and you"))).isEqualTo(22);
        // Fixed cost: BOS and the generation prompt (4); each message: its header and end of turn (4).
        assertThat(counter.firstTurnOverhead()).isEqualTo(8);
        assertThat(counter.laterTurnOverhead()).isEqualTo(4);
    }

    @Test
    void chatMlAddsTheDefaultSystemMessageOnlyWhenTheChatHasNone() throws Exception {
        final Path dir = tokenizerDir(tmp.resolve("qwen"), resource("chatml.jinja"), "<|im_start|>", "<|im_end|>");
        assertThat(template(dir).render(chat("user", "Hi"), true)).isEqualTo(
                "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
                        + "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
        assertThat(template(dir).render(chat("system", "Be brief.", "user", "Hi", "assistant", "Hello.", "user",
                "Bye"), false)).isEqualTo("<|im_start|>system\nBe brief.<|im_end|>\n"
                + "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello.<|im_end|>\n"
                + "<|im_start|>user\nBye<|im_end|>\n");
        final ChatTemplateCounter counter = ChatTemplateCounter.of(tokenizer(dir), template(dir));
        // default system: start, "system", 5 words, end; user: start, "user", "hello world", end; start, assistant
        assertThat(counter.count(null, List.of("hello world"))).isEqualTo(8 + 5 + 2);
        // The default system message is paid once per request: it is fixed cost with the generation prompt.
        assertThat(counter.laterTurnOverhead()).isEqualTo(3);
        assertThat(counter.firstTurnOverhead()).isEqualTo(8 + 2 + 3);
    }

    @Test
    void mistralFoldsTheSystemMessageIntoTheFirstTurnAndRaisesOnRolesOutOfTurn() throws Exception {
        final Path dir = tokenizerDir(tmp.resolve("mistral"), resource("mistral.jinja"), "<s>", "</s>");
        assertThat(template(dir).render(chat("system", " Be brief. ", "user", "Hi", "assistant", " Hello. ",
                "user", "Bye"), true)).isEqualTo("<s> [INST] Be brief.\n\nHi [/INST] Hello.</s> [INST] Bye [/INST]");
        assertThatThrownBy(() -> template(dir).render(chat("user", "Hi", "user", "again"), true))
                .isInstanceOf(ChatTemplate.RenderException.class)
                .hasMessage("the template raised: roles must alternate user/assistant after an optional system "
                        + "message");
        final ChatTemplateCounter counter = ChatTemplateCounter.of(tokenizer(dir), template(dir));
        // <s>, [INST], "hello world", [/INST]: the generation prompt adds nothing
        assertThat(counter.count(null, List.of("hello world"))).isEqualTo(5);
        // an answer: its words and </s>; a later user turn: [INST] ... [/INST]
        assertThat(counter.count(null, List.of("hello world", "fine", "ok"))).isEqualTo(5 + 2 + 3);
    }

    @Test
    void aTokenizerWithoutAChatTemplateOrTheBuiltinOneIsOneLineNamingTheOption() throws Exception {
        final Path dir = tokenizerDir(tmp.resolve("base"), null, "<s>", "</s>");
        final TokenizerConfig on = new TokenizerConfig(dir.toString(), "main", false, true);
        assertThatThrownBy(() -> ChatTemplateCounter.of(on, tokenizer(dir)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--apply-chat-template (benchmark.tokenizer.apply_chat_template): tokenizer "
                        + "'acme/chat' has no chat template (no chat_template in tokenizer_config.json nor a "
                        + "chat_template.jinja in ")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> ChatTemplateCounter.of(on, Tokenizer.builtin()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("the tokenizer o200k_base (builtin) has no chat template");
        assertThat(ChatTemplateCounter.of(new TokenizerConfig(dir.toString(), "main", false), tokenizer(dir)))
                .as("not asked for").isNull();
    }

    @Test
    void aTemplateThatDoesNotRenderIsOneLineBeforeAnyTraffic() throws Exception {
        final Path dir = tokenizerDir(tmp.resolve("broken"), "{% for m in messages %}{{ m.content ", "<s>", "</s>");
        assertThatThrownBy(() -> ChatTemplateCounter.of(new TokenizerConfig(null, "main", false, true),
                tokenizer(dir)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--apply-chat-template (benchmark.tokenizer.apply_chat_template): the chat "
                        + "template of tokenizer 'acme/chat' does not render: ")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aSeparateTemplateFileWinsAndANamedListPicksTheDefault() throws Exception {
        final Path dir = tokenizerDir(tmp.resolve("named"), null, "<s>", "</s>");
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"bos_token\": \"<s>\", \"chat_template\": ["
                + "{\"name\": \"tool_use\", \"template\": \"tools\"}, {\"name\": \"default\", \"template\": "
                + "\"{{ bos_token }}{{ messages[0].content }}\"}]}");
        assertThat(template(dir).render(chat("user", "hi"), true)).isEqualTo("<s>hi");
        Files.writeString(dir.resolve("chat_template.jinja"), "[{{ messages | length }}]");
        assertThat(template(dir).render(chat("user", "hi"), true)).isEqualTo("[1]");
    }

    @Test
    void jinjaAsTransformersHasIt() {
        final Map<String, Object> vars = Map.of("messages", List.of(Map.of("role", "user", "content", "  a b  ")),
                "tools", List.of(Map.of("name", "f", "parameters", Map.of("type", "object"))));
        // loop controls
        assertThat(HfJinja.render("{% for i in [1, 2, 3, 4] %}{% if i == 2 %}{% continue %}{% endif %}{{ i }}"
                + "{% if i == 3 %}{% break %}{% endif %}{% endfor %}", Map.of())).isEqualTo("13");
        // Python string methods
        assertThat(HfJinja.render("{{ messages[0].content.strip() }}|{{ 'x'.upper() }}|"
                + "{{ 'a</t>b'.split('</t>')[-1] }}|{{ 'ab'.startswith('a') }}|{{ '  a b '.split() | length }}|"
                + "{{ 'xxaxx'.lstrip('x') }}", vars))
                .isEqualTo("a b|X|b|true|2|axx");
        // tojson as Python's json.dumps writes it, on one line and indented
        assertThat(HfJinja.render("{{ tools[0] | tojson }}", Map.of("tools", List.of(new java.util.LinkedHashMap<>(
                Map.of("name", "f"))))))
                .isEqualTo("{\"name\": \"f\"}");
        assertThat(PyJson.dumps(List.of(1, Map.of("a", "é\n")), 2))
                .isEqualTo("[\n  1,\n  {\n    \"a\": \"é\\n\"\n  }\n]");
        assertThat(PyJson.dumps(List.of(), 2)).isEqualTo("[]");
        // namespace, slices, tests, trim_blocks
        assertThat(HfJinja.render("{% set ns = namespace(n=0) %}{% for m in messages %}{% set ns.n = ns.n + 1 %}"
                + "{% endfor %}{{ ns.n }}{{ messages[1:] | length }}{{ x is not defined }}", vars))
                .isEqualTo("10true");
        assertThat(HfJinja.render("{% if true %}\n  yes\n{% endif %}\n", Map.of())).isEqualTo("  yes\n");
        // lstrip_blocks strips only what begins a line; trim_blocks also follows a comment
        assertThat(HfJinja.render("{% for i in [1, 2] %}{{ i }} {% endfor %}|\n  {# note #}\nz", Map.of()))
                .isEqualTo("1 2 |\nz");
        // a reversed slice, as Qwen-style templates walk the messages backwards
        assertThat(HfJinja.render("{% for m in messages[::-1] %}{{ m.role }}{{ loop.index0 }}{% endfor %}",
                Map.of("messages", List.of(Map.of("role", "a"), Map.of("role", "b"))))).isEqualTo("b0a1");
    }
}
