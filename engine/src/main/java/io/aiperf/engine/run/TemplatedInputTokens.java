package io.aiperf.engine.run;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.EndpointType;
import io.aiperf.engine.dataset.ChatTemplate;
import io.aiperf.engine.dataset.ChatTemplateCounter;
import io.aiperf.engine.dataset.Conversation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * ISL under {@code --apply-chat-template} (src-docs/tokenizers.md): the tokens of a chat request's messages (the
 * system prompt, the history with the server's actual replies, the new user text; media left out) rendered through
 * the model's chat template, as upstream AIPerf counts them. Endpoints whose body carries no messages, and rows sent
 * as they are ({@code raw_payload}), keep the plain count. First turns are rendered before any traffic, so a template
 * that refuses the dataset stops the run there. Thread-safe.
 */
final class TemplatedInputTokens {
    /** The endpoints whose requests carry a list of messages, which a server renders with the chat template. */
    private static final Set<EndpointType> CHAT_SHAPED = Set.of(EndpointType.CHAT, EndpointType.CHAT_EMBEDDINGS,
            EndpointType.RESPONSES, EndpointType.MESSAGES);

    private final ChatTemplateCounter counter;
    private final List<Conversation> conversations;
    private final int[] firstTurns;
    private final AtomicBoolean warned;
    private final java.util.function.Consumer<String> warn;

    private TemplatedInputTokens(final ChatTemplateCounter counter, final List<Conversation> conversations,
                                 final java.util.function.Consumer<String> warn) {
        this.counter = counter;
        this.conversations = conversations;
        this.warn = warn;
        this.warned = new AtomicBoolean();
        this.firstTurns = new int[conversations.size()];
        for (int c = 0; c < conversations.size(); c++) {
            final Conversation conv = conversations.get(c);
            if (conv.first().payload() != null) {
                firstTurns[c] = -1;
                continue;
            }
            try {
                firstTurns[c] = counter.count(conv.systemPrompt(), List.of(conv.first().prompt()));
            } catch (ChatTemplate.RenderException e) {
                throw new ConfigException(ChatTemplateCounter.FIELD, "the chat template does not render conversation "
                        + conv.id() + ": " + e.getMessage());
            }
        }
    }

    private TemplatedInputTokens(final TemplatedInputTokens counted, final ChatTemplateCounter laterTurns) {
        this.counter = laterTurns;
        this.conversations = counted.conversations;
        this.warn = counted.warn;
        this.warned = counted.warned;
        this.firstTurns = counted.firstTurns;
    }

    /**
     * The same first turns; later turns (rendered while the run goes on, with the server's replies) counted by
     * {@code runTokenizer}, the run's watched tokenizer: a tokenizer that backtracks on a reply stops the cell.
     */
    TemplatedInputTokens laterTurnsCountedBy(final io.aiperf.engine.dataset.Tokenizer runTokenizer) {
        return new TemplatedInputTokens(this, counter.countingWith(runTokenizer));
    }

    /**
     * @param counter the run's counter, or null when the chat template is not asked for
     * @param warn where a later turn the template refuses is said, once
     * @return null when ISL stays the plain count: no template asked for, or an endpoint without messages
     */
    static TemplatedInputTokens of(final ChatTemplateCounter counter, final EndpointType type,
                                   final List<Conversation> conversations,
                                   final java.util.function.Consumer<String> warn) {
        return counter == null || !CHAT_SHAPED.contains(type) ? null
                : new TemplatedInputTokens(counter, conversations, warn);
    }

    /**
     * @param replies the server's replies to the turns before this one
     * @param plain the plain count, kept for rows sent as they are and for a later turn the template refuses
     */
    int count(final int conversation, final int turn, final List<String> replies, final int plain) {
        final Conversation c = conversations.get(conversation);
        if (c.turns().get(turn).payload() != null) {
            return plain;
        }
        if (turn == 0) {
            return firstTurns[conversation];
        }
        final List<String> exchange = new ArrayList<>(2 * turn + 1);
        for (int t = 0; t < turn; t++) {
            exchange.add(c.turns().get(t).prompt());
            exchange.add(t < replies.size() && replies.get(t) != null ? replies.get(t) : "");
        }
        exchange.add(c.turns().get(turn).prompt());
        try {
            return counter.count(c.systemPrompt(), exchange);
        } catch (ChatTemplate.RenderException e) {
            // The first turns rendered; a reply the template refuses must not stop a running benchmark.
            if (warned.compareAndSet(false, true)) {
                warn.accept("the chat template does not render a later turn of conversation " + c.id() + " ("
                        + e.getMessage() + "); such turns keep the plain input token count");
            }
            return plain;
        }
    }
}
