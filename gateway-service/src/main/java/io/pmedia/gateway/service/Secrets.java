package io.pmedia.gateway.service;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.spec.InvalidKeySpecException;
import java.util.Base64;
import java.util.HexFormat;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Generation and hashing of vendor credentials. Client secrets are verified with PBKDF2-HMAC-SHA256 (slow on
 * purpose); API keys, being long random values, are stored as SHA-256 so that a presented key can be looked up.
 * Every comparison is constant-time.
 */
public final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PBKDF2 = "pbkdf2_sha256";
    private static final int ITERATIONS = 120_000;
    private static final int HASH_BYTES = 32;

    /** Verified against when the presented client id is unknown, so that it costs what a wrong secret costs. */
    private static final String DUMMY_HASH = hashSecret(newClientSecret());

    private Secrets() {
    }

    public static String newClientSecret() {
        return "pms_" + random(32);
    }

    public static String newApiKey() {
        return "pmk_" + random(32);
    }

    /** A Standard Webhooks secret: {@code whsec_} and the base64 of 32 random bytes (the HMAC key). */
    public static String newWebhookSecret() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    public static String hashSecret(String secret) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        byte[] hash = pbkdf2(secret, salt, ITERATIONS);
        return PBKDF2 + "$" + ITERATIONS + "$" + Base64.getEncoder().encodeToString(salt) + "$"
                + Base64.getEncoder().encodeToString(hash);
    }

    /** Whether {@code secret} matches {@code stored}; with a null {@code stored} it burns the same time and fails. */
    public static boolean verifySecret(String secret, String stored) {
        String[] parts = (stored == null ? DUMMY_HASH : stored).split("\\$");
        if (parts.length != 4 || !parts[0].equals(PBKDF2)) {
            return false;
        }
        byte[] salt = Base64.getDecoder().decode(parts[2]);
        byte[] expected = Base64.getDecoder().decode(parts[3]);
        byte[] actual = pbkdf2(secret == null ? "" : secret, salt, Integer.parseInt(parts[1]));
        return MessageDigest.isEqual(expected, actual) && stored != null;
    }

    public static String hashApiKey(String apiKey) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(apiKey.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Constant-time equality of two strings (operator and internal tokens). */
    public static boolean constantTimeEquals(String presented, String expected) {
        if (presented == null || expected == null) {
            return false;
        }
        return MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                expected.getBytes(StandardCharsets.UTF_8));
    }

    private static String random(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
    }

    private static byte[] pbkdf2(String secret, byte[] salt, int iterations) {
        try {
            PBEKeySpec spec = new PBEKeySpec(secret.toCharArray(), salt, iterations, HASH_BYTES * 8);
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (NoSuchAlgorithmException | InvalidKeySpecException e) {
            throw new IllegalStateException(e);
        }
    }
}
