package io.pmedia.common.security;

import java.time.Duration;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.LongSupplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.pmedia.common.client.ClientRegistryClient;
import io.pmedia.common.concurrent.SingleFlightCache;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.smallrye.mutiny.Uni;

/**
 * Decides whether a client's token is still honoured: its client must still exist in the gateway's registry. The
 * gateway's answer is reused for {@link RevocationConfig#cacheTtl()} (one call per client per interval, shared by
 * concurrent requests), so a deleted client is refused by every service within that interval. When the gateway
 * cannot answer, a client it confirmed within {@link RevocationConfig#staleIfError()} passes; anyone else gets 503.
 */
@ApplicationScoped
public class RevocationCheck {

    private static final Logger LOG = Logger.getLogger(RevocationCheck.class);
    private static final int MAX_CLIENTS = 100_000;
    /** The same words the gateway uses for a token it no longer honours: a vendor cannot tell where it was refused. */
    static final String REFUSED = "invalid or expired bearer token";

    private final SingleFlightCache<UUID, Boolean> answers;
    private final Duration ttl;
    private final Duration staleIfError;
    private final Duration retryAfter;

    @Inject
    public RevocationCheck(ClientRegistryClient registry, RevocationConfig config) {
        this(registry::isActive, config, System::nanoTime);
        if (!registry.configured()) {
            LOG.warn("pmedia.internal-token (PMEDIA_INTERNAL_TOKEN) is not set: the gateway will refuse client"
                    + " checks, and vendor requests will be answered 503");
        }
    }

    /** With another source of answers and another clock, for tests. */
    RevocationCheck(Function<UUID, Uni<Boolean>> source, RevocationConfig config, LongSupplier nanoTime) {
        this.ttl = config.cacheTtl();
        this.staleIfError = config.staleIfError();
        this.retryAfter = config.retryAfter();
        this.answers = new SingleFlightCache<>(source, max(ttl, staleIfError), MAX_CLIENTS, nanoTime);
    }

    /**
     * Completes when the client may go on; fails with 401 {@code UNAUTHORIZED} when it was deleted (or never
     * existed), with 503 {@code SERVICE_UNAVAILABLE} when the gateway cannot tell and no recent answer stands in.
     */
    public Uni<Void> requireActive(UUID clientId) {
        return answers.get(clientId, ttl)
                .onFailure().recoverWithUni(failure -> staleOrUnavailable(clientId, failure))
                .flatMap(active -> active
                        ? Uni.createFrom().voidItem()
                        : Uni.createFrom().failure(ApiException.unauthorized(REFUSED)));
    }

    private Uni<Boolean> staleOrUnavailable(UUID clientId, Throwable failure) {
        if (Boolean.TRUE.equals(answers.lastLoaded(clientId, staleIfError))) {
            LOG.debugf("gateway did not answer for client %s (%s): confirmed recently, let through", clientId,
                    failure.toString());
            return Uni.createFrom().item(Boolean.TRUE);
        }
        LOG.warnf("cannot confirm client %s with the gateway: %s", clientId, failure.toString());
        return Uni.createFrom().failure(new ApiException(ErrorCode.SERVICE_UNAVAILABLE,
                "cannot verify the client right now, retry later", retryAfter));
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
