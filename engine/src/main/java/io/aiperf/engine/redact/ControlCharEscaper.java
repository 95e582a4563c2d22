package io.aiperf.engine.redact;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Shows control characters as visible escapes ({@code \x1B}, {@code \u009B}) so text from a server cannot drive
 * the terminal; newline, carriage return and tab pass (the progress line uses carriage returns). Works on UTF-8
 * bytes: C0 controls, DEL, and the C1 controls U+0080 to U+009F (encoded C2 80 to C2 9F). Not thread-safe.
 */
final class ControlCharEscaper extends FilterOutputStream {
    private boolean pendingC2;

    ControlCharEscaper(final OutputStream out) {
        super(out);
    }

    @Override
    public void write(final int b) throws IOException {
        final int v = b & 0xFF;
        if (pendingC2) {
            pendingC2 = false;
            if (v >= 0x80 && v <= 0x9F) {
                escape(String.format(Locale.ROOT, "\\u%04X", v));
                return;
            }
            out.write(0xC2);
        }
        if (v == 0xC2) {
            pendingC2 = true;
        } else if ((v < 0x20 && v != '\n' && v != '\r' && v != '\t') || v == 0x7F) {
            escape(String.format(Locale.ROOT, "\\x%02X", v));
        } else {
            out.write(v);
        }
    }

    @Override
    public void write(final byte[] b, final int off, final int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            write(b[i]);
        }
    }

    @Override
    public void flush() throws IOException {
        if (pendingC2) {
            pendingC2 = false;
            out.write(0xC2);
        }
        out.flush();
    }

    private void escape(final String visible) throws IOException {
        out.write(visible.getBytes(StandardCharsets.US_ASCII));
    }
}
