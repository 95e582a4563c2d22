package io.aiperf.engine.cli;

import io.aiperf.engine.config.Durations;
import picocli.CommandLine;

/** A duration flag's value: seconds, or with a unit as the YAML takes it (250ms, 10s, 5m, 1h). */
final class DurationConverter implements CommandLine.ITypeConverter<Double> {
    @Override
    public Double convert(final String value) {
        try {
            return Durations.seconds(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
