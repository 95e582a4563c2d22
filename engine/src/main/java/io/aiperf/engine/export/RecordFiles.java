package io.aiperf.engine.export;

import io.aiperf.engine.time.WallClock;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The per-request files of a cell, by export level (AIPerf's {@code --export-level}): none for {@code summary},
 * {@code profile_export.jsonl} for {@code records} (the default), and also {@code profile_export_raw.jsonl} for
 * {@code raw}. Written as requests complete, committed atomically at the end. Not thread-safe.
 */
public final class RecordFiles {
    private final AtomicFiles.Pending jsonl;
    private final AtomicFiles.Pending raw;
    private final OutputStream jsonlStream;
    private final OutputStream rawStream;
    private final RecordsJsonlWriter writer;
    private final ExportNames names;
    private final OutputsJson outputs;
    private final Path dir;
    private final UnaryOperator<OutputStream> wrap;

    /**
     * @param level summary, records or raw
     * @param wrap how each file's bytes reach the disk (the run's redactor)
     */
    public RecordFiles(final Path dir, final ExportNames names, final String level, final WallClock wall,
                       final UnaryOperator<OutputStream> wrap) throws IOException {
        this(dir, names, level, wall, wrap, false);
    }

    /** @param outputsJson write {@code outputs.json} too (also written at the raw level) */
    public RecordFiles(final Path dir, final ExportNames names, final String level, final WallClock wall,
                       final UnaryOperator<OutputStream> wrap, final boolean outputsJson) throws IOException {
        this.names = names;
        this.dir = dir;
        this.wrap = wrap;
        this.jsonl = level.equals("summary") ? null : AtomicFiles.begin(dir.resolve(names.recordsJsonl()));
        this.raw = level.equals("raw") ? AtomicFiles.begin(dir.resolve(names.rawJsonl())) : null;
        this.jsonlStream = jsonl == null ? OutputStream.nullOutputStream() : wrap.apply(jsonl.stream());
        this.rawStream = raw == null ? null : wrap.apply(raw.stream());
        this.writer = new RecordsJsonlWriter(jsonlStream, rawStream, wall);
        this.outputs = outputsJson || level.equals("raw") ? new OutputsJson(wall, dir) : null;
        if (outputs != null) {
            writer.collectOutputs(outputs);
        }
    }

    public RecordsJsonlWriter writer() {
        return writer;
    }

    /**
     * Closes and commits the files; on a failure (or {@code failure} from writing) removes them.
     *
     * @return why the files were not written, or null
     */
    public String commit(final IOException failure) {
        try {
            writer.close();
            jsonlStream.close();
            if (rawStream != null) {
                rawStream.close();
            }
            if (failure != null) {
                throw failure;
            }
            if (jsonl != null) {
                jsonl.commit();
            }
            if (raw != null) {
                raw.commit();
            }
            if (outputs != null) {
                final AtomicFiles.Pending file = AtomicFiles.begin(dir.resolve(OutputsJson.FILE));
                try (OutputStream o = wrap.apply(file.stream())) {
                    outputs.writeTo(o);
                }
                file.commit();
                outputs.close();
            }
            return null;
        } catch (IOException | java.io.UncheckedIOException e) {
            abort();
            return "cannot write " + names.recordsJsonl() + ": " + e.getMessage();
        }
    }

    public void abort() {
        if (outputs != null) {
            try {
                outputs.close();
            } catch (IOException e) {
                // the spool is a temporary file; a leftover one is harmless and names itself as such
            }
        }
        if (jsonl != null) {
            jsonl.abort();
        }
        if (raw != null) {
            raw.abort();
        }
    }
}
