package io.aiperf.engine.cli;

import java.util.List;
import picocli.CommandLine.Option;

/**
 * Upstream AIPerf's synthetic image and audio inputs (its Image Input and Audio Input options): media sent with each
 * synthetic prompt as chat content parts (src-docs/datasets.md, "Synthetic images and audio"). Each flag sets its
 * key as is: the option table's overlay sets them all.
 */
@Topic(HelpTopic.MEDIA)
public final class MediaOptions {
    @Yaml(value = "benchmark.dataset.images.width.mean", defaultValue = "0")
    @Option(names = "--image-width-mean", paramLabel = "PIXELS", description = "Mean width of the synthetic "
            + "images; with --image-height-mean above 0, each synthetic prompt carries --image-batch-size images. "
            + "Default: 0 (no images).")
    Double imageWidthMean;
    @Yaml(value = "benchmark.dataset.images.width.stddev", defaultValue = "0")
    @Option(names = "--image-width-stddev", paramLabel = "PIXELS", description = "Standard deviation of the width.")
    Double imageWidthStddev;
    @Yaml(value = "benchmark.dataset.images.height.mean", defaultValue = "0")
    @Option(names = "--image-height-mean", paramLabel = "PIXELS", description = "Mean height of the synthetic "
            + "images. Default: 0 (no images).")
    Double imageHeightMean;
    @Yaml(value = "benchmark.dataset.images.height.stddev", defaultValue = "0")
    @Option(names = "--image-height-stddev", paramLabel = "PIXELS", description = "Standard deviation of the "
            + "height.")
    Double imageHeightStddev;
    @Yaml(value = "benchmark.dataset.images.batch_size", defaultValue = "1")
    @Option(names = {"--image-batch-size", "--batch-size-image"}, paramLabel = "N", description = "Images per "
            + "synthetic prompt.")
    Integer imageBatchSize;
    @Yaml(value = "benchmark.dataset.images.format", defaultValue = "png")
    @Option(names = "--image-format", paramLabel = "IMAGE_FORMAT", description = "png, jpeg, or random (either, "
            + "per image).")
    String imageFormat;
    @Yaml(value = "benchmark.dataset.images.source", defaultValue = "noise")
    @Option(names = "--image-source", paramLabel = "SOURCE", description = "noise (random pixels, a new image each "
            + "time) or a directory whose images are scaled to the drawn size.")
    String imageSource;
    @Yaml(value = "benchmark.dataset.images.sampling", defaultValue = "random-with-replacement")
    @Option(names = "--image-source-sampling", paramLabel = "SAMPLING", description = "How a directory's images "
            + "are drawn: random-with-replacement, shuffle-cycle or sequential-cycle.")
    String imageSourceSampling;

    @Yaml(value = "benchmark.dataset.audio.batch_size", defaultValue = "1")
    @Option(names = {"--audio-batch-size", "--batch-size-audio"}, paramLabel = "N", description = "Audio clips per "
            + "synthetic prompt, with --audio-length-mean above 0.")
    Integer audioBatchSize;
    @Yaml(value = "benchmark.dataset.audio.length.mean", defaultValue = "0")
    @Option(names = "--audio-length-mean", paramLabel = "SECONDS", description = "Mean length of the synthetic "
            + "audio clips (Gaussian noise, WAV). Default: 0 (no audio).")
    Double audioLengthMean;
    @Yaml(value = "benchmark.dataset.audio.length.stddev", defaultValue = "0")
    @Option(names = "--audio-length-stddev", paramLabel = "SECONDS", description = "Standard deviation of the "
            + "length.")
    Double audioLengthStddev;
    @Yaml(value = "benchmark.dataset.audio.format", defaultValue = "wav")
    @Option(names = "--audio-format", paramLabel = "AUDIO_FORMAT", description = "wav (mp3 is refused: no encoder "
            + "here).")
    String audioFormat;
    @Yaml(value = "benchmark.dataset.audio.depths", defaultValue = "16")
    @Option(names = "--audio-depths", paramLabel = "BITS", arity = "1..*", description = "Bit depths to draw from "
            + "(8, 16, 24, 32).")
    List<String> audioDepths;
    @Yaml(value = "benchmark.dataset.audio.sample_rates", defaultValue = "16")
    @Option(names = "--audio-sample-rates", paramLabel = "KHZ", arity = "1..*", description = "Sample rates in kHz "
            + "to draw from.")
    List<String> audioSampleRates;
    @Yaml(value = "benchmark.dataset.audio.num_channels", defaultValue = "1")
    @Option(names = "--audio-num-channels", paramLabel = "CHANNELS", description = "1 (mono) or 2 (stereo).")
    Integer audioNumChannels;
}
