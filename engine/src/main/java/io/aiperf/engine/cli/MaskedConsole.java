package io.aiperf.engine.cli;

import io.aiperf.engine.config.Secret;
import io.aiperf.engine.redact.CommandLineSecrets;
import io.aiperf.engine.redact.MaskingOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * While one command runs, System.out and System.err hide the secrets its command line carries
 * ({@link CommandLineSecrets}). This is the one place usage errors are redacted: whoever prints one (picocli's
 * parameter exception handler, a did-you-mean, a command's own "invalid configuration" line, on any subcommand)
 * prints through these streams, so no message has to remember to redact. A command line without a secret leaves
 * the streams as they are.
 */
final class MaskedConsole implements AutoCloseable {
    private final PrintStream originalOut;
    private final PrintStream originalErr;
    private final PrintStream maskedOut;
    private final PrintStream maskedErr;

    private MaskedConsole(final List<String> secrets) {
        originalOut = System.out;
        originalErr = System.err;
        maskedOut = secrets.isEmpty() ? null : masking(originalOut, secrets);
        maskedErr = secrets.isEmpty() ? null : masking(originalErr, secrets);
    }

    /** Masks the console until {@link #close()}, if the arguments carry a secret. */
    static MaskedConsole install(final String... args) {
        final MaskedConsole console = new MaskedConsole(CommandLineSecrets.of(args));
        if (console.maskedOut != null) {
            System.setOut(console.maskedOut);
            System.setErr(console.maskedErr);
        }
        return console;
    }

    /** Puts the original streams back, after passing on a last line that had no line end yet. */
    @Override
    public void close() {
        if (maskedOut != null) {
            System.setOut(originalOut);
            System.setErr(originalErr);
            maskedOut.close();
            maskedErr.close();
        }
    }

    private static PrintStream masking(final PrintStream terminal, final List<String> secrets) {
        // the terminal outlives the command: closing the mask only flushes it
        return new PrintStream(MaskingOutputStream.leavingOpen(terminal, secrets, Secret.REDACTED), true,
                StandardCharsets.UTF_8);
    }
}
