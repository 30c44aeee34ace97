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

import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.engagement.repository.SaltStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Unique viewers without storing who they are (docs/privacy.md): a visitor is
 * {@code sha256(salt of the day, address, vendor)}, cut to 16 bytes. The salt is random, made by the first replica to
 * need it for a day (shared through PostgreSQL) and deleted after two days, so a hash can never be recomputed from an
 * address later, and the same person is a new visitor tomorrow and for another vendor. The user agent is not part of
 * it (issue 33): a script that rotates its user agent from one address is still one visitor.
 * <p>
 * The day's salt also keys the day's view tokens ({@link ViewTokens}): yesterday's stays at hand for the tokens
 * issued before midnight.
 */
@ApplicationScoped
public class VisitorHashes {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** One digest per thread (a view beacon hashes on the event loop; looking the algorithm up each time showed). */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(VisitorHashes::sha256);

    private final Map<LocalDate, byte[]> salts = new ConcurrentHashMap<>();
    private final SaltStore store;
    private final Vertx vertx;

    public VisitorHashes(SaltStore store, Vertx vertx) {
        this.vertx = vertx;
        this.store = store;
    }

    /** The visitor hash of a beacon from {@code address} for a page of {@code clientId}. */
    public Uni<String> of(String address, UUID clientId) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        return salt(today).map(salt -> hash(salt, address, clientId));
    }

    /** {@link #of}, when the day's salt is at hand; null when it has to be loaded first. */
    public String ofIfKnown(String address, UUID clientId) {
        byte[] salt = salts.get(LocalDate.now(ZoneOffset.UTC));
        return salt == null ? null : hash(salt, address, clientId);
    }

    /** The salt of {@code day} (today or yesterday), made and shared by the first replica to need it. */
    Uni<byte[]> salt(LocalDate day) {
        byte[] known = salts.get(day);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        byte[] fresh = new byte[32];
        RANDOM.nextBytes(fresh);
        // programmatic: only a day's first miss of the salts in memory opens a transaction; the beacon path opens none
        return BackgroundWork.toTheEnd(vertx, () -> Panache.withTransaction(() -> store.salt(day, fresh)))
                .map(salt -> {
                    salts.keySet().removeIf(other -> other.isBefore(day.minusDays(1)));
                    salts.put(day, salt);
                    return salt;
                });
    }

    /** {@link #salt}, when it is at hand; null when it has to be loaded first. */
    byte[] saltIfKnown(LocalDate day) {
        return salts.get(day);
    }

    static String hash(byte[] salt, String address, UUID clientId) {
        MessageDigest sha = SHA_256.get();
        sha.update(salt);
        sha.update((address + "\n" + clientId).getBytes(StandardCharsets.UTF_8));
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
