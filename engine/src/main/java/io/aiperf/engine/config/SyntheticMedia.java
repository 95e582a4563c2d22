package io.aiperf.engine.config;

import java.util.List;

/**
 * Synthetic images and audio sent with each synthetic prompt (upstream AIPerf's image and audio input options,
 * src-docs/datasets.md "Synthetic images and audio"). Either part is off when its size is zero.
 *
 * @param images the images of each turn, or null for none
 * @param audio the audio clips of each turn, or null for none
 */
public record SyntheticMedia(Images images, Audio audio) {
    public static final SyntheticMedia NONE = new SyntheticMedia(null, null);

    /**
     * @param widthMean pixels, Normal(mean, stddev), at least 1
     * @param batchSize images per turn
     * @param format png, jpeg or random (either, per image)
     * @param source noise (random pixels, made per image), or a directory whose images are scaled to the size
     * @param sampling how a directory's images are drawn: random-with-replacement, shuffle-cycle, sequential-cycle
     */
    public record Images(double widthMean, double widthStddev, double heightMean, double heightStddev, int batchSize,
                         String format, String source, String sampling) {
        public boolean fromNoise() {
            return source.equals("noise");
        }
    }

    /**
     * @param lengthMean seconds, Normal(mean, stddev), above 0
     * @param batchSize clips per turn
     * @param format wav (the only one encoded here)
     * @param depths bits per sample to draw from (8, 16, 24, 32)
     * @param sampleRatesKhz sample rates to draw from, in kHz (16, 44.1, ...)
     * @param channels 1 or 2
     */
    public record Audio(double lengthMean, double lengthStddev, int batchSize, String format, List<Integer> depths,
                        List<Double> sampleRatesKhz, int channels) {
        public Audio {
            depths = List.copyOf(depths);
            sampleRatesKhz = List.copyOf(sampleRatesKhz);
        }
    }
}
