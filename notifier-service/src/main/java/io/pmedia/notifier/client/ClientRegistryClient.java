package io.pmedia.notifier.client;

import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import io.smallrye.mutiny.Uni;

/**
 * The registry client with its failure handling: a short timeout, two retries, and a breaker so that a gateway
 * outage costs the deliveries one fast failure each (they wait and try again) instead of a pile of hanging calls.
 * A client the gateway does not know (404) is an answer, not a failure: an empty Optional.
 */
@ApplicationScoped
public class ClientRegistryClient {

    private final GatewayClient gateway;
    private final String authorization;

    public ClientRegistryClient(@RestClient GatewayClient gateway,
            @ConfigProperty(name = "pmedia.internal-token") Optional<String> token) {
        this.gateway = gateway;
        this.authorization = token.filter(t -> !t.isBlank()).map(t -> "Bearer " + t).orElse(null);
    }

    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS)
    public Uni<Optional<WebhookRegistration>> fetch(UUID clientId) {
        return gateway.client(authorization, clientId)
                .map(Optional::ofNullable)
                .onFailure(ClientRegistryClient::notFound).recoverWithItem(Optional.empty());
    }

    public boolean configured() {
        return authorization != null;
    }

    private static boolean notFound(Throwable failure) {
        return failure instanceof WebApplicationException web && web.getResponse() != null
                && web.getResponse().getStatus() == 404;
    }
}
