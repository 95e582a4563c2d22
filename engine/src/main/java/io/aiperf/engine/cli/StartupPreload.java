package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.dataset.Tokenizer;
import java.util.List;

/**
 * Loads, on one background thread, what a run needs before its first request and does not depend on the parsed
 * options: the builtin vocabulary and Jackson's object mapper (together about a third of a second of class loading
 * and table building). Started before the command line is parsed, it overlaps picocli's reflection; whoever needs
 * either first waits only for what is left (class initialisation is the lock). Measured by bench/run.sh (P5,
 * bench/history/runs.md).
 */
final class StartupPreload {
    private StartupPreload() {
    }

    /** Starts the preload for a command that runs benchmarks; anything else starts nothing. */
    static void begin(final List<String> args) {
        if (args.isEmpty() || !(args.get(0).equals("profile") || args.get(0).equals("compare"))) {
            return;
        }
        final boolean builtin = builtinTokenizer(args);
        final Thread t = new Thread(() -> {
            if (builtin) {
                Tokenizer.builtin().count("warm");
            }
            try {
                final ObjectMapper json = new ObjectMapper();
                final JsonNode tree = json.readTree("{\"a\":[1,2.5,\"x\",true,null],\"b\":{}}");
                json.writeValueAsBytes(tree);
            } catch (java.io.IOException | RuntimeException e) {
                // only a warm-up: the run itself reports any real problem
            }
        }, "startup-preload");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }

    /** The builtin tokenizer is the default, and the fallback for model names that cannot be resolved. */
    static boolean builtinTokenizer(final List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            final String a = args.get(i);
            if (a.equals("--tokenizer") && i + 1 < args.size()) {
                return args.get(i + 1).equals("builtin");
            }
            if (a.startsWith("--tokenizer=")) {
                return a.equals("--tokenizer=builtin");
            }
        }
        return true;
    }
}
