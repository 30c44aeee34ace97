package io.pmedia.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import io.pmedia.client.model.AccessToken;

/**
 * The vendor's access token, fetched on first use and again before it expires: at 90 % of its lifetime (at most
 * five minutes early), so a request never leaves with a token about to lapse. One fetch at a time, whatever the
 * number of threads; a token the API refused (401) is dropped and fetched anew once.
 */
final class TokenCache {

    private static final Duration MAX_MARGIN = Duration.ofMinutes(5);

    private final Supplier<AccessToken> fetch;
    private final Clock clock;
    private String token;
    private Instant refreshAt = Instant.MIN;

    TokenCache(Supplier<AccessToken> fetch, Clock clock) {
        this.fetch = fetch;
        this.clock = clock;
    }

    synchronized String get() {
        if (token == null || !clock.instant().isBefore(refreshAt)) {
            Instant asked = clock.instant();
            AccessToken fresh = fetch.get();
            Duration lifetime = Duration.ofSeconds(fresh.getExpiresIn() == null ? 0 : fresh.getExpiresIn());
            Duration margin = lifetime.dividedBy(10);
            if (margin.compareTo(MAX_MARGIN) > 0) {
                margin = MAX_MARGIN;
            }
            token = fresh.getAccessToken();
            refreshAt = asked.plus(lifetime).minus(margin);
        }
        return token;
    }

    /** Forgets {@code refused} (a token the API answered 401 to), unless another thread replaced it already. */
    synchronized void invalidate(String refused) {
        if (refused != null && refused.equals(token)) {
            token = null;
        }
    }
}
