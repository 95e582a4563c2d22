package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.tracestats.TraceAnalysis;
import io.aiperf.engine.export.AtomicFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code aiperf analyze-trace}: upstream's statistics of a mooncake trace, printed and optionally saved as JSON. */
@Command(name = "analyze-trace", mixinStandardHelpOptions = true,
        description = "Analyze a mooncake trace file for ISL/OSL distributions and cache hit rates, as upstream's "
                + "analyze-trace does.",
        footerHeading = "%nExamples:%n", footer = {"  aiperf analyze-trace --input-file trace.jsonl",
                "  aiperf analyze-trace trace.jsonl --block-size 16 --output-file analysis.json"})
public final class AnalyzeTraceCommand implements Callable<Integer> {
    @Option(names = "--input-file", paramLabel = "TRACE", description = "The mooncake trace (JSONL: input_length, "
            + "output_length, hash_ids per line).")
    Path inputFile;

    @Parameters(arity = "0..1", paramLabel = "TRACE_FILE", description = "The trace, as an argument; the same as "
            + "--input-file.")
    Path positional;

    @Option(names = "--block-size", paramLabel = "TOKENS", defaultValue = "512",
            description = "Tokens per KV-cache block (one hash id). Default: ${DEFAULT-VALUE}.")
    int blockSize;

    @Option(names = "--output-file", paramLabel = "JSON", description = "Also write the report as JSON here.")
    Path outputFile;

    @Override
    public Integer call() {
        if ((inputFile == null) == (positional == null)) {
            System.err.println("error: analyze-trace: " + (inputFile == null ? "give the trace with --input-file"
                    : "give the trace once: as the argument or with --input-file, not both"));
            return ExitCode.USAGE;
        }
        final TraceAnalysis analysis;
        try {
            analysis = TraceAnalysis.of(inputFile != null ? inputFile : positional, blockSize);
        } catch (ConfigException e) {
            System.err.println("error: analyze-trace: " + e.getMessage());
            return ExitCode.USAGE;
        }
        System.out.print(analysis.render());
        if (outputFile != null) {
            try {
                AtomicFiles.write(outputFile, new ObjectMapper().writerWithDefaultPrettyPrinter()
                        .writeValueAsString(analysis.toJson()).getBytes(StandardCharsets.UTF_8));
            } catch (com.fasterxml.jackson.core.JsonProcessingException | java.io.UncheckedIOException e) {
                System.err.println("error: analyze-trace: cannot write " + outputFile + ": " + e.getMessage());
                return ExitCode.FAILED;
            }
            System.out.println("Analysis report saved to " + outputFile);
        }
        return ExitCode.OK;
    }
}
