package io.aiperf.engine.log;

import io.aiperf.engine.summary.ExportFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The run's log (src-docs/cli.md, logging): messages at AIPerf's levels go to the console from the chosen level up
 * ({@code --log-level}, {@code -v} for DEBUG, {@code -vv} for TRACE; INFO by default), and, while a cell runs, to
 * its {@code logs/aiperf.log} with a timestamp, from DEBUG up (TRACE when asked for). Console lines keep the
 * engine's usual {@code warning:} and {@code error:} prefixes. The file passes the run's redactor like every other
 * file of a cell. Thread-safe.
 */
public final class RunLog {
    /** AIPerf's log levels, least severe first. */
    public enum Level {
        TRACE, DEBUG, INFO, NOTICE, WARNING, SUCCESS, ERROR, CRITICAL;

        /** Parses a level name, any case; null when it is none. */
        public static Level parse(final String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
    }

    private final PrintStream console;
    private final Level consoleLevel;
    private PrintStream file; // guarded by this
    private final Set<String> saidOnConsole = ConcurrentHashMap.newKeySet();

    public RunLog(final PrintStream console, final Level consoleLevel) {
        this.console = console;
        this.consoleLevel = consoleLevel;
    }

    /** A log that prints warnings and errors as the engine always has, with no file. */
    public static RunLog console(final PrintStream console) {
        return new RunLog(console, Level.INFO);
    }

    public Level consoleLevel() {
        return consoleLevel;
    }

    public boolean enabled(final Level level) {
        return level.compareTo(consoleLevel) >= 0 || level.compareTo(fileLevel()) >= 0 && hasFile();
    }

    private synchronized boolean hasFile() {
        return file != null;
    }

    private Level fileLevel() {
        return consoleLevel == Level.TRACE ? Level.TRACE : Level.DEBUG;
    }

    /**
     * Starts the cell's {@code logs/aiperf.log} (appending, so a re-run of some cells keeps the earlier lines). A
     * symbolic link planted at {@code logs} or at the file is removed, never written through; control characters
     * in messages are written as visible escapes.
     *
     * @param wrap how the file's bytes reach the disk (the run's redactor)
     */
    public synchronized void openFile(final Path cellDir, final UnaryOperator<OutputStream> wrap) throws IOException {
        closeFile();
        final Path logs = cellDir.resolve(ExportFiles.LOG_FOLDER);
        if (Files.isSymbolicLink(logs)) {
            Files.delete(logs); // a planted link: the log is written here, never through it
        }
        Files.createDirectories(logs);
        final Path log = logs.resolve(ExportFiles.LOG_FILE);
        io.aiperf.engine.export.RunDirectory.wrote(log);
        if (Files.isSymbolicLink(log)) {
            Files.delete(log);
        }
        file = new PrintStream(wrap.apply(io.aiperf.engine.redact.Redactor.escapingControls(Files.newOutputStream(log,
                java.nio.file.LinkOption.NOFOLLOW_LINKS, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND))), true, StandardCharsets.UTF_8);
    }

    public synchronized void closeFile() {
        if (file != null) {
            file.close();
            file = null;
        }
    }

    public void log(final Level level, final String message) {
        toConsole(level, message);
        toFile(level, message);
    }

    private void toConsole(final Level level, final String message) {
        if (level.compareTo(consoleLevel) >= 0) {
            console.println(prefix(level) + message);
        }
    }

    private synchronized void toFile(final Level level, final String message) {
        if (file != null && level.compareTo(fileLevel()) >= 0) {
            file.println(Instant.now() + " " + level + " " + message);
        }
    }

    public void trace(final String message) {
        log(Level.TRACE, message);
    }

    public void debug(final String message) {
        log(Level.DEBUG, message);
    }

    public void info(final String message) {
        log(Level.INFO, message);
    }

    public void warning(final String message) {
        log(Level.WARNING, message);
    }

    /**
     * A warning whose console line stays short: the console gets {@code brief}, pointing to the log, and the log
     * file gets {@code details} (without a log file, the console gets the details).
     */
    public void warning(final String brief, final String details) {
        if (!hasFile()) {
            warning(details);
            return;
        }
        toConsole(Level.WARNING, brief + " (details in logs/aiperf.log)");
        toFile(Level.WARNING, details);
    }

    /**
     * A warning every cell's log file gets but the console only the first time in the run: a hint that holds for
     * every cell of a sweep alike is said once, not once a cell.
     */
    public void warningOnce(final String message) {
        if (saidOnConsole.add(message)) {
            toConsole(Level.WARNING, message);
        }
        toFile(Level.WARNING, message);
    }

    public void error(final String message) {
        log(Level.ERROR, message);
    }

    private static String prefix(final Level level) {
        return switch (level) {
            case WARNING -> "warning: ";
            case ERROR, CRITICAL -> "error: ";
            case NOTICE -> "note: ";
            case TRACE, DEBUG -> level.name().toLowerCase(Locale.ROOT) + ": ";
            default -> "";
        };
    }
}
