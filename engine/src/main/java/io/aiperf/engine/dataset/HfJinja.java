package io.aiperf.engine.dataset;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;
import com.hubspot.jinjava.interpret.InterpretException;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.lib.filter.Filter;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import com.hubspot.jinjava.lib.tag.ForTag;
import com.hubspot.jinjava.tree.Node;
import com.hubspot.jinjava.tree.TagNode;
import com.hubspot.jinjava.tree.output.OutputNode;
import com.hubspot.jinjava.tree.output.RenderedOutputNode;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedList;
import java.util.Locale;
import java.util.Map;
import jinjava.javax.el.CompositeELResolver;

/**
 * A Jinja engine set up as Hugging Face transformers renders chat templates: {@code trim_blocks} and
 * {@code lstrip_blocks}, the {@code raise_exception} and {@code strftime_now} functions, {@code tojson} as Python's
 * {@code json.dumps} writes, the loop controls {@code break} and {@code continue}, {@code x[::-1]}, {@code {{- -}}},
 * and the Python string methods templates call ({@link PyStrings}). Built on Jinjava, whose expression language
 * is close to Jinja's. Thread-safe.
 */
final class HfJinja {
    private static final Jinjava JINJAVA = create();
    // Jinja's whitespace control on expressions and comments, which Jinjava keeps only on statements
    private static final java.util.regex.Pattern STRIP_BEFORE = java.util.regex.Pattern.compile("\\s*\\{([{#])-");
    private static final java.util.regex.Pattern STRIP_AFTER = java.util.regex.Pattern.compile("-([}#])}\\s*");
    // lstrip_blocks as Jinja means it: only the spaces that begin a line before a block tag or a comment (Jinjava's
    // own also strips spaces after an expression on the same line)
    private static final java.util.regex.Pattern LINE_START_BEFORE_BLOCK = java.util.regex.Pattern.compile(
            "(?m)^[ \\t]+(?=\\{[%#](?!\\+))");
    // Python's reversed slice of a name (messages[::-1]), which Jinjava's slices lack: its reverse filter instead
    private static final java.util.regex.Pattern REVERSED = java.util.regex.Pattern.compile(
            "\\b([A-Za-z_][\\w.]*)\\[\\s*:\\s*:\\s*-1\\s*]");

    private HfJinja() {
    }

    /** @throws ChatTemplate.RenderException with the first fatal error the template met, in one line */
    static String render(final String template, final Map<String, Object> variables) {
        final RenderResult result;
        try {
            result = JINJAVA.renderForResult(REVERSED.matcher(asJinjava(template))
                    .replaceAll("($1|reverse|list)"), variables);
        } catch (RuntimeException e) {
            throw new ChatTemplate.RenderException(oneLine(e.getMessage()));
        }
        for (final TemplateError error : result.getErrors()) {
            if (error.getSeverity() == TemplateError.ErrorType.FATAL) {
                throw new ChatTemplate.RenderException(describe(error));
            }
        }
        return result.getOutput();
    }

    /**
     * {@code lstrip_blocks} and {@code {{- x -}}} as Jinja means them: the spaces that begin a line before a block
     * tag, and the whitespace around a trimming marker, are dropped; the markers become plain ones.
     */
    static String asJinjava(final String template) {
        // trim_blocks after a comment too, as Jinja's; Jinjava trims only after statements
        final String lstripped = LINE_START_BEFORE_BLOCK.matcher(template).replaceAll("").replaceAll("#}\\r?\\n",
                "#}");
        return STRIP_AFTER.matcher(STRIP_BEFORE.matcher(lstripped).replaceAll("{$1"))
                .replaceAll(m -> m.group(1).equals("}") ? "}}" : "#}");
    }

    /** The template's own message when it raised one, else Jinjava's, with the line it points at. */
    private static String describe(final TemplateError error) {
        for (Throwable t = error.getException(); t != null; t = t.getCause()) {
            if (t instanceof Raised) {
                return "the template raised: " + oneLine(t.getMessage());
            }
        }
        return oneLine(error.getMessage()) + (error.getLineno() > 0 ? " (template line " + error.getLineno() + ")"
                : "");
    }

    private static String oneLine(final String s) {
        return s == null ? "unknown error" : s.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    private static Jinjava create() {
        final CompositeELResolver resolver = new CompositeELResolver();
        resolver.add(new PyStrings());
        resolver.add(JinjavaInterpreterResolver.DEFAULT_RESOLVER_READ_ONLY);
        final Jinjava jinjava = new Jinjava(JinjavaConfig.newBuilder().withTrimBlocks(true).withLstripBlocks(false)
                .withFailOnUnknownTokens(false).withElResolver(resolver).withLocale(Locale.ROOT).build());
        final var context = jinjava.getGlobalContext();
        context.registerFunction(new ELFunctionDefinition("", "raise_exception", HfJinja.class, "raiseException",
                String.class));
        context.registerFunction(new ELFunctionDefinition("", "strftime_now", HfJinja.class, "strftimeNow",
                String.class));
        context.registerFilter(new ToJson());
        context.registerTag(new LoopingForTag());
        context.registerTag(new LoopControl.Tag("break"));
        context.registerTag(new LoopControl.Tag("continue"));
        return jinjava;
    }

    /** What a template's {@code raise_exception(message)} throws. */
    private static final class Raised extends RuntimeException {
        Raised(final String message) {
            super(message);
        }
    }

    /** The template's {@code raise_exception}: the render stops with this message. */
    public static String raiseException(final String message) {
        throw new Raised(message);
    }

    /** The template's {@code strftime_now}: the local time in a C strftime format (the common directives). */
    public static String strftimeNow(final String format) {
        final ZonedDateTime now = ZonedDateTime.now();
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            final char c = format.charAt(i);
            if (c != '%' || i + 1 == format.length()) {
                out.append(c);
                continue;
            }
            final char d = format.charAt(++i);
            final String pattern = switch (d) {
                case 'd' -> "dd";
                case 'b' -> "MMM";
                case 'B' -> "MMMM";
                case 'm' -> "MM";
                case 'Y' -> "yyyy";
                case 'y' -> "yy";
                case 'H' -> "HH";
                case 'M' -> "mm";
                case 'S' -> "ss";
                case 'A' -> "EEEE";
                case 'a' -> "EEE";
                default -> null;
            };
            if (pattern == null) {
                out.append(d == '%' ? "%" : "%" + d);
            } else {
                out.append(DateTimeFormatter.ofPattern(pattern, Locale.ENGLISH).format(now));
            }
        }
        return out.toString();
    }

    /** {@code tojson} as transformers defines it: Python's json.dumps, non-ASCII kept, {@code indent} honoured. */
    private static final class ToJson implements Filter {
        @Override
        public String getName() {
            return "tojson";
        }

        @Override
        public Object filter(final Object var, final JinjavaInterpreter interpreter, final String... args) {
            return PyJson.dumps(var, args.length > 0 ? Integer.valueOf(args[0]) : null);
        }

        @Override
        public Object filter(final Object var, final JinjavaInterpreter interpreter, final Object[] args,
                             final Map<String, Object> kwargs) {
            final Object indent = kwargs.containsKey("indent") ? kwargs.get("indent")
                    : args.length > 0 ? args[0] : null;
            return PyJson.dumps(var, indent == null ? null : ((Number) indent).intValue());
        }
    }

    /**
     * Jinja's {@code for}, with {@code break} and {@code continue}: the body is wrapped in a node that stops at a loop
     * control; after a {@code break} the remaining iterations render nothing.
     */
    private static final class LoopingForTag extends ForTag {
        @Override
        public String interpret(final TagNode tagNode, final JinjavaInterpreter interpreter) {
            final LinkedList<Node> children = tagNode.getChildren();
            final LoopBody body;
            if (children.size() == 1 && children.getFirst() instanceof LoopBody wrapped) {
                body = wrapped;
            } else {
                body = new LoopBody(tagNode, new LinkedList<>(children));
                final LinkedList<Node> one = new LinkedList<>();
                one.add(body);
                tagNode.setChildren(one);
            }
            final boolean[] outer = body.broken.get();
            body.broken.set(new boolean[1]);
            try {
                return super.interpret(tagNode, interpreter);
            } finally {
                if (outer == null) {
                    body.broken.remove();
                } else {
                    body.broken.set(outer); // the same loop, rendered again inside itself (a recursive macro)
                }
            }
        }
    }

    /** The children of one {@code for}: rendered in order until a loop control. */
    private static final class LoopBody extends Node {
        private static final long serialVersionUID = 1L;
        private final LinkedList<Node> nodes;
        final transient ThreadLocal<boolean[]> broken = new ThreadLocal<>();

        LoopBody(final TagNode loop, final LinkedList<Node> nodes) {
            super(loop.getMaster(), loop.getLineNumber(), loop.getStartPosition());
            this.nodes = nodes;
            nodes.forEach(n -> n.setParent(this));
            setParent(loop);
        }

        @Override
        public OutputNode render(final JinjavaInterpreter interpreter) {
            final boolean[] state = broken.get();
            if (state != null && state[0]) {
                return new RenderedOutputNode("");
            }
            final StringBuilder out = new StringBuilder();
            try {
                for (final Node n : nodes) {
                    out.append(n.render(interpreter).getValue());
                }
            } catch (LoopControl c) {
                // what the control's own block rendered before it is lost: templates put nothing there
                if (c.isBreak && state != null) {
                    state[0] = true;
                }
            }
            return new RenderedOutputNode(out.toString());
        }

        @Override
        public String getName() {
            return "for-body";
        }
    }

    /** {@code break} or {@code continue}, thrown up to the nearest loop body (TagNode passes these on as they are). */
    private static final class LoopControl extends InterpretException {
        private static final long serialVersionUID = 1L;
        final boolean isBreak;

        LoopControl(final boolean isBreak, final int line) {
            super(isBreak ? "'break' outside a loop" : "'continue' outside a loop", line);
            this.isBreak = isBreak;
        }

        private static final class Tag implements com.hubspot.jinjava.lib.tag.Tag {
            private static final long serialVersionUID = 1L;
            private final String name;

            Tag(final String name) {
                this.name = name;
            }

            @Override
            public String getName() {
                return name;
            }

            @Override
            public String getEndTagName() {
                return null; // no body
            }

            @Override
            public String interpret(final TagNode tagNode, final JinjavaInterpreter interpreter) {
                throw new LoopControl(name.equals("break"), tagNode.getLineNumber());
            }
        }
    }
}
