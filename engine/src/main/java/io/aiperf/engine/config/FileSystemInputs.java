package io.aiperf.engine.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.List;
import java.util.Map;

/** The real {@link ConfigInputs}: the files on disk and an environment handed in. */
final class FileSystemInputs implements ConfigInputs {
    private final Map<String, String> environment;

    FileSystemInputs(final Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public Map<String, String> environment() {
        return environment;
    }

    @Override
    public boolean isDirectory(final String path) {
        return Files.isDirectory(Path.of(path));
    }

    @Override
    public String readString(final String path) throws IOException {
        return Files.readString(Path.of(path));
    }

    @Override
    public DatasetConfig.Format detectFormat(final String path, final String field) {
        return FormatDetector.detect(path, field);
    }

    @Override
    public List<Long> timestamps(final String path, final String field, final DatasetConfig.Format format,
                                 final DatasetConfig.Synthesis synthesis) {
        return InputFiles.timestamps(path, field, format, synthesis);
    }

    @Override
    public String publicDataset(final String given, final String field) {
        return PublicDatasets.locate(given, field, environment);
    }

    @Override
    public String payloadTemplate(final String spec, final String field) {
        return PayloadTemplate.bodyOf(spec, field);
    }

    @Override
    public List<Certificate> certificates(final String file) throws IOException, GeneralSecurityException {
        return TlsConfig.certificates(file);
    }

    @Override
    public PrivateKey privateKey(final String file) throws IOException, GeneralSecurityException {
        return PemKeys.read(Path.of(file));
    }
}
