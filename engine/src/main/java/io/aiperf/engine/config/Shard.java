package io.aiperf.engine.config;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * This process's share of a cell run on several machines (src-docs/distributed.md): shard {@code index} of
 * {@code count} runs 1/count of the cell's load, and starts at {@code startAt} so shards launched at different
 * moments load the server together. Immutable.
 *
 * @param startAt when the load starts (UTC), or null to start at once
 */
public record Shard(int index, int count, Instant startAt) {

    /** Parses {@code i/N}; null text means one shard of one. */
    public static Shard parse(final String field, final String text, final String startAt) {
        int index = 1;
        int count = 1;
        if (text != null) {
            final String[] parts = text.trim().split("/");
            try {
                if (parts.length != 2) {
                    throw new NumberFormatException();
                }
                index = Integer.parseInt(parts[0].trim());
                count = Integer.parseInt(parts[1].trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(field, "expected i/N (for example 1/2), got '" + text + "'");
            }
            if (count < 1 || index < 1 || index > count) {
                throw new ConfigException(field, "shard " + text + " does not exist: i must be 1 to N");
            }
        }
        Instant at = null;
        if (startAt != null) {
            try {
                at = Instant.parse(startAt.trim());
            } catch (DateTimeParseException e) {
                throw new ConfigException(field.replace("shard", "start_at"), "expected an ISO-8601 UTC time such as "
                        + "2026-12-01T10:00:00Z, got '" + startAt + "'");
            }
        }
        return new Shard(index, count, at);
    }

    /** Whether this shard runs the cell's control hooks (KV-cache reset, server profiler): only the first does. */
    public boolean runsHooks() {
        return index == 1;
    }

    /** This shard's part of {@code total}: equal parts, the first {@code total % count} shards one more. */
    public int share(final int total) {
        return total / count + (index - 1 < total % count ? 1 : 0);
    }

    /** {@code i/N}. */
    public String label() {
        return index + "/" + count;
    }
}
