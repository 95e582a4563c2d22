package io.aiperf.engine.mock;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.dataset.Tokenizer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What prompts the mock was sent (src-docs/mock-server.md), so tests can check what a run really sent: the prompt of
 * each request and how much of it a prefix cache would have held. The prompt (every message's text, joined by
 * newlines) is cut into blocks of {@value #BLOCK_CHARS} characters, each identified by a hash chained over the blocks
 * before it, as a KV cache identifies its blocks; a block already seen is a reused one. A KV-cache reset forgets
 * every block. Token counts are taken with the builtin tokenizer for the recent requests only, when asked, so the
 * mock's hot path does no tokenizing. Thread-safe.
 */
final class PromptLedger {
    static final int BLOCK_CHARS = 64;
    private static final int RECENT = 1_000;
    private static final int MAX_BLOCKS = 4_000_000; // bounds memory on long runs; then the cache "evicts" all

    private final Set<Long> blocks = new HashSet<>();
    private final ArrayDeque<Seen> recent = new ArrayDeque<>();
    private long requests;
    private long chars;
    private long blocksTotal;
    private long blocksReused;
    private long requestsWithReuse;
    private long images;
    private long audios;

    private record Seen(String correlationId, int messages, String text, int blocks, int reused) {
    }

    /** Records one inference request's prompt. */
    void record(final JsonNode body, final String correlationId) {
        final StringBuilder text = new StringBuilder();
        int messages = 0;
        int imageParts = 0;
        int audioParts = 0;
        final JsonNode list = body.path("messages").isArray() ? body.path("messages") : body.path("input");
        if (list.isArray() && list.path(0).isObject()) {
            for (final JsonNode m : list) {
                append(text, textOf(m.path("content")));
                imageParts += "image_url".equals(m.path("type").asText()) ? 1 : 0; // image retrieval's flat parts
                for (final JsonNode part : m.path("content")) {
                    final String type = part.path("type").asText();
                    imageParts += type.equals("image_url") || type.equals("input_image") ? 1 : 0;
                    audioParts += type.equals("input_audio") ? 1 : 0;
                }
                messages++;
            }
        } else {
            append(text, body.path("prompt").asText(body.path("input").path(0).asText("")));
            messages = 1;
        }
        final int n = text.length() / BLOCK_CHARS;
        final long[] ids = new long[n];
        long chain = 1125899906842597L;
        for (int b = 0; b < n; b++) {
            for (int i = b * BLOCK_CHARS; i < (b + 1) * BLOCK_CHARS; i++) {
                chain = 31 * chain + text.charAt(i);
            }
            ids[b] = chain;
        }
        synchronized (this) {
            int reused = 0;
            while (reused < n && blocks.contains(ids[reused])) {
                reused++;
            }
            if (blocks.size() + n > MAX_BLOCKS) {
                blocks.clear();
            }
            for (final long id : ids) {
                blocks.add(id);
            }
            requests++;
            chars += text.length();
            blocksTotal += n;
            blocksReused += reused;
            requestsWithReuse += reused > 0 ? 1 : 0;
            images += imageParts;
            audios += audioParts;
            if (recent.size() == RECENT) {
                recent.removeFirst();
            }
            recent.addLast(new Seen(correlationId, messages, text.toString(), n, reused));
        }
    }

    /** A message's text: its content string, or the text of its content parts (multimodal chat). */
    static String textOf(final JsonNode content) {
        if (!content.isArray()) {
            return content.asText("");
        }
        final StringBuilder sb = new StringBuilder();
        for (final JsonNode part : content) {
            if (part.has("text")) {
                sb.append(sb.length() > 0 ? " " : "").append(part.path("text").asText(""));
            }
        }
        return sb.toString();
    }

    private static void append(final StringBuilder text, final String part) {
        if (text.length() > 0) {
            text.append('\n');
        }
        text.append(part);
    }

    /** Blocks looked up and blocks found, for the mock's prefix-cache counters. */
    synchronized long[] blockCounts() {
        return new long[] {blocksTotal, blocksReused};
    }

    /** A KV-cache reset: no block is cached any more. */
    synchronized void forgetBlocks() {
        blocks.clear();
    }

    synchronized void clear() {
        blocks.clear();
        recent.clear();
        requests = 0;
        chars = 0;
        blocksTotal = 0;
        blocksReused = 0;
        requestsWithReuse = 0;
        images = 0;
        audios = 0;
    }

    /** The {@code prompts} part of {@code /admin/control-state}. */
    synchronized Map<String, Object> snapshot() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", requests);
        m.put("chars", chars);
        m.put("block_chars", BLOCK_CHARS);
        m.put("blocks", blocksTotal);
        m.put("blocks_reused", blocksReused);
        m.put("requests_with_reuse", requestsWithReuse);
        m.put("images", images);
        m.put("audios", audios);
        final List<Map<String, Object>> list = new ArrayList<>(recent.size());
        final Tokenizer tokenizer = Tokenizer.builtin();
        for (final Seen s : recent) {
            final Map<String, Object> r = new LinkedHashMap<>();
            r.put("correlation_id", s.correlationId());
            r.put("messages", s.messages());
            r.put("tokens", tokenizer.count(s.text()));
            r.put("blocks", s.blocks());
            r.put("blocks_reused", s.reused());
            list.add(r);
        }
        m.put("recent", list);
        return m;
    }
}
