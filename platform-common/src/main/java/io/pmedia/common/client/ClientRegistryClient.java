package io.pmedia.common.client;

import java.net.URI;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;

import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.mutiny.Uni;

/**
 * The gateway's client registry as every service reads it, with the failure handling in one place: short timeouts,
 * a retry, and a breaker per operation so that a gateway outage costs callers one fast failure each instead of a
 * pile of hanging calls. A client the gateway does not know (404) is an answer, not a failure. The registry itself is
 * gateway-service's {@code service/ClientRegistry}; {@link ClientRegistryApi} is its HTTP interface, called only from
 * here.
 *
 * <p>
 * The address ({@code pmedia.gateway.internal-url}) and the internal token ({@code pmedia.internal-token}) come from
 * each service's configuration; the REST client is built on first use, so a service that never asks (the gateway
 * itself) needs neither.
 */
@ApplicationScoped
public class ClientRegistryClient {

    /** A TCP connection to the gateway is set up in well under this on any network we run on. */
    private static final long CONNECT_TIMEOUT_MILLIS = 1000;
    /** Longer than any {@link Timeout} below, which are the real bounds. */
    private static final long READ_TIMEOUT_MILLIS = 3000;

    private final Optional<String> baseUrl;
    private final String authorization;
    private volatile ClientRegistryApi gateway;

    public ClientRegistryClient(@ConfigProperty(name = "pmedia.gateway.internal-url") Optional<String> baseUrl,
            @ConfigProperty(name = "pmedia.internal-token") Optional<String> token) {
        this.baseUrl = baseUrl.filter(url -> !url.isBlank());
        this.authorization = token.filter(t -> !t.isBlank()).map(t -> "Bearer " + t).orElse(null);
    }

    /** The client's webhook registration, or empty when the client does not exist (the notifier's pushes). */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS)
    public Uni<Optional<WebhookRegistration>> fetch(UUID clientId) {
        return Uni.createFrom().deferred(() -> gateway().client(authorization, clientId))
                .map(Optional::ofNullable)
                .onFailure(ClientRegistryClient::notFound).recoverWithItem(Optional.empty());
    }

    /** The client's share page settings, or empty when the client does not exist. */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS)
    public Uni<Optional<SharingSettings>> sharing(UUID clientId) {
        return Uni.createFrom().deferred(() -> gateway().sharing(authorization, clientId))
                .map(Optional::ofNullable)
                .onFailure(ClientRegistryClient::notFound).recoverWithItem(Optional.empty());
    }

    /**
     * Whether the client still exists (every service's revocation check, on the request path): bounded to about two
     * seconds in all, since a request waits for it when no earlier answer can stand in.
     */
    @Timeout(value = 1, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 1, delay = 100, jitter = 50)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS)
    public Uni<Boolean> isActive(UUID clientId) {
        return Uni.createFrom().deferred(() -> gateway().active(authorization, clientId))
                .replaceWith(Boolean.TRUE)
                .onFailure(ClientRegistryClient::notFound).recoverWithItem(Boolean.FALSE);
    }

    /**
     * Replaces the client's webhook endpoint in the registry. Idempotent, so retried like a read; a refusal (400, 404)
     * is the registry's answer and is not retried.
     */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 1, delay = 200, jitter = 100, abortOn = WebApplicationException.class)
    public Uni<WebhookRegistration> replaceWebhook(UUID clientId, WebhookEndpoint endpoint) {
        return Uni.createFrom().deferred(() -> gateway().replaceWebhook(authorization, clientId, endpoint));
    }

    /** Issues a new webhook secret. Not retried: a second rotation would end the overlap of the first one's secret. */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    public Uni<RotatedWebhookSecret> rotateWebhookSecret(UUID clientId) {
        return Uni.createFrom().deferred(() -> gateway().rotateWebhookSecret(authorization, clientId));
    }

    /** Whether the internal token is set; without it the gateway refuses every call. */
    public boolean configured() {
        return authorization != null;
    }

    private ClientRegistryApi gateway() {
        ClientRegistryApi client = gateway;
        if (client == null) {
            synchronized (this) {
                if (gateway == null) {
                    gateway = QuarkusRestClientBuilder.newBuilder()
                            .baseUri(URI.create(baseUrl.orElseThrow(() -> new IllegalStateException(
                                    "pmedia.gateway.internal-url (PMEDIA_GATEWAY_INTERNAL_URL) is not set"))))
                            .connectTimeout(CONNECT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                            .readTimeout(READ_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                            .build(ClientRegistryApi.class);
                }
                client = gateway;
            }
        }
        return client;
    }

    private static boolean notFound(Throwable failure) {
        return failure instanceof WebApplicationException web && web.getResponse() != null
                && web.getResponse().getStatus() == 404;
    }
}
