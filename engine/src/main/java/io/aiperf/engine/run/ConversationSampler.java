package io.aiperf.engine.run;

import io.aiperf.engine.config.DatasetConfig;
import java.util.Random;

/**
 * Which conversation the n-th session of a phase runs (AIPerf's {@code --dataset-sampling-strategy}): in order,
 * uniformly with replacement, or a seeded permutation reshuffled when used up. Thread-safe.
 */
final class ConversationSampler {
    private final DatasetConfig.Sampling strategy;
    private final int size;
    private final Random random;
    private final int[] order;
    private int next;

    ConversationSampler(final DatasetConfig.Sampling strategy, final int size, final long seed) {
        this.strategy = strategy;
        this.size = size;
        this.random = new Random(seed);
        this.order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        if (strategy == DatasetConfig.Sampling.SHUFFLE) {
            shuffle();
        }
    }

    synchronized int next() {
        switch (strategy) {
            case RANDOM -> {
                return random.nextInt(size);
            }
            case SHUFFLE -> {
                if (next == size) {
                    shuffle();
                    next = 0;
                }
                return order[next++];
            }
            default -> {
                final int i = next;
                next = (next + 1) % size;
                return i;
            }
        }
    }

    private void shuffle() {
        for (int i = size - 1; i > 0; i--) {
            final int j = random.nextInt(i + 1);
            final int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
}
