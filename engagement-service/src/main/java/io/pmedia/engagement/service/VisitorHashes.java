package io.pmedia.engagement.service;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.engagement.repository.SaltStore;
import io.smallrye.mutiny.Uni;

/**
 * Unique viewers without storing who they are (docs/privacy.md, as Plausible counts): a visitor is
 * {@code sha256(salt of the day, address, user agent, vendor)}, cut to 16 bytes. The salt is random, made by the
 * first replica to need it for a day (shared through PostgreSQL) and deleted after two days, so a hash can never be
 * recomputed from an address later, and the same person is a new visitor tomorrow and for another vendor.
 */
@ApplicationScoped
public class VisitorHashes {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** One digest per thread (a view beacon hashes on the event loop; looking the algorithm up each time showed). */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(VisitorHashes::sha256);

    private final Map<LocalDate, byte[]> salts = new ConcurrentHashMap<>();
    private final SaltStore store;

    public VisitorHashes(SaltStore store) {
        this.store = store;
    }

    /** The visitor hash of a beacon from {@code address} with {@code userAgent} for a page of {@code clientId}. */
    public Uni<String> of(String address, String userAgent, UUID clientId) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        return salt(today).map(salt -> hash(salt, address, userAgent, clientId));
    }

    /** {@link #of}, when the day's salt is at hand; null when it has to be loaded first. */
    public String ofIfKnown(String address, String userAgent, UUID clientId) {
        byte[] salt = salts.get(LocalDate.now(ZoneOffset.UTC));
        return salt == null ? null : hash(salt, address, userAgent, clientId);
    }

    private Uni<byte[]> salt(LocalDate day) {
        byte[] known = salts.get(day);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        byte[] fresh = new byte[32];
        RANDOM.nextBytes(fresh);
        return store.salt(day, fresh)
                .map(salt -> {
                    salts.keySet().removeIf(other -> other.isBefore(day));
                    salts.put(day, salt);
                    return salt;
                });
    }

    static String hash(byte[] salt, String address, String userAgent, UUID clientId) {
        MessageDigest sha = SHA_256.get();
        sha.update(salt);
        sha.update((address + "\n" + (userAgent == null ? "" : userAgent) + "\n" + clientId)
                .getBytes(StandardCharsets.UTF_8));
        byte[] digest = sha.digest();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(digest, 16));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
