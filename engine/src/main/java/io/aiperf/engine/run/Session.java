package io.aiperf.engine.run;

import io.aiperf.engine.client.InferenceClient;
import io.aiperf.engine.dataset.Conversation;
import java.util.ArrayList;
import java.util.List;

/**
 * One conversation being run (src-docs/datasets.md): which turn is next, the server's replies so far, and the
 * input tokens its history has grown to. One correlation id for all its turns, so a router can keep it on one
 * replica. Touched by one thread at a time: each turn is sent only after the previous one finished.
 */
final class Session {
    final int number;
    final int conversationIndex;
    final Conversation conversation;
    final String correlationId = InferenceClient.fastUuid();
    private final List<String> replies = new ArrayList<>();
    private int turn;
    private int historyTokens;
    /** When the latest turn started (its record's start), kept in user-centric phases only (it paces the user), or -1. */
    volatile long lastSendNanos = -1;

    Session(final int number, final int conversationIndex, final Conversation conversation) {
        this.number = number;
        this.conversationIndex = conversationIndex;
        this.conversation = conversation;
        this.historyTokens = conversation.systemTokens();
    }

    int turn() {
        return turn;
    }

    Conversation.Turn current() {
        return conversation.turns().get(turn);
    }

    List<String> replies() {
        return replies;
    }

    /** Input tokens of the current turn's request: the system prompt, the history and the new user text. */
    int inputTokens() {
        return historyTokens + current().inputTokens();
    }

    boolean hasNext() {
        return turn + 1 < conversation.turns().size();
    }

    /** Moves to the next turn after the current one got {@code reply} ({@code replyTokens} long). */
    void advance(final String reply, final int replyTokens) {
        historyTokens += current().inputTokens() + replyTokens;
        replies.add(reply);
        turn++;
    }
}
