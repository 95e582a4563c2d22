package io.aiperf.engine.config;

/**
 * Waiting for the server before the benchmark (upstream's {@code --wait-for-model-timeout/-interval/-mode},
 * src-docs/cli.md, waiting for the server).
 *
 * @param timeoutSeconds how long to wait at most; 0 for no waiting
 * @param intervalSeconds the pause between two attempts
 * @param mode {@code inference} (a one-token request to the endpoint answers 2xx) or {@code models}
 *             ({@code GET /v1/models} answers 2xx and lists the model)
 */
public record WaitForModel(double timeoutSeconds, double intervalSeconds, String mode) {
    public static final WaitForModel OFF = new WaitForModel(0, 5.0, "inference");

    public boolean enabled() {
        return timeoutSeconds > 0;
    }
}
