package io.aiperf.engine.redact;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a command line's usage error must not echo, found by form, and what it still shows. */
class CommandLineSecretsTest {
    @Test
    void findsEachSecretFormWhateverOptionCarriesIt() {
        assertThat(CommandLineSecrets.of("-H", "Authorization: Bearer tok-123456")).contains("Bearer tok-123456",
                "tok-123456");
        assertThat(CommandLineSecrets.of("--typo", "x-api-key: key-123456")).contains("key-123456");
        assertThat(CommandLineSecrets.of("-HCookie: session=abcdef")).contains("session=abcdef");
        assertThat(CommandLineSecrets.of("--url", "http://h:1/v1?model=m&api_key=q-123456")).contains("q-123456");
        assertThat(CommandLineSecrets.of("--server-metrics", "http://h/metrics?token=a%2Fbcdef"))
                .contains("a%2Fbcdef", "a/bcdef");
        assertThat(CommandLineSecrets.of("http://user:pw-123456@h/v1")).contains("user:pw-123456", "pw-123456");
        assertThat(CommandLineSecrets.of("--api-key=k-123456")).containsExactly("k-123456");
        assertThat(CommandLineSecrets.of("--api-key", "k-123456", "-m", "m")).containsExactly("k-123456");
        assertThat(CommandLineSecrets.of("--header", "{\"X-A\": \"b\"}")).containsExactly("{\"X-A\": \"b\"}");
    }

    @Test
    void aLongerSecretComesBeforeItsPrefixSoThatNoTailOfItIsLeftShowing() {
        assertThat(CommandLineSecrets.of("--api-key", "abcd", "--hf-token", "abcdef"))
                .containsExactly("abcdef", "abcd");
    }

    @Test
    void aMisspeltSecretOptionOrOneNamedLikeASecretStillHidesItsValue() {
        assertThat(CommandLineSecrets.of("--api-kye", "S")).containsExactly("S");
        assertThat(CommandLineSecrets.of("--apikey=k-123456")).containsExactly("k-123456");
        assertThat(CommandLineSecrets.of("--hf-token", "hf_abcdef")).containsExactly("hf_abcdef");
        assertThat(CommandLineSecrets.of("--headers", "{\"X-A\": \"b\"}")).containsExactly("{\"X-A\": \"b\"}");
    }

    @Test
    void aShortValueIsHiddenWithItsNameSoThatItsLettersElsewhereStayReadable() {
        assertThat(CommandLineSecrets.of("http://h/v1?key=ab")).containsExactly("key=ab");
        assertThat(CommandLineSecrets.of("Authorization: xy")).containsExactly("Authorization: xy");
    }

    @Test
    void leavesWhatIsNotSecretToBeShown() {
        assertThat(CommandLineSecrets.of("profile", "-m", "my-model", "--tokenizer", "gpt2", "--max-tokens", "100",
                "--api-key-env", "MY_KEY", "-H", "X-Trace: 1", "--url", "http://h:8000/v1?model=m",
                "--request-cout", "5", "--prompt", "a basic question")).isEmpty();
    }

    @Test
    void aMetricNameHoldingTokenIsNoHeader() {
        assertThat(CommandLineSecrets.of("profile", "--search-sla", "time_to_first_token:p50:lt:1000000")).isEmpty();
        assertThat(CommandLineSecrets.of("profile", "-H", "x-api-key:abcdef")).contains("abcdef");
        assertThat(CommandLineSecrets.of("profile", "--typo", "x-api-key: abcdef")).contains("abcdef");
    }
}
