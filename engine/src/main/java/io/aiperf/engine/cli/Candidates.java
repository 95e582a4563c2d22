package io.aiperf.engine.cli;

import io.aiperf.engine.config.EndpointType;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The values of the options that take a word from a fixed set, for shell completion (picocli's
 * {@code completionCandidates}). The config still validates what is given; these only offer it.
 */
final class Candidates {
    private Candidates() {
    }

    /** A fixed list of words; picocli instantiates each subclass with its no-argument constructor. */
    abstract static class Fixed implements Iterable<String> {
        private final List<String> words;

        Fixed(final String... words) {
            this.words = List.of(words);
        }

        @Override
        public Iterator<String> iterator() {
            return words.iterator();
        }
    }

    static final class EndpointTypes implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(EndpointType.values()).map(EndpointType::wireName).iterator();
        }
    }

    static final class ArrivalPatterns extends Fixed {
        ArrivalPatterns() {
            super("constant", "poisson", "gamma", "concurrency_burst");
        }
    }

    static final class DatasetTypes extends Fixed {
        DatasetTypes() {
            super("single_turn", "multi_turn", "random_pool", "mooncake_trace", "raw_payload");
        }
    }

    static final class SamplingStrategies extends Fixed {
        SamplingStrategies() {
            super("sequential", "random", "shuffle");
        }
    }

    static final class ModelSelections extends Fixed {
        ModelSelections() {
            super("round_robin", "random");
        }
    }

    static final class LogLevels extends Fixed {
        LogLevels() {
            super("TRACE", "DEBUG", "INFO", "NOTICE", "WARNING", "SUCCESS", "ERROR", "CRITICAL");
        }
    }

    static final class ExportLevels extends Fixed {
        ExportLevels() {
            super("summary", "records", "raw");
        }
    }

    static final class UiTypes extends Fixed {
        UiTypes() {
            super("dashboard", "simple", "none");
        }
    }

    static final class OutputFormats extends Fixed {
        OutputFormats() {
            super("text", "json");
        }
    }

    static final class SweepTypes extends Fixed {
        SweepTypes() {
            super("grid", "zip");
        }
    }
}
