package io.pmedia.media.service;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** A stable fingerprint of a JSON value: keys sorted at every depth, then SHA-256. */
final class Canonical {

    private Canonical() {
    }

    static String hash(ObjectMapper mapper, Object value) {
        try {
            ObjectMapper sorted = mapper.copy().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
            Object plain = sorted.convertValue(value, Object.class);
            return sha256(sorted.writeValueAsBytes(plain));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot fingerprint a value", e);
        }
    }

    /** The SHA-256 of {@code bytes} in lower-case hex: how registered files (fonts, motions) are told apart. */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
