package io.aiperf.engine.redact;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Replaces secrets with {@code ****} in a byte stream before it reaches a build log: the engine never prints the
 * API key, but a server may echo it in an error body. Works line by line, a carriage return also ending a line (a
 * secret never spans lines; a progress line shows at once); a line
 * longer than 64 KiB is passed on in pieces that keep enough bytes back to catch a secret across the cut.
 * One writer at a time, but closing may race it (a Jenkins abort closes the stream while the agent's output is still
 * arriving), so every call holds the stream's lock, and bytes written after the close are still masked line by line
 * ({@link #leavingOpen}).
 * The engine's console ({@code MaskedConsole}) and the Jenkins plugin's build log both mask through
 * {@link #leavingOpen}.
 */
public final class MaskingOutputStream extends OutputStream {
    private static final int MAX_PENDING = 1 << 16;
    private final byte[] mask;
    private final OutputStream out;
    private final List<byte[]> secrets;
    private final int keepBack;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private final boolean lateWriters;
    private boolean closed;

    /** @param secrets the values to hide, each shown as {@code ****}; blank ones are ignored */
    public MaskingOutputStream(final OutputStream out, final List<String> secrets) {
        this(out, secrets, "****");
    }

    /** @param mask what each secret is replaced with */
    public MaskingOutputStream(final OutputStream out, final List<String> secrets, final String mask) {
        this(out, secrets, mask, false);
    }

    private MaskingOutputStream(final OutputStream out, final List<String> secrets, final String mask,
                                final boolean lateWriters) {
        this.lateWriters = lateWriters;
        this.mask = mask.getBytes(StandardCharsets.UTF_8);
        this.out = out;
        this.secrets = secrets.stream().filter(s -> s != null && !s.isBlank())
                .map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();
        this.keepBack = this.secrets.stream().mapToInt(s -> s.length).max().orElse(1) - 1;
    }

    /**
     * Masks into a stream this one does not own (a console, a build log): closing it passes on the last line and
     * flushes {@code out}, which stays open. A writer may still be writing when it is closed (a Jenkins abort), so a
     * last line that ends with the start of a secret keeps that start pending: a late write completes and masks it,
     * and without one it is dropped rather than shown as the first piece of a secret.
     */
    public static MaskingOutputStream leavingOpen(final OutputStream out, final List<String> secrets,
                                                  final String mask) {
        return new MaskingOutputStream(new KeptOpen(out), secrets, mask, true);
    }

    /** As {@link #leavingOpen(OutputStream, List, String)}, each secret shown as {@code ****}. */
    public static MaskingOutputStream leavingOpen(final OutputStream out, final List<String> secrets) {
        return leavingOpen(out, secrets, "****");
    }

    @Override
    public synchronized void write(final int b) throws IOException {
        line.write(b);
        if (b == '\n' || b == '\r') {
            emit(line.size());
        } else if (line.size() >= MAX_PENDING) {
            emit(line.size() - keepBack);
        }
    }

    /** The same as writing byte by byte, copying runs of bytes at once up to each line end or the cut. */
    @Override
    public synchronized void write(final byte[] b, final int off, final int len) throws IOException {
        int start = off;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n' || b[i] == '\r') {
                line.write(b, start, i + 1 - start);
                start = i + 1;
                emit(line.size());
            } else if (line.size() + (i + 1 - start) >= MAX_PENDING) {
                line.write(b, start, i + 1 - start);
                start = i + 1;
                emit(line.size() - keepBack);
            }
        }
        line.write(b, start, off + len - start);
    }

    @Override
    public synchronized void flush() throws IOException {
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        emit(line.size() - (lateWriters ? secretStartAtEnd() : 0));
        out.close();
    }

    /** The length of the longest proper prefix of a secret that the pending bytes end with. */
    private int secretStartAtEnd() {
        final byte[] pending = line.toByteArray();
        int longest = 0;
        for (final byte[] s : secrets) {
            for (int n = Math.min(s.length - 1, pending.length); n > longest; n--) {
                if (java.util.Arrays.equals(pending, pending.length - n, pending.length, s, 0, n)) {
                    longest = n;
                    break;
                }
            }
        }
        return longest;
    }

    /** Masks the pending bytes and passes on the first {@code count} of them, keeping the rest pending. */
    private void emit(final int count) throws IOException {
        final byte[] pending = line.toByteArray();
        line.reset();
        final ByteArrayOutputStream masked = new ByteArrayOutputStream(pending.length);
        int i = 0;
        int passed = 0;
        while (i < count) {
            final byte[] hit = secretAt(pending, i);
            if (hit != null) {
                masked.write(mask);
                i += hit.length;
            } else {
                masked.write(pending[i++]);
            }
            passed = i;
        }
        masked.writeTo(out);
        line.write(pending, passed, pending.length - passed);
    }

    private byte[] secretAt(final byte[] data, final int at) {
        for (final byte[] s : secrets) {
            if (at + s.length <= data.length && java.util.Arrays.equals(data, at, at + s.length, s, 0, s.length)) {
                return s;
            }
        }
        return null;
    }

    /** The stream underneath, which closing the mask must only flush. */
    private static final class KeptOpen extends FilterOutputStream {
        KeptOpen(final OutputStream out) {
            super(out);
        }

        @Override
        public synchronized void write(final byte[] b, final int off, final int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }
}
