package io.aiperf.engine.validity;

/**
 * One validity check of one run.
 *
 * @param name the check's name (a key of the rules file's {@code validity} section)
 * @param figure what was measured, in {@code unit}
 * @param warnAt the threshold from which the check warns
 * @param invalidAt the threshold from which the run is invalid (NaN: this check never invalidates by default)
 * @param message what the figure means, in a sentence
 * @param fix what to change when it is not ok
 */
public record Check(String name, double figure, String unit, double warnAt, double invalidAt, Result result,
                    String message, String fix) {
}
