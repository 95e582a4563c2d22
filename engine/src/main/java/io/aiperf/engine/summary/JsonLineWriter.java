package io.aiperf.engine.summary;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.NumberOutput;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes JSON lines as UTF-8 bytes into its own buffer, and whole lines from it to a stream once the buffer holds
 * {@value #FLUSH_AT} bytes. Names are encoded once ({@link #key}); numbers go to ASCII digits in place; strings are
 * escaped as Jackson's generator escapes them with its defaults ({@code \"}, {@code \\}, {@code \b\t\n\f\r}, other
 * control characters and every UTF-16 surrogate as {@code \}{@code uXXXX} in upper-case hex, the rest as UTF-8), and
 * doubles take Jackson's shortest form, so a line is byte for byte what the generator wrote before this class
 * replaced it on the records path, where the generator's conversion of characters to bytes was half of a line's time.
 * Commas come from the nesting it tracks. Not thread-safe.
 */
public final class JsonLineWriter implements AutoCloseable {
    /** Where the buffer goes to the stream: a few dozen lines per write. */
    static final int FLUSH_AT = 1 << 16;
    private static final int INITIAL = FLUSH_AT + (FLUSH_AT >> 2);
    /** Trees (rare on a line: an upstream line's unknown fields, its trace) go through Jackson, doubles shortest. */
    private static final ObjectMapper TREES = new ObjectMapper(JsonFactory.builder()
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build());
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    /** Per ASCII character: 0 as is, a letter for its two-character escape, 1 for {@code \}{@code u00XX}. */
    private static final byte[] ESCAPES = escapes();

    private final OutputStream out;
    /** A string's characters, copied out in one call: reading them one by one from the String checked each. */
    private char[] chars = new char[64];
    private byte[] buf;
    private int pos;
    /** Per open object or array (bit per level): whether it has a member yet, so the next one needs a comma. */
    private long filled;
    private int depth;
    /** Where the line being written began: the buffer holds whole lines before it. */
    private int lineStart;

    public JsonLineWriter(final OutputStream out) {
        this(out, INITIAL);
    }

    private JsonLineWriter(final OutputStream out, final int capacity) {
        this.out = out;
        this.buf = new byte[capacity];
    }

    /** {@code "name":} encoded once, for {@link #name(byte[])}. */
    public static byte[] key(final String name) {
        return encode(name, true);
    }

    /** A string value (quoted and escaped) encoded once, for {@link #rawValue}. */
    public static byte[] encoded(final String value) {
        return encode(value, false);
    }

    private static byte[] encode(final String text, final boolean name) {
        // room for the plain text, quotes and colon; escapes grow it
        final JsonLineWriter w = new JsonLineWriter(OutputStream.nullOutputStream(), text.length() + 3);
        w.string(text);
        if (name) {
            w.put((byte) ':');
        }
        return Arrays.copyOf(w.buf, w.pos);
    }

    public void startObject() {
        beforeValue();
        put((byte) '{');
        open();
    }

    public void endObject() {
        depth--;
        put((byte) '}');
    }

    public void startArray() {
        beforeValue();
        put((byte) '[');
        open();
    }

    public void endArray() {
        depth--;
        put((byte) ']');
    }

    /** A member's name, from {@link #key}; its value comes next. */
    public void name(final byte[] key) {
        comma();
        append(key, key.length);
        filled &= ~(1L << depth); // the value that follows takes no comma
    }

    public void name(final String name) {
        comma();
        string(name);
        put((byte) ':');
        filled &= ~(1L << depth);
    }

    public void value(final long v) {
        if (v == Long.MIN_VALUE) {
            ascii(Long.toString(v)); // the one value without a positive counterpart
            return;
        }
        beforeValue();
        ensure(20);
        pos = AsciiDigits.digits(v, buf, pos);
    }

    public void value(final boolean v) {
        rawValue(v ? TRUE : FALSE);
    }

    /** A double as Jackson writes it: its shortest form, or a non-finite one quoted. */
    public void value(final double v) {
        if (Double.isFinite(v)) {
            ascii(NumberOutput.toString(v, true));
        } else {
            value(String.valueOf(v));
        }
    }

    /** A number of any kind, as the generator writes it; null as {@code null}. */
    public void value(final Number n) {
        if (n == null) {
            nullValue();
        } else if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte) {
            value(n.longValue());
        } else if (n instanceof Double || n instanceof Float) {
            value(n.doubleValue());
        } else {
            ascii(n.toString()); // BigInteger, BigDecimal (not plain, as Jackson's default) or another kind's text
        }
    }

    /** {@code nanos / 1e6}: the exact decimal of a whole number of nanoseconds, else the double's shortest form. */
    public void millis(final double nanos) {
        if (!(nanos >= 0 && nanos < 1e15 && nanos == Math.rint(nanos))) {
            value(nanos / 1e6);
            return;
        }
        beforeValue();
        ensure(24);
        pos = AsciiDigits.millis((long) nanos, buf, pos);
    }

    /** {@code bytes / 1024}: the exact decimal of a whole number of bytes up to 64 MiB, else the double's shortest form. */
    public void kibibytes(final double bytes) {
        if (!(bytes >= 0 && bytes < (1 << 26) && bytes == Math.rint(bytes))) {
            value(bytes / 1024);
            return;
        }
        beforeValue();
        ensure(24);
        pos = AsciiDigits.kibibytes((long) bytes, buf, pos);
    }

    public void value(final String s) {
        if (s == null) {
            nullValue();
            return;
        }
        beforeValue();
        string(s);
    }

    public void nullValue() {
        rawValue(NULL);
    }

    /** A value already encoded ({@link #encoded}). */
    public void rawValue(final byte[] encoded) {
        beforeValue();
        append(encoded, encoded.length);
    }

    /** A tree, compact, through Jackson. */
    public void tree(final JsonNode node) throws IOException {
        rawValue(TREES.writeValueAsBytes(node));
    }

    /** Ends the line; the buffer goes to the stream when it holds {@value #FLUSH_AT} bytes. */
    public void endLine() throws IOException {
        put((byte) '\n');
        lineStart = pos;
        if (pos >= FLUSH_AT) {
            flush();
        }
    }

    /**
     * Drops what was written since the last line ended, so a line cut short by an exception never reaches the
     * stream and the next line starts clean.
     */
    public void discardLine() {
        pos = lineStart;
        depth = 0;
        filled = 0;
    }

    /** Writes out the lines written (a line not ended is dropped); the stream stays open and is not flushed. */
    @Override
    public void close() throws IOException {
        flush();
    }

    /**
     * The lines the buffer holds to the stream, a line not ended dropped. They leave the buffer before the write,
     * so after a failed write they are not written again.
     */
    private void flush() throws IOException {
        final int n = lineStart;
        discardLine();
        pos = 0;
        lineStart = 0;
        if (n > 0) {
            out.write(buf, 0, n);
        }
        if (buf.length > 4 * INITIAL) {
            buf = new byte[INITIAL]; // a long line (a raw export's large answer) does not keep its room
        }
        if (chars.length > INITIAL) {
            chars = new char[64];
        }
    }

    private void open() {
        depth++;
        if (depth >= Long.SIZE) {
            throw new IllegalStateException("a line nests deeper than " + (Long.SIZE - 1) + " levels");
        }
        filled &= ~(1L << depth);
    }

    private void beforeValue() {
        if (depth > 0) {
            comma();
        }
    }

    private void comma() {
        final long bit = 1L << depth;
        if ((filled & bit) != 0) {
            put((byte) ',');
        } else {
            filled |= bit;
        }
    }

    /** Quoted and escaped as Jackson escapes: the plain ASCII run copied in one loop, the rest per character. */
    private void string(final String s) {
        final int n = s.length();
        if (n > chars.length) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
        final char[] c = chars;
        s.getChars(0, n, c, 0);
        ensure(n + 2);
        final byte[] b = buf;
        int p = pos;
        b[p++] = '"';
        int i = 0;
        for (; i < n; i++) {
            final char ch = c[i];
            if (ch >= 0x80 || ESCAPES[ch] != 0) {
                break;
            }
            b[p++] = (byte) ch;
        }
        pos = p;
        if (i < n) {
            escaped(c, i, n);
        }
        put((byte) '"');
    }

    private void escaped(final char[] s, final int from, final int n) {
        ensure(6 * (n - from));
        final byte[] b = buf;
        int p = pos;
        for (int i = from; i < n; i++) {
            final char c = s[i];
            if (c < 0x80) {
                final byte e = ESCAPES[c];
                if (e == 0) {
                    b[p++] = (byte) c;
                } else if (e == 1) {
                    p = unicodeEscape(c, b, p);
                } else {
                    b[p++] = '\\';
                    b[p++] = e;
                }
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                p = unicodeEscape(c, b, p); // Jackson does not join pairs into four UTF-8 bytes by default
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        pos = p;
    }

    private static int unicodeEscape(final char c, final byte[] b, int p) {
        b[p++] = '\\';
        b[p++] = 'u';
        b[p++] = HEX[(c >> 12) & 0xF];
        b[p++] = HEX[(c >> 8) & 0xF];
        b[p++] = HEX[(c >> 4) & 0xF];
        b[p++] = HEX[c & 0xF];
        return p;
    }

    /** An unquoted ASCII value: a number's text. */
    private void ascii(final String text) {
        beforeValue();
        final int n = text.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[pos++] = (byte) text.charAt(i);
        }
    }

    private void put(final byte c) {
        ensure(1);
        buf[pos++] = c;
    }

    private void append(final byte[] bytes, final int n) {
        ensure(n);
        System.arraycopy(bytes, 0, buf, pos, n);
        pos += n;
    }

    private void ensure(final int more) {
        if (pos + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + more));
        }
    }

    private static byte[] escapes() {
        final byte[] e = new byte[128];
        for (int c = 0; c < 0x20; c++) {
            e[c] = 1;
        }
        e['\b'] = 'b';
        e['\t'] = 't';
        e['\n'] = 'n';
        e['\f'] = 'f';
        e['\r'] = 'r';
        e['"'] = '"';
        e['\\'] = '\\';
        return e;
    }
}
