package io.pmedia.engagement.service;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.engagement.config.EngagementConfig;
import io.smallrye.mutiny.Uni;

/**
 * View tokens (docs/sharing.md, "What counts"): a page served to a viewer carries a token of its own, and a beacon
 * counts only with a valid one. A token is {@code <page view>.<issued at>.<signature>}: a random page-view id (16
 * bytes), the second it was issued (base 36), and the first 16 bytes of an HMAC-SHA256 over the share id, the page
 * view and that second. The key is the day's: derived from the day's random salt (shared through PostgreSQL, deleted
 * after two days, {@link VisitorHashes}) and {@code pmedia.engagement.view-token-secret}, so a token cannot be made
 * without loading a page, is worth one share id, and is worthless after {@code pmedia.engagement.view-token-ttl}.
 * The page-view id is the session the rollup counts each step of.
 */
@ApplicationScoped
public class ViewTokens {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern SHAPE = Pattern
            .compile("([A-Za-z0-9_-]{22})\\.([0-9a-z]{1,12})\\.([A-Za-z0-9_-]{22})");
    /** A token issued by a replica whose clock is ahead of this one's by up to this much is still believed. */
    private static final Duration SKEW = Duration.ofMinutes(1);
    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();
    private static final ThreadLocal<Mac> HMAC = ThreadLocal.withInitial(ViewTokens::hmac);

    private final VisitorHashes salts;
    private final Duration ttl;
    private final byte[] secret;
    private final Map<LocalDate, SecretKeySpec> keys = new ConcurrentHashMap<>();

    public ViewTokens(VisitorHashes salts, EngagementConfig config) {
        this.salts = salts;
        this.ttl = config.viewTokenTtl();
        this.secret = config.viewTokenSecret().orElse("").getBytes(StandardCharsets.UTF_8);
    }

    /** What a beacon's token says: the page view it was issued to, or why it is not believed. */
    public record Checked(String pageView, String refusal) {

        static Checked valid(String pageView) {
            return new Checked(pageView, null);
        }

        static Checked refused(String why) {
            return new Checked(null, why);
        }

        public boolean isValid() {
            return pageView != null;
        }
    }

    /** A new page view's token for the page of {@code shareId}. */
    public Uni<String> issue(String shareId) {
        Instant now = Instant.now();
        LocalDate day = day(now.getEpochSecond());
        return key(day).map(key -> {
            byte[] id = new byte[16];
            RANDOM.nextBytes(id);
            String pageView = BASE64.encodeToString(id);
            String issued = Long.toString(now.getEpochSecond(), 36);
            return pageView + "." + issued + "." + signature(key, shareId, pageView, issued);
        });
    }

    /** {@link #check}, when the key of the token's day is at hand; null when it has to be loaded first. */
    public Checked checkIfKnown(String shareId, String token, Instant now) {
        Parsed parsed = parse(token, now);
        if (parsed.refusal != null) {
            return Checked.refused(parsed.refusal);
        }
        SecretKeySpec key = keyIfKnown(day(parsed.issuedAt));
        return key == null ? null : verify(key, shareId, parsed);
    }

    /** Whether {@code token} is a valid one of the page of {@code shareId} now: its page view, or the refusal. */
    public Uni<Checked> check(String shareId, String token, Instant now) {
        Parsed parsed = parse(token, now);
        if (parsed.refusal != null) {
            return Uni.createFrom().item(Checked.refused(parsed.refusal));
        }
        return key(day(parsed.issuedAt)).map(key -> verify(key, shareId, parsed));
    }

    private record Parsed(String pageView, String issued, long issuedAt, String signature, String refusal) {
    }

    private Parsed parse(String token, Instant now) {
        if (token == null || token.isEmpty()) {
            return new Parsed(null, null, 0, null, "missing");
        }
        var match = SHAPE.matcher(token);
        if (!match.matches()) {
            return new Parsed(null, null, 0, null, "malformed");
        }
        long issuedAt = Long.parseLong(match.group(2), 36);
        long age = now.getEpochSecond() - issuedAt;
        if (age < -SKEW.toSeconds()) {
            return new Parsed(null, null, 0, null, "malformed");
        }
        if (age >= ttl.toSeconds()) {
            return new Parsed(null, null, 0, null, "expired");
        }
        return new Parsed(match.group(1), match.group(2), issuedAt, match.group(3), null);
    }

    private static Checked verify(SecretKeySpec key, String shareId, Parsed parsed) {
        byte[] expected = signature(key, shareId, parsed.pageView, parsed.issued).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, parsed.signature.getBytes(StandardCharsets.US_ASCII))
                ? Checked.valid(parsed.pageView)
                : Checked.refused("signature");
    }

    private static String signature(SecretKeySpec key, String shareId, String pageView, String issued) {
        Mac mac = HMAC.get();
        try {
            mac.init(key);
        } catch (InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
        byte[] digest = mac.doFinal(("v1\n" + shareId + "\n" + pageView + "\n" + issued)
                .getBytes(StandardCharsets.UTF_8));
        return BASE64.encodeToString(Arrays.copyOf(digest, 16));
    }

    private SecretKeySpec keyIfKnown(LocalDate day) {
        SecretKeySpec key = keys.get(day);
        if (key != null) {
            return key;
        }
        byte[] salt = salts.saltIfKnown(day);
        return salt == null ? null : derived(day, salt);
    }

    private Uni<SecretKeySpec> key(LocalDate day) {
        SecretKeySpec known = keyIfKnown(day);
        return known != null ? Uni.createFrom().item(known) : salts.salt(day).map(salt -> derived(day, salt));
    }

    /** The day's key: HMAC-SHA256 of the configured secret under the day's salt. */
    private SecretKeySpec derived(LocalDate day, byte[] salt) {
        Mac mac = HMAC.get();
        try {
            mac.init(new SecretKeySpec(salt, "HmacSHA256"));
        } catch (InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
        mac.update("pmedia view token\n".getBytes(StandardCharsets.UTF_8));
        SecretKeySpec key = new SecretKeySpec(mac.doFinal(secret), "HmacSHA256");
        keys.keySet().removeIf(other -> other.isBefore(day.minusDays(1)));
        keys.put(day, key);
        return key;
    }

    private static LocalDate day(long epochSecond) {
        return Instant.ofEpochSecond(epochSecond).atZone(ZoneOffset.UTC).toLocalDate();
    }

    private static Mac hmac() {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
