package io.aiperf.engine.sweep;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The seed of one trial ({@code --vary-seed-per-trial}, as upstream derives it): SHA-256 over the point's seed and
 * {@code "<point label>:trial:<n>"}, the first 8 bytes as a non-negative long, so each trial draws other prompts and
 * arrivals while the run stays reproducible. Without it, every trial of a point uses the point's seed.
 */
final class TrialSeeds {
    private TrialSeeds() {
    }

    static Long of(final Long pointSeed, final String label, final int trial, final boolean vary) {
        if (!vary || pointSeed == null) {
            return pointSeed;
        }
        try {
            final MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(Long.toString(pointSeed).getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update((label + ":trial:" + trial).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(sha.digest()).getLong() & Long.MAX_VALUE;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
