package io.pmedia.batch.client;

import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;

import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import com.fasterxml.jackson.databind.JsonNode;

import io.smallrye.mutiny.Uni;

/**
 * The templates a vendor may use, as media-service shows them (the task pins the version and the definition), with
 * the failure handling in one place: a bound of {@value #TIMEOUT_SECONDS} seconds, one more try when media-service
 * could not be reached, and a breaker so that while it is away a create fails at once instead of waiting out the bound. A
 * template that is not the vendor's (404) is an answer, not a failure; any other refusal (4xx) is neither retried nor
 * counted against media-service.
 */
@ApplicationScoped
public class MediaTemplateClient {

    /** media-service reads one row, and may wait up to about two seconds for the gateway's revocation check. */
    static final long TIMEOUT_SECONDS = 5;

    private final MediaTemplateApi media;

    public MediaTemplateClient(@RestClient MediaTemplateApi media) {
        this.media = media;
    }

    /** A 4xx other than 404 from media-service: its answer, not an outage. */
    public static final class Refused extends RuntimeException {

        private final int status;

        Refused(int status) {
            super("media-service refused the template read with " + status);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /**
     * The template (as {@code GET /templates/{id}} answers it) when the vendor whose {@code authorization} this is may
     * use it; empty when media-service says it is not one (404). Fails with {@link Refused} for another refusal, and
     * otherwise (unreachable, 5xx, {@link TimeoutException}, an open breaker) when media-service cannot answer now.
     */
    @Timeout(value = TIMEOUT_SECONDS, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 1, delay = 200, jitter = 100, abortOn = {Refused.class, TimeoutException.class})
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS, skipOn = Refused.class)
    public Uni<Optional<JsonNode>> usable(String authorization, UUID templateId) {
        return Uni.createFrom().deferred(() -> media.usable(authorization, templateId.toString()))
                .map(Optional::ofNullable)
                .onFailure(failure -> status(failure) == 404).recoverWithItem(Optional.empty())
                .onFailure(failure -> status(failure) >= 400 && status(failure) < 500)
                .transform(failure -> new Refused(status(failure)));
    }

    private static int status(Throwable failure) {
        return failure instanceof WebApplicationException answered && answered.getResponse() != null
                ? answered.getResponse().getStatus()
                : 0;
    }
}
