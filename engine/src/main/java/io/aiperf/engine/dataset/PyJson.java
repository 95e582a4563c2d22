package io.aiperf.engine.dataset;

import java.util.Map;

/**
 * JSON as Python's {@code json.dumps(x, ensure_ascii=False)} writes it, which chat templates' {@code tojson} uses: the
 * separators {@code ", "} and {@code ": "} on one line, or with {@code indent} one item a line and {@code ","} at the
 * line ends. The token counts of tool schemas a template renders depend on these spaces. Stateless.
 */
final class PyJson {
    private PyJson() {
    }

    /** @param indent spaces per level, or null for one line */
    static String dumps(final Object value, final Integer indent) {
        final StringBuilder out = new StringBuilder();
        write(out, value, indent, 0);
        return out.toString();
    }

    private static void write(final StringBuilder out, final Object v, final Integer indent, final int depth) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof Boolean b) {
            out.append(b ? "true" : "false");
        } else if (v instanceof Double || v instanceof Float) {
            final double d = ((Number) v).doubleValue();
            out.append(Double.isNaN(d) ? "NaN" : Double.isInfinite(d) ? (d > 0 ? "Infinity" : "-Infinity")
                    : String.valueOf(d));
        } else if (v instanceof Number n) {
            out.append(n);
        } else if (v instanceof Map<?, ?> m) {
            container(out, '{', '}', m.entrySet(), indent, depth, (e, o) -> {
                string(o, String.valueOf(e.getKey()));
                o.append(": ");
                write(o, e.getValue(), indent, depth + 1);
            });
        } else if (v instanceof Iterable<?> list) {
            container(out, '[', ']', list, indent, depth, (e, o) -> write(o, e, indent, depth + 1));
        } else if (v instanceof Object[] array) {
            container(out, '[', ']', java.util.Arrays.asList(array), indent, depth,
                    (e, o) -> write(o, e, indent, depth + 1));
        } else {
            string(out, String.valueOf(v));
        }
    }

    private static <T> void container(final StringBuilder out, final char open, final char close,
                                      final Iterable<T> items, final Integer indent, final int depth,
                                      final java.util.function.BiConsumer<T, StringBuilder> item) {
        out.append(open);
        boolean first = true;
        for (final T e : items) {
            if (!first) {
                out.append(indent == null ? ", " : ",");
            }
            if (indent != null) {
                out.append('\n').append(" ".repeat(indent * (depth + 1)));
            }
            item.accept(e, out);
            first = false;
        }
        if (!first && indent != null) {
            out.append('\n').append(" ".repeat(indent * depth));
        }
        out.append(close);
    }

    private static void string(final StringBuilder out, final String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
