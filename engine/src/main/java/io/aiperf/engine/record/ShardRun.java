package io.aiperf.engine.record;

/**
 * How one shard of a cell ran (src-docs/distributed.md), written into its {@code cell_outcome.json} so the merge can
 * check that every shard is there and that they ran together.
 *
 * @param startAt the agreed start (ISO-8601 UTC), or null
 * @param startLatenessMs how long after {@code startAt} the load started here, or null without one
 * @param clockOffsetMs the server's clock minus this host's, from the {@code Date} header of its answer (whole
 *                      seconds, so good to about half a second), or null when the server sent none
 */
public record ShardRun(int index, int count, String startAt, Double startLatenessMs, Double clockOffsetMs) {
}
