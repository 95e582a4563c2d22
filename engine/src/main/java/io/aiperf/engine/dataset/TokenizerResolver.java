package io.aiperf.engine.dataset;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.TokenizerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the tokenizer a run asks for (src-docs/tokenizers.md), in order: {@code builtin}; a local {@code tokenizer.json}
 * or a directory holding one; the Hugging Face cache ({@code HF_HUB_CACHE}, else {@code HF_HOME/hub}, HF_HOME
 * defaulting to {@code $XDG_CACHE_HOME/huggingface}, else {@code ~/.cache/huggingface}), in its
 * {@code models--org--name/snapshots/<commit>} layout, the commit read from
 * {@code refs/<revision>}); then the Hugging Face hub, whose files a {@link TokenizerDownloader} downloads into that
 * cache. A model name used as the default that is a placeholder ({@link PlaceholderModels}: {@code mock-model},
 * {@code test-model}, ...) counts with the builtin tokenizer, with a warning, as upstream AIPerf does. A tokenizer that
 * cannot be had stops the run before any traffic; only with {@code HF_HUB_OFFLINE} set does
 * the model name used as the default fall back to the builtin tokenizer, with a warning, and the exports say so.
 * Loaded tokenizers are kept for the process. Thread-safe.
 */
public final class TokenizerResolver {
    private static final String FIELD = "--tokenizer (benchmark.tokenizer.name)";
    private static final Map<String, Tokenizer> LOADED = new ConcurrentHashMap<>();
    /** Hub and model names the hub could not be reached for, with why: the hub is asked once per process. */
    private static final Map<String, TokenizerDownloader.Unreachable> UNREACHABLE = new ConcurrentHashMap<>();
    private static final java.util.Set<String> TRUE = java.util.Set.of("1", "ON", "YES", "TRUE");
    // huggingface_hub's repo id rule: an optional namespace, a name of word characters, '-' and '.'
    private static final java.util.regex.Pattern REPO_ID = java.util.regex.Pattern.compile("(?:[\\w.-]+/)?[\\w.-]+");

    /**
     * The tokenizer, what to warn about in one line (null when nothing), and where it looked (for the log: the
     * warning stays short).
     */
    public record Resolved(Tokenizer tokenizer, String warning, String searched) {
        Resolved(final Tokenizer tokenizer, final String warning) {
            this(tokenizer, warning, null);
        }
    }

    private TokenizerResolver() {
    }

    /** As {@link #resolve(TokenizerConfig, String, Map, TokenizerDownloader)} from files and the cache only. */
    public static Resolved resolve(final TokenizerConfig config, final String model, final Map<String, String> env) {
        return resolve(config, model, env, null);
    }

    /** Whether {@code HF_HUB_OFFLINE} forbids reaching the hub, as huggingface_hub reads it. */
    static boolean offline(final Map<String, String> env) {
        final String v = env.get("HF_HUB_OFFLINE");
        return v != null && TRUE.contains(v.strip().toUpperCase(java.util.Locale.ROOT));
    }

    /** The hub a name was asked of, as the environment names it and its proxies. */
    private static String hubKey(final Map<String, String> env, final String name) {
        final StringBuilder key = new StringBuilder(name);
        for (final String v : new String[] {"HF_ENDPOINT", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy",
            "NO_PROXY", "no_proxy"}) {
            key.append(' ').append(env.getOrDefault(v, ""));
        }
        return key.toString();
    }

    /** Whether the tokenizer is the builtin, or in a file or the cache here: nothing is downloaded or loaded. */
    public static boolean isHere(final TokenizerConfig config, final String model, final Map<String, String> env) {
        final String name = config.explicit() ? config.name() : model;
        return name == null || name.equals(TokenizerConfig.BUILTIN)
                || find(name, config.revision(), env, new ArrayList<>()) != null;
    }

    /** Whether the name can be a hub repository id at all (a path or a served name like {@code llama3:8b} is not). */
    public static boolean isRepoId(final String name) {
        return name.length() <= 96 && REPO_ID.matcher(name).matches() && !name.contains("--")
                && !name.contains("..") && !name.startsWith(".") && !name.startsWith("-") && !name.endsWith(".")
                && !name.endsWith("-");
    }

    /**
     * @param model the model name, the default tokenizer
     * @param env the environment ({@code HF_HOME}, {@code HF_HUB_CACHE}, {@code HF_ENDPOINT}, {@code HF_TOKEN},
     *            {@code HF_HUB_OFFLINE})
     * @param hub what downloads a model id missing from the cache, or null to read files and the cache only
     * @throws ConfigException in one line, when the tokenizer cannot be loaded: a name the user gave that is nowhere,
     *                         a model the hub does not have or refuses, or a hub that cannot be reached
     */
    public static Resolved resolve(final TokenizerConfig config, final String model, final Map<String, String> env,
                                   final TokenizerDownloader hub) {
        final String name = config.explicit() ? config.name() : model;
        if (name == null || name.equals(TokenizerConfig.BUILTIN)) {
            return new Resolved(Tokenizer.builtin(), null);
        }
        if (!config.explicit() && PlaceholderModels.isPlaceholder(name)) {
            // as upstream AIPerf 0.13: neither the cache nor the hub is asked, whether the hub is reachable or not
            return new Resolved(Tokenizer.builtin(), "the model name '" + name + "' looks like a placeholder: "
                    + "counting with the builtin tokenizer (o200k_base); name one with --tokenizer to override");
        }
        final List<String> searched = new ArrayList<>();
        Path file = find(name, config.revision(), env, searched);
        final boolean offline = hub == null || offline(env);
        if (file == null && !offline && isRepoId(name)) {
            try {
                final TokenizerDownloader.Unreachable before = UNREACHABLE.get(hubKey(env, name));
                if (before != null) {
                    throw before; // asked once per run: every cell and sweep point would wait for it again
                }
                file = hub.download(name, config.revision(), cacheRoot(env), env); // one-line error if refused
            } catch (TokenizerDownloader.Unreachable e) {
                UNREACHABLE.putIfAbsent(hubKey(env, name), e);
                if (config.explicit()) {
                    throw new ConfigException(FIELD, e.getMessage());
                }
                // No hub from here (an offline machine): the model name counts as in offline mode, said once.
                return new Resolved(BuiltinTokenizer.fallback(), e.getMessage() + ". Counting with the builtin "
                        + "o200k_base meanwhile, so ISL, OSL and token throughputs are approximate",
                        "looked for tokenizer '" + name + "' in: " + String.join("; ", searched)
                                + "; the Hugging Face hub (unreachable)");
            }
            searched.add("the Hugging Face hub");
        }
        if (file != null) {
            try {
                final String source = searched.size() <= 1 ? "file" : "hf-cache";
                final Path found = file;
                final String loadedKey = file.toAbsolutePath().normalize() + " " + name + " " + source + " "
                        + config.revision();
                return new Resolved(LOADED.computeIfAbsent(loadedKey, k -> {
                    try {
                        return HfTokenizer.load(found, name, source, source.equals("hf-cache")
                                ? (config.revision() == null ? "main" : config.revision()) : null);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }), null);
            } catch (java.io.UncheckedIOException e) {
                throw new ConfigException(FIELD, "cannot load tokenizer '" + name
                        + "': " + e.getCause().getMessage());
            }
        }
        if (offline) {
            searched.add("the Hugging Face hub (not asked: " + (hub == null ? "files and the cache only"
                    : "HF_HUB_OFFLINE is set") + ")");
        }
        if (config.explicit() || !offline) {
            throw new ConfigException(FIELD, "cannot load tokenizer '" + name
                    + "'" + (offline || isRepoId(name) ? "" : " (not a Hugging Face model id either)")
                    + "; looked in: " + String.join("; ", searched)
                    + (config.explicit() ? "" : "; name the tokenizer with --tokenizer, or use --tokenizer builtin"));
        }
        return new Resolved(BuiltinTokenizer.fallback(), "the model name '" + name + "' is not a tokenizer found here "
                + "and " + (hub == null ? "the hub is not asked" : "HF_HUB_OFFLINE keeps the hub out") + ": counting "
                + "with the builtin o200k_base, so ISL, OSL and token throughputs are approximate; name one with "
                + "--tokenizer, or --tokenizer builtin (-v shows where it looked)",
                "looked for tokenizer '" + name + "' in: " + String.join("; ", searched));
    }

    /** The tokenizer.json for a name, or null; every place looked at is added to {@code searched}. */
    static Path find(final String name, final String revision, final Map<String, String> env,
                     final List<String> searched) {
        try {
            final Path local = Path.of(name);
            searched.add("the path " + local.toAbsolutePath());
            if (Files.isRegularFile(local)) {
                return local;
            }
            if (Files.isRegularFile(local.resolve("tokenizer.json"))) {
                return local.resolve("tokenizer.json");
            }
        } catch (InvalidPathException e) {
            // not a path: only a model id
        }
        final Path cache = cacheRoot(env);
        final Path repo = cache.resolve("models--" + name.replace("/", "--"));
        final String rev = revision == null || revision.isBlank() ? "main" : revision;
        String commit = rev;
        try {
            final Path ref = repo.resolve("refs").resolve(rev);
            if (Files.isRegularFile(ref)) {
                commit = Files.readString(ref).strip();
            }
        } catch (IOException | InvalidPathException e) {
            // the revision is then taken as a commit
        }
        final Path snapshot;
        try {
            snapshot = repo.resolve("snapshots").resolve(commit).resolve("tokenizer.json");
        } catch (InvalidPathException e) {
            searched.add("the Hugging Face cache " + cache + " (not a model id)");
            return null;
        }
        searched.add("the Hugging Face cache " + snapshot);
        return Files.isRegularFile(snapshot) ? snapshot : null;
    }

    private static Path cacheRoot(final Map<String, String> env) {
        for (final String name : new String[] {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"}) { // the second is legacy
            final String hubCache = env.get(name);
            if (hubCache != null && !hubCache.isBlank()) {
                return Path.of(hubCache);
            }
        }
        return hfHome(env).resolve("hub");
    }

    /** Hugging Face's home, as huggingface_hub finds it: HF_HOME, else $XDG_CACHE_HOME/huggingface, else ~/.cache. */
    public static Path hfHome(final Map<String, String> env) {
        final String home = env.get("HF_HOME");
        if (home != null && !home.isBlank()) {
            return Path.of(home);
        }
        final String xdg = env.get("XDG_CACHE_HOME");
        return (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache"))
                .resolve("huggingface");
    }
}
