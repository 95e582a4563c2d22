package io.aiperf.engine.dataset;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.TokenizerConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Input tokens as the model reads them, for {@code --apply-chat-template} (src-docs/tokenizers.md): a request's
 * messages rendered through the model's chat template with the generation prompt, then counted, as upstream AIPerf
 * does. Also what the template costs, so synthetic prompts can be shortened by it: a fixed cost once per request
 * (BOS, the generation prompt) and a wrap per message (role header, end of turn), measured as upstream does by
 * rendering a one-message and a three-message chat of the same sample. Immutable, thread-safe.
 */
public final class ChatTemplateCounter {
    public static final String FIELD = "--apply-chat-template (benchmark.tokenizer.apply_chat_template)";
    /** Probe texts of different lengths and kinds; the overheads are averaged over them. */
    private static final List<String> SAMPLES = List.of("Good morning, what is on the list for today?",
            "Write a short Java method that sums the squares of an int array.",
            "Explain how a B-tree keeps itself balanced when keys are inserted.");

    private final Tokenizer tokenizer;
    private final ChatTemplate template;
    private final int fixedCost;
    private final int messageWrap;

    private ChatTemplateCounter(final Tokenizer tokenizer, final ChatTemplate template) {
        this.tokenizer = tokenizer;
        this.template = template;
        double fixed = 0;
        double wrap = 0;
        boolean plausible = true;
        for (final String s : SAMPLES) {
            final int bare = tokenizer.count(s);
            final int one = count(null, List.of(s));
            final int three = count(null, List.of(s, s, s));
            final double w = (three - one - 2.0 * bare) / 2;
            final double f = one - bare - w;
            plausible &= w >= 0 && f >= 0;
            wrap += w / SAMPLES.size();
            fixed += f / SAMPLES.size();
        }
        // An implausible (negative) cost means the model above does not fit the template: no shortening then.
        this.fixedCost = plausible ? (int) Math.rint(fixed) : 0; // rint rounds half to even, as Python's round
        this.messageWrap = plausible ? (int) Math.rint(wrap) : 0;
    }

    private ChatTemplateCounter(final ChatTemplateCounter measured, final Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
        this.template = measured.template;
        this.fixedCost = measured.fixedCost;
        this.messageWrap = measured.messageWrap;
    }

    /** The same template and costs, counted by {@code other} (the run's watched tokenizer once traffic starts). */
    public ChatTemplateCounter countingWith(final Tokenizer other) {
        return new ChatTemplateCounter(this, other);
    }

    /**
     * As {@link #of(TokenizerConfig, Tokenizer)}, the measuring renders counted under a {@link TokenizerWatchdog}: a
     * backtracking tokenizer.json ends it with one clear error instead of hanging the command.
     *
     * @throws ConfigException also when the tokenizer went over its bound
     */
    public static ChatTemplateCounter watched(final TokenizerConfig config, final Tokenizer tokenizer) {
        if (!config.applyChatTemplate()) {
            return null;
        }
        final TokenizerWatchdog watchdog = new TokenizerWatchdog(tokenizer, TokenizerWatchdog.FLOOR_NANOS);
        try {
            return watchdog.run(() -> of(config, watchdog), () -> false, "measuring the chat template");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CancellationException("interrupted while measuring the chat template");
        }
    }

    /**
     * The counter a run uses, or null when the chat template is not asked for.
     *
     * @throws ConfigException in one line, before any traffic: the tokenizer has no chat template, or the template
     *                         does not render a chat
     */
    public static ChatTemplateCounter of(final TokenizerConfig config, final Tokenizer tokenizer) {
        if (!config.applyChatTemplate()) {
            return null;
        }
        if (tokenizer.file() == null) {
            throw new ConfigException(FIELD, "the tokenizer " + tokenizer.name() + " (" + tokenizer.source()
                    + ") has no chat template; name the model's tokenizer with --tokenizer");
        }
        final ChatTemplate template;
        try {
            template = ChatTemplate.find(tokenizer.file());
        } catch (IOException e) {
            throw new ConfigException(FIELD, "cannot read the chat template of tokenizer '" + tokenizer.name()
                    + "': " + e.getMessage());
        }
        if (template == null) {
            throw new ConfigException(FIELD, "tokenizer '" + tokenizer.name() + "' has no chat template (no "
                    + "chat_template in " + ChatTemplate.CONFIG_FILE + " nor a " + ChatTemplate.TEMPLATE_FILE
                    + " in " + tokenizer.file().toAbsolutePath().getParent() + ")");
        }
        return of(tokenizer, template);
    }

    /** @throws ConfigException when the template does not render a plain chat */
    static ChatTemplateCounter of(final Tokenizer tokenizer, final ChatTemplate template) {
        try {
            return new ChatTemplateCounter(tokenizer, template);
        } catch (ChatTemplate.RenderException e) {
            throw new ConfigException(FIELD, "the chat template of tokenizer '" + tokenizer.name()
                    + "' does not render: " + e.getMessage());
        }
    }

    /**
     * Tokens of a request's messages rendered with the generation prompt.
     *
     * @param system the system message, or null
     * @param exchange user and assistant texts in turn, starting and ending with a user text
     * @throws ChatTemplate.RenderException when the template refuses these messages
     */
    public int count(final String system, final List<String> exchange) {
        return tokenizer.count(template.render(messages(system, exchange), true));
    }

    static List<ChatTemplate.Message> messages(final String system, final List<String> exchange) {
        final List<ChatTemplate.Message> out = new ArrayList<>(exchange.size() + 1);
        if (system != null) {
            out.add(new ChatTemplate.Message("system", system));
        }
        for (int i = 0; i < exchange.size(); i++) {
            out.add(new ChatTemplate.Message(i % 2 == 0 ? "user" : "assistant", exchange.get(i)));
        }
        return out;
    }

    /** What a synthetic first turn is shortened by: the request's fixed cost and its message's wrap. */
    public int firstTurnOverhead() {
        return fixedCost + messageWrap;
    }

    /** What a later synthetic turn is shortened by: its message's wrap. */
    public int laterTurnOverhead() {
        return messageWrap;
    }
}
