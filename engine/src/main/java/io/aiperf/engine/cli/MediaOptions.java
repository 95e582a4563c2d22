package io.aiperf.engine.cli;

import io.aiperf.engine.config.CliOverlay;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Upstream AIPerf's synthetic image and audio inputs (its Image Input and Audio Input options): media sent with each
 * synthetic prompt as chat content parts (src-docs/datasets.md, "Synthetic images and audio").
 */
public final class MediaOptions {
    @Option(names = "--image-width-mean", paramLabel = "PIXELS", description = "Mean width of the synthetic "
            + "images; with --image-height-mean above 0, each synthetic prompt carries --image-batch-size images. "
            + "Default: 0 (no images).")
    Double imageWidthMean;
    @Option(names = "--image-width-stddev", paramLabel = "PIXELS", description = "Standard deviation of the width. "
            + "Default: 0.")
    Double imageWidthStddev;
    @Option(names = "--image-height-mean", paramLabel = "PIXELS", description = "Mean height of the synthetic "
            + "images. Default: 0 (no images).")
    Double imageHeightMean;
    @Option(names = "--image-height-stddev", paramLabel = "PIXELS", description = "Standard deviation of the "
            + "height. Default: 0.")
    Double imageHeightStddev;
    @Option(names = {"--image-batch-size", "--batch-size-image"}, paramLabel = "N", description = "Images per "
            + "synthetic prompt. Default: 1.")
    Integer imageBatchSize;
    @Option(names = "--image-format", paramLabel = "IMAGE_FORMAT", description = "png, jpeg, or random (either, "
            + "per image). Default: png.")
    String imageFormat;
    @Option(names = "--image-source", paramLabel = "SOURCE", description = "noise (random pixels, a new image each "
            + "time) or a directory whose images are scaled to the drawn size. Default: noise.")
    String imageSource;
    @Option(names = "--image-source-sampling", paramLabel = "SAMPLING", description = "How a directory's images "
            + "are drawn: random-with-replacement, shuffle-cycle or sequential-cycle. Default: "
            + "random-with-replacement.")
    String imageSourceSampling;

    @Option(names = {"--audio-batch-size", "--batch-size-audio"}, paramLabel = "N", description = "Audio clips per "
            + "synthetic prompt, with --audio-length-mean above 0. Default: 1.")
    Integer audioBatchSize;
    @Option(names = "--audio-length-mean", paramLabel = "SECONDS", description = "Mean length of the synthetic "
            + "audio clips (Gaussian noise, WAV). Default: 0 (no audio).")
    Double audioLengthMean;
    @Option(names = "--audio-length-stddev", paramLabel = "SECONDS", description = "Standard deviation of the "
            + "length. Default: 0.")
    Double audioLengthStddev;
    @Option(names = "--audio-format", paramLabel = "AUDIO_FORMAT", description = "wav (mp3 is refused: no encoder "
            + "here). Default: wav.")
    String audioFormat;
    @Option(names = "--audio-depths", paramLabel = "BITS", arity = "1..*", description = "Bit depths to draw from "
            + "(8, 16, 24, 32). Default: 16.")
    List<String> audioDepths;
    @Option(names = "--audio-sample-rates", paramLabel = "KHZ", arity = "1..*", description = "Sample rates in kHz "
            + "to draw from. Default: 16.")
    List<String> audioSampleRates;
    @Option(names = "--audio-num-channels", paramLabel = "CHANNELS", description = "1 (mono) or 2 (stereo). "
            + "Default: 1.")
    Integer audioNumChannels;

    void apply(final CliOverlay o) {
        o.set("dataset.images.width.mean", imageWidthMean, "--image-width-mean");
        o.set("dataset.images.width.stddev", imageWidthStddev, "--image-width-stddev");
        o.set("dataset.images.height.mean", imageHeightMean, "--image-height-mean");
        o.set("dataset.images.height.stddev", imageHeightStddev, "--image-height-stddev");
        o.set("dataset.images.batch_size", imageBatchSize, "--image-batch-size");
        o.set("dataset.images.format", imageFormat, "--image-format");
        o.set("dataset.images.source", imageSource, "--image-source");
        o.set("dataset.images.sampling", imageSourceSampling, "--image-source-sampling");
        o.set("dataset.audio.batch_size", audioBatchSize, "--audio-batch-size");
        o.set("dataset.audio.length.mean", audioLengthMean, "--audio-length-mean");
        o.set("dataset.audio.length.stddev", audioLengthStddev, "--audio-length-stddev");
        o.set("dataset.audio.format", audioFormat, "--audio-format");
        o.set("dataset.audio.depths", audioDepths == null ? null : String.join(",", audioDepths), "--audio-depths");
        o.set("dataset.audio.sample_rates", audioSampleRates == null ? null : String.join(",", audioSampleRates),
                "--audio-sample-rates");
        o.set("dataset.audio.num_channels", audioNumChannels, "--audio-num-channels");
    }
}
