package io.aiperf.engine.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.NetworkConfig;
import io.aiperf.engine.config.TokenizerConfig;
import io.aiperf.engine.dataset.TokenizerResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A model's tokenizer not in the cache is downloaded from the hub (a loopback fake) into the cache's layout. */
class HfHubTest {
    /** A word-level tokenizer in Hugging Face's format: every whitespace-separated word is one token. */
    static final String WORDS = """
            {"version": "1.0", "truncation": null, "padding": null, "added_tokens": [], "normalizer": null,
             "pre_tokenizer": {"type": "WhitespaceSplit"}, "post_processor": null, "decoder": null,
             "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "hello": 1, "world": 2}, "unk_token": "[UNK]"}}
            """;
    private static final HfHub HUB = new HfHub(NetworkConfig.defaults());
    private static final String CONFIG = "{\"chat_template\": \"{{ messages }}\"}";

    @TempDir
    Path tmp;

    private Map<String, String> env(final FakeHub hub, final String... more) {
        final Map<String, String> env = new java.util.HashMap<>(Map.of("HF_ENDPOINT", hub.url(),
                "HF_HOME", tmp.resolve("hf").toString()));
        for (int i = 0; i < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }

    private static TokenizerResolver.Resolved resolveWithHub(final TokenizerConfig config, final String model,
                                                             final Map<String, String> env) {
        return TokenizerResolver.resolve(config, model, env, HUB);
    }

    private static TokenizerConfig byModel() {
        return new TokenizerConfig(null, "main", false);
    }

    @Test
    void aPublicRepoIsDownloadedIntoTheCacheLayoutAndItsCountsAreUsed() throws Exception {
        try (FakeHub hub = new FakeHub().repo("acme/words", Map.of("tokenizer.json", WORDS,
                "tokenizer_config.json", CONFIG))) {
            final TokenizerResolver.Resolved r = resolveWithHub(byModel(), "acme/words", env(hub));
            assertThat(r.warning()).isNull();
            assertThat(r.tokenizer().count("hello brave new world.")).isEqualTo(4); // o200k_base says 5
            assertThat(r.tokenizer().source()).isEqualTo("hf-cache");
            assertThat(r.tokenizer().revision()).isEqualTo("main");
            final Path repo = tmp.resolve("hf/hub/models--acme--words");
            assertThat(Files.readString(repo.resolve("refs/main"))).isEqualTo(FakeHub.COMMIT);
            final Path snapshot = repo.resolve("snapshots").resolve(FakeHub.COMMIT);
            assertThat(Files.readString(snapshot.resolve("tokenizer.json"))).isEqualTo(WORDS);
            assertThat(Files.readString(snapshot.resolve("tokenizer_config.json"))).isEqualTo(CONFIG);
            assertThat(snapshot.resolve("chat_template.jinja")).as("the repo has none").doesNotExist();
            assertThat(Files.isSymbolicLink(snapshot.resolve("tokenizer.json"))).isTrue();
            assertThat(snapshot.resolve("tokenizer.json").toRealPath().getParent()).isEqualTo(repo.resolve("blobs")
                    .toRealPath());
            // The hub's redirect was followed; no token was sent, as none was set.
            assertThat(hub.requests).contains("/acme/words/resolve/main/tokenizer.json -",
                    "/cdn/acme/words/tokenizer.json -", "/acme/words/resolve/" + FakeHub.COMMIT
                            + "/tokenizer_config.json -");
            // Found in the cache the next time, offline too: the hub is not asked again.
            final int asked = hub.requests.size();
            assertThat(resolveWithHub(byModel(), "acme/words", env(hub, "HF_HUB_OFFLINE", "1"))
                    .tokenizer().source()).isEqualTo("hf-cache");
            assertThat(hub.requests).hasSize(asked);
        }
    }

    @Test
    void aCommitIdThatIsNotOneIsRefusedAndNothingIsWrittenOutsideTheCache() throws Exception {
        try (FakeHub hub = new FakeHub().repo("acme/words", Map.of("tokenizer.json", WORDS))) {
            hub.commit = "../../../../escaped";
            assertThatThrownBy(() -> resolveWithHub(new TokenizerConfig("acme/words", "main", false), "m", env(hub)))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("X-Repo-Commit")
                    .hasMessageContaining("not a commit id");
            try (java.util.stream.Stream<Path> all = Files.walk(tmp)) {
                assertThat(all.filter(p -> p.getFileName().toString().startsWith("tokenizer"))).isEmpty();
            }
            assertThat(tmp.resolve("escaped")).doesNotExist();
        }
    }

    @Test
    void aRevisionThatClimbsOutOfTheCacheIsRefused() throws Exception {
        try (FakeHub hub = new FakeHub().repo("acme/words", Map.of("tokenizer.json", WORDS))) {
            hub.anyRevision = true;
            assertThatThrownBy(() -> resolveWithHub(new TokenizerConfig("acme/words", "../../../../x", false), "m",
                    env(hub))).isInstanceOf(ConfigException.class);
            assertThat(tmp.resolve("x")).doesNotExist();
        }
    }

    @Test
    void aRepoWithoutTokenizerConfigStillCounts() throws Exception {
        try (FakeHub hub = new FakeHub().repo("acme/plain", Map.of("tokenizer.json", WORDS))) {
            assertThat(resolveWithHub(new TokenizerConfig("acme/plain", "main", false), "m", env(hub))
                    .tokenizer().count("a b")).isEqualTo(2);
            assertThat(tmp.resolve("hf/hub/models--acme--plain/snapshots/" + FakeHub.COMMIT + "/tokenizer_config.json"))
                    .doesNotExist();
        }
    }

    @Test
    void aChatTemplateFileOfItsOwnIsDownloadedBesideTheTokenizer() throws Exception {
        try (FakeHub hub = new FakeHub().repo("acme/templated", Map.of("tokenizer.json", WORDS,
                "chat_template.jinja", "{{ messages[0].content }}"))) {
            resolveWithHub(byModel(), "acme/templated", env(hub));
            assertThat(Files.readString(tmp.resolve("hf/hub/models--acme--templated/snapshots/" + FakeHub.COMMIT
                    + "/chat_template.jinja"))).isEqualTo("{{ messages[0].content }}");
        }
    }

    @Test
    void aGatedRepoNeedsHfTokenAndWorksWithIt() throws Exception {
        try (FakeHub hub = new FakeHub().gated("acme/gated", Map.of("tokenizer.json", WORDS),
                "hf_secret123")) {
            assertThatThrownBy(() -> resolveWithHub(byModel(), "acme/gated", env(hub)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("'acme/gated'").hasMessageContaining("gated or private")
                    .hasMessageContaining("HTTP 401").hasMessageContaining("set HF_TOKEN")
                    .hasMessageNotContaining("\n");
            assertThatThrownBy(() -> resolveWithHub(byModel(), "acme/gated", env(hub, "HF_TOKEN", "wrong1")))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("refused HF_TOKEN")
                    .hasMessageContaining("HTTP 403").hasMessageNotContaining("wrong1");
            final TokenizerResolver.Resolved r = resolveWithHub(byModel(), "acme/gated",
                    env(hub, "HF_TOKEN", "hf_secret123"));
            assertThat(r.tokenizer().count("one two three")).isEqualTo(3);
            assertThat(hub.requests).contains("/acme/gated/resolve/main/tokenizer.json Bearer hf_secret123");
        }
    }

    @Test
    void theTokenSavedByTheHubLoginIsUsedWhenHfTokenIsUnset() throws Exception {
        try (FakeHub hub = new FakeHub().gated("acme/gated", Map.of("tokenizer.json", WORDS),
                "hf_saved")) {
            Files.createDirectories(tmp.resolve("hf"));
            Files.writeString(tmp.resolve("hf/token"), "hf_saved\n");
            assertThat(resolveWithHub(byModel(), "acme/gated", env(hub)).tokenizer().source())
                    .isEqualTo("hf-cache");
        }
    }

    @Test
    void aMissingRepoOrRevisionIsOneLine() throws Exception {
        try (FakeHub hub = new FakeHub().repo("acme/words", Map.of("tokenizer.json", WORDS))) {
            assertThatThrownBy(() -> resolveWithHub(byModel(), "acme/nothing", env(hub)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("--tokenizer (benchmark.tokenizer.name): no model 'acme/nothing' on the "
                            + "Hugging Face hub at " + hub.url())
                    .hasMessageContaining("RepoNotFound").hasMessageNotContaining("\n");
            assertThatThrownBy(() -> resolveWithHub(new TokenizerConfig(null, "v9", false), "acme/words",
                    env(hub))).isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("--tokenizer-revision (benchmark.tokenizer.revision): 'acme/words'")
                    .hasMessageContaining("no revision 'v9'");
            // A served name that cannot be a hub id is not asked for at all.
            assertThatThrownBy(() -> resolveWithHub(byModel(), "llama3:8b", env(hub)))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("not a Hugging Face model id")
                    .hasMessageContaining("--tokenizer builtin");
            assertThat(hub.requests).noneMatch(r -> r.contains("llama3"));
        }
    }

    @Test
    void aHubThatCannotBeReachedIsOneLineForANamedTokenizerAndALoudFallbackForTheModelName() throws Exception {
        final String url;
        try (FakeHub gone = new FakeHub()) {
            url = gone.url();
        }
        final Map<String, String> env = Map.of("HF_ENDPOINT", url, "HF_HOME", tmp.toString());
        assertThatThrownBy(() -> resolveWithHub(new TokenizerConfig("acme/words", "main", false), "m", env))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("cannot reach the Hugging Face hub at " + url)
                .hasMessageContaining("HF_HUB_OFFLINE=1");
        // a machine without the hub, as offline mode: the model name is counted with the builtin, said once
        final TokenizerResolver.Resolved r = resolveWithHub(byModel(), "acme/words", env);
        assertThat(r.tokenizer().source()).isEqualTo("builtin-fallback");
        assertThat(r.warning()).contains("cannot reach the Hugging Face hub at " + url).contains("o200k_base");
    }

    @Test
    void aHubThatCannotBeReachedIsAskedOncePerRun() throws Exception {
        final int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        final Map<String, String> env = Map.of("HF_ENDPOINT", "http://127.0.0.1:" + port, "HF_HOME", tmp.toString());
        assertThat(resolveWithHub(byModel(), "acme/gone", env).tokenizer().source()).isEqualTo("builtin-fallback");
        // The hub comes back on that address: the run's later cells still do not ask it (and do not wait for it).
        try (FakeHub back = new FakeHub(port).repo("acme/gone", Map.of("tokenizer.json", WORDS))) {
            assertThat(resolveWithHub(byModel(), "acme/gone", env).tokenizer().source()).isEqualTo("builtin-fallback");
            assertThat(back.requests).isEmpty();
        }
    }

    @Test
    void offlineTheHubIsNeverAskedAndOnlyTheModelNameFallsBackToTheBuiltin() throws Exception {
        try (FakeHub hub = new FakeHub().repo("acme/words", Map.of("tokenizer.json", WORDS))) {
            final TokenizerResolver.Resolved r = resolveWithHub(byModel(), "acme/words",
                    env(hub, "HF_HUB_OFFLINE", "1"));
            assertThat(r.tokenizer().source()).isEqualTo("builtin-fallback");
            assertThat(r.warning()).contains("HF_HUB_OFFLINE").contains("o200k_base");
            assertThatThrownBy(() -> resolveWithHub(new TokenizerConfig("acme/words", "main", false), "m",
                    env(hub, "HF_HUB_OFFLINE", "true"))).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("HF_HUB_OFFLINE is set");
            assertThat(hub.requests).isEmpty();
        }
    }

    @Test
    void theHubIsReachedThroughTheEngineProxy() throws Exception {
        try (FakeHub hub = new FakeHub().repo("acme/words", Map.of("tokenizer.json", WORDS));
             io.aiperf.engine.net.TestProxy proxy = new io.aiperf.engine.net.TestProxy()) {
            final NetworkConfig viaProxy = new NetworkConfig(NetworkConfig.defaults().tls(),
                    io.aiperf.engine.config.ProxyConfig.of(proxy.url(), Map.of()), false);
            final TokenizerResolver.Resolved r = TokenizerResolver.resolve(byModel(), "acme/words", env(hub),
                    new HfHub(viaProxy));
            assertThat(r.tokenizer().count("a b c")).isEqualTo(3);
            assertThat(proxy.requestLines).anyMatch(l -> l.startsWith("GET " + hub.url()
                    + "/acme/words/resolve/main/tokenizer.json "));
        }
    }
}
