package io.aiperf.engine.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads an unencrypted private key from a PEM file: PKCS#8 (RSA, EC, Ed25519) or PKCS#1 RSA. Stateless. */
final class PemKeys {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");
    /** The PKCS#8 header of an RSA key: version 0 and the rsaEncryption algorithm. */
    private static final byte[] RSA_PKCS8_PREFIX = {0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48,
        (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

    private PemKeys() {
    }

    static PrivateKey read(final Path file) throws IOException, GeneralSecurityException {
        final Matcher m = BLOCK.matcher(Files.readString(file, StandardCharsets.US_ASCII));
        while (m.find()) {
            final String type = m.group(1);
            final byte[] der = Base64.getMimeDecoder().decode(m.group(2));
            switch (type) {
                case "PRIVATE KEY" -> {
                    return pkcs8(der);
                }
                case "RSA PRIVATE KEY" -> {
                    return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(rsaPkcs8(der)));
                }
                case "ENCRYPTED PRIVATE KEY" -> throw new GeneralSecurityException("the key in " + file
                        + " is encrypted; give an unencrypted one (openssl pkcs8 -topk8 -nocrypt)");
                case "EC PRIVATE KEY" -> throw new GeneralSecurityException("the key in " + file + " is a SEC1 EC key;"
                        + " convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)");
                default -> {
                    // a certificate or parameters next to the key: look further
                }
            }
        }
        throw new GeneralSecurityException("no private key in " + file);
    }

    private static PrivateKey pkcs8(final byte[] der) throws GeneralSecurityException {
        GeneralSecurityException last = null;
        for (final String algorithm : new String[] {"RSA", "EC", "Ed25519", "Ed448"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                last = e;
            }
        }
        throw new GeneralSecurityException("unsupported private key: " + last.getMessage());
    }

    /** Wraps a PKCS#1 RSA key into PKCS#8: SEQUENCE { 0, rsaEncryption, OCTET STRING key }. */
    private static byte[] rsaPkcs8(final byte[] pkcs1) {
        final byte[] octets = concat(new byte[] {0x04}, length(pkcs1.length), pkcs1);
        final byte[] body = concat(RSA_PKCS8_PREFIX, octets);
        return concat(new byte[] {0x30}, length(body.length), body);
    }

    private static byte[] length(final int n) {
        if (n < 0x80) {
            return new byte[] {(byte) n};
        }
        if (n < 0x100) {
            return new byte[] {(byte) 0x81, (byte) n};
        }
        if (n < 0x10000) {
            return new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n};
        }
        return new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
    }

    private static byte[] concat(final byte[]... parts) {
        int n = 0;
        for (final byte[] p : parts) {
            n += p.length;
        }
        final byte[] out = new byte[n];
        int at = 0;
        for (final byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
