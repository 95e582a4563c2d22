package io.aiperf.engine.config;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.List;
import java.util.Map;

/**
 * What binding a config reads besides the tree: the environment (the proxy variables, the dataset cache) and the
 * files the config names (an input file's format and timestamps, a system prompt, a payload template, TLS keys, an
 * image directory). The binders ask it and read no file and no environment variable themselves, so what they
 * decide depends only on the tree and what is handed in; {@link #of} is the real one, over the file system.
 */
public interface ConfigInputs {
    /** The file system and the given environment ({@link ConfigLoader} hands in the process's). */
    static ConfigInputs of(final Map<String, String> environment) {
        return new FileSystemInputs(environment);
    }

    /** The file system and the process's environment. */
    static ConfigInputs ofProcess() {
        return of(System.getenv());
    }

    Map<String, String> environment();

    boolean isDirectory(String path);

    /** The whole file as UTF-8 text. */
    String readString(String path) throws IOException;

    /** The format of an input file or directory, from its first row ({@link FormatDetector}). */
    DatasetConfig.Format detectFormat(String path, String field);

    /** Each row's timestamp in milliseconds, in file order, null for a row without one ({@link InputFiles}). */
    List<Long> timestamps(String path, String field, DatasetConfig.Format format, DatasetConfig.Synthesis synthesis);

    /** The local copy of the ShareGPT dataset: the path given, else the dataset cache ({@link PublicDatasets}). */
    String publicDataset(String given, String field);

    /** The body of upstream's {@code payload_template} extra input ({@link PayloadTemplate#bodyOf}). */
    String payloadTemplate(String spec, String field);

    /** The certificates of a PEM file; at least one. */
    List<Certificate> certificates(String file) throws IOException, GeneralSecurityException;

    /** The private key of a PEM file. */
    PrivateKey privateKey(String file) throws IOException, GeneralSecurityException;
}
