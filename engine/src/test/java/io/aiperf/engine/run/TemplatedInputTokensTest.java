package io.aiperf.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.EndpointType;
import io.aiperf.engine.config.TokenizerConfig;
import io.aiperf.engine.dataset.ChatTemplateCounter;
import io.aiperf.engine.dataset.Conversation;
import io.aiperf.engine.dataset.TokenizerResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ISL under --apply-chat-template: which requests are rendered, with what history, and what a refusal does. */
class TemplatedInputTokensTest {
    private static final String WORDS = """
            {"version": "1.0", "truncation": null, "padding": null, "added_tokens": [], "normalizer": null,
             "pre_tokenizer": {"type": "WhitespaceSplit"}, "post_processor": null, "decoder": null,
             "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}
            """;
    /** Each message as "[role] content"; a message reading "bad" is refused. Every word is one token. */
    private static final String TEMPLATE = "{% for m in messages %}{% if m.content == 'bad' %}"
            + "{{ raise_exception('no bad words') }}{% endif %}[{{ m.role }}] {{ m.content }} {% endfor %}"
            + "{% if add_generation_prompt %}[assistant]{% endif %}";

    @TempDir
    Path tmp;

    private ChatTemplateCounter counter() throws Exception {
        final Path dir = Files.createDirectories(tmp.resolve("tok"));
        Files.writeString(dir.resolve("tokenizer.json"), WORDS);
        Files.writeString(dir.resolve("tokenizer_config.json"),
                new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("chat_template", TEMPLATE)
                        .toString());
        final TokenizerConfig config = new TokenizerConfig(dir.toString(), "main", false, true);
        return ChatTemplateCounter.of(config, TokenizerResolver.resolve(config, "m", Map.of()).tokenizer());
    }

    private static Conversation chat(final String id, final String system, final String... prompts) {
        final List<Conversation.Turn> turns = new ArrayList<>();
        for (final String p : prompts) {
            turns.add(new Conversation.Turn(p, -7, null, 0));
        }
        return new Conversation(id, system, 0, turns, null);
    }

    @Test
    void chatRequestsAreRenderedWithTheirSystemPromptAndTheServersReplies() throws Exception {
        final List<String> warnings = new ArrayList<>();
        final TemplatedInputTokens isl = TemplatedInputTokens.of(counter(), EndpointType.CHAT,
                List.of(chat("c0", null, "a b", "c"), chat("c1", "be brief", "a b")), warnings::add);
        // "[user] a b [assistant]"
        assertThat(isl.count(0, 0, List.of(), 99)).isEqualTo(4);
        // "[system] be brief [user] a b [assistant]"
        assertThat(isl.count(1, 0, List.of(), 99)).isEqualTo(7);
        // "[user] a b [assistant] r r r [user] c [assistant]"
        assertThat(isl.count(0, 1, List.of("r r r"), 99)).isEqualTo(10);
        // A reply the template refuses keeps the plain count, said once.
        assertThat(isl.count(0, 1, List.of("bad"), 99)).isEqualTo(99);
        assertThat(isl.count(0, 1, List.of("bad"), 98)).isEqualTo(98);
        assertThat(warnings).hasSize(1).first().asString().contains("conversation c0").contains("no bad words");
    }

    @Test
    void endpointsWithoutMessagesAndRowsSentAsTheyAreKeepThePlainCount() throws Exception {
        final ChatTemplateCounter counter = counter();
        assertThat(TemplatedInputTokens.of(counter, EndpointType.COMPLETIONS, List.of(chat("c", null, "a")),
                w -> { })).isNull();
        assertThat(TemplatedInputTokens.of(null, EndpointType.CHAT, List.of(chat("c", null, "a")), w -> { }))
                .isNull();
        final Conversation raw = new Conversation("r", null, 0, List.of(new Conversation.Turn("a b", 2, null, 0,
                List.of(), List.of(), "{\"messages\": []}")), null);
        assertThat(TemplatedInputTokens.of(counter, EndpointType.CHAT, List.of(raw), w -> { })
                .count(0, 0, List.of(), 2)).isEqualTo(2);
    }

    @Test
    void aFirstTurnTheTemplateRefusesStopsTheRunBeforeAnyTraffic() throws Exception {
        final ChatTemplateCounter counter = counter();
        assertThatThrownBy(() -> TemplatedInputTokens.of(counter, EndpointType.RESPONSES,
                List.of(chat("ok", null, "a"), chat("refused", null, "bad")), w -> { }))
                .isInstanceOf(ConfigException.class)
                .hasMessage("--apply-chat-template (benchmark.tokenizer.apply_chat_template): the chat template does "
                        + "not render conversation refused: the template raised: no bad words");
    }
}
